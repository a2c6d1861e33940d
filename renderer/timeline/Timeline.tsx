import { useCallback, useEffect, useState } from 'react';
import { loadTimeline, type TimelineEntry } from './timelineEntries.js';
import { NoteForm } from './NoteForm.js';
import { CallForm } from './CallForm.js';
import { DocumentDrop } from './DocumentDrop.js';
import { VisitForm } from './VisitForm.js';
import { TaskForm } from '../tasks/TaskForm.js';
import { TaskItem } from '../tasks/TaskItem.js';
import { formatWhen } from '../tasks/taskDates.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useRecordSummaries, type RecordSummary } from '../records/useRecordSummaries.js';

type Adding = 'note' | 'call' | 'task' | 'visit';

const TAB_LABELS: Record<Adding, string> = { note: 'Add note', call: 'Log call', task: 'Add task', visit: 'Record visit' };

/** A record's activity, newest first, with add-note, log-call, add-task and attach-file inline. */
export function Timeline({ resourceType, resourceId, phone }: { resourceType: 'contact' | 'lead' | 'deal'; resourceId: number; phone: string }) {
  const [entries, setEntries] = useState<TimelineEntry[]>([]);
  const [adding, setAdding] = useState<Adding>('note');
  const reload = useCallback(() => {
    loadTimeline(resourceType, resourceId).then(setEntries, () => setEntries([]));
  }, [resourceType, resourceId]);
  useEffect(reload, [reload]);
  useRefreshOnSync(reload);
  const resource = { type: resourceType, id: resourceId };
  // The record's name, for its tasks' link (as the Tasks screen shows them).
  const summaries = useRecordSummaries([resource]);

  return (
    <section className="card timeline" aria-label="Timeline">
      <div className="tabs" role="tablist">
        {(Object.keys(TAB_LABELS) as Adding[]).filter((kind) => kind !== 'visit' || resourceType !== 'deal').map((kind) => (
          <button key={kind} type="button" role="tab" aria-selected={adding === kind} onClick={() => setAdding(kind)}>{TAB_LABELS[kind]}</button>
        ))}
      </div>
      {adding === 'note' && <NoteForm resource={resource} onSaved={reload} />}
      {adding === 'call' && <CallForm resource={resource} phone={phone} onSaved={reload} />}
      {adding === 'task' && <TaskForm resource={resource} onCreated={reload} />}
      {adding === 'visit' && <VisitForm resource={resource} onSaved={reload} />}
      <DocumentDrop resource={resource} onSaved={reload} />
      <ol className="entries">
        {entries.length === 0 && <li className="muted">No activity yet.</li>}
        {entries.map((entry) => <Entry key={`${entry.kind}-${entry.item.id}`} entry={entry} summaries={summaries} onChanged={reload} />)}
      </ol>
    </section>
  );
}

function Entry({ entry, summaries, onChanged }: { entry: TimelineEntry; summaries: Map<string, RecordSummary>; onChanged(): void }) {
  const when = <span className="muted when">{formatWhen(entry.at)}</span>;
  switch (entry.kind) {
    case 'note':
      return <li className="entry note"><b>Note{entry.item.type === 'restricted' ? ' (private)' : ''}</b> {entry.item.content} {when}</li>;
    case 'task':
      return <li className="entry"><ul className="tasks"><TaskItem task={entry.item} summaries={summaries} onChanged={onChanged} /></ul></li>;
    case 'call':
      return <li className="entry call"><b>{entry.item.incoming ? 'Incoming call' : 'Call'}</b> {entry.item.phone_number}{entry.item.summary ? ` — ${entry.item.summary}` : ''} {when}</li>;
    case 'text_message':
      return <li className="entry"><b>{entry.item.incoming ? 'Text received' : 'Text sent'}</b> {entry.item.content} {when}</li>;
    case 'visit':
      return <li className="entry"><b>Visit</b> {entry.item.summary ?? ''} {when}</li>;
    case 'document':
      return <li className="entry"><b>File</b> <a href={entry.item.download_url} download={entry.item.name}>{entry.item.name}</a> <span className="muted">{Math.ceil(entry.item.size / 1024)} KB</span> {when}</li>;
  }
}
