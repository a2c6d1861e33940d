import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { loadTimeline, type TimelineEntry } from './timelineEntries.js';
import { callKindText, durationText } from './activityText.js';
import { NoteForm } from './NoteForm.js';
import { CallForm } from './CallForm.js';
import { DocumentDrop } from './DocumentDrop.js';
import { VisitForm } from './VisitForm.js';
import { useOutcomes, type Outcome } from './useOutcomes.js';
import { TaskForm } from '../tasks/TaskForm.js';
import { TaskItem } from '../tasks/TaskItem.js';
import { formatWhen } from '../tasks/taskDates.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useRecordSummaries, type RecordSummary } from '../records/useRecordSummaries.js';
import { showPhone } from '../records/phoneFormat.js';
import { EntryActions, useMayChange, type ActivityKind } from './EntryActions.js';
import './timeline.css';

type Adding = 'note' | 'call' | 'task' | 'visit';

const TAB_LABELS: Record<Adding, string> = { note: 'Note', call: 'Call', task: 'Task', visit: 'Visit' };

/** The newest entries shown at first, and how many more each "Show more" adds: the panels beside stay within reach. */
const PAGE = 10;

interface Outcomes {
  call: Outcome[];
  visit: Outcome[];
}

/**
 * A record's composer and activity: add a note, log a call, add a task or
 * record a visit (tabs over one form), attach files, and the timeline under
 * them, newest first, ten at a time.
 */
export function Timeline({ resourceType, resourceId, phone }: { resourceType: 'contact' | 'lead' | 'deal'; resourceId: number; phone: string }) {
  const [entries, setEntries] = useState<TimelineEntry[]>([]);
  const [adding, setAdding] = useState<Adding>('note');
  const [shown, setShown] = useState(PAGE);
  const reload = useCallback(() => {
    loadTimeline(resourceType, resourceId).then(setEntries, () => setEntries([]));
  }, [resourceType, resourceId]);
  useEffect(reload, [reload]);
  useRefreshOnSync(reload);
  const outcomes: Outcomes = { call: useOutcomes('/v2/call_outcomes'), visit: useOutcomes('/v2/visit_outcomes') };
  const resource = { type: resourceType, id: resourceId };
  // The record's name, for its tasks' link (as the Tasks screen shows them).
  const summaries = useRecordSummaries([resource]);
  // Deals take no visits (a visit is to a lead or contact).
  const kinds = (Object.keys(TAB_LABELS) as Adding[]).filter((kind) => kind !== 'visit' || resourceType !== 'deal');

  return (
    <section className="card timeline" aria-label="Timeline">
      <div className="composer">
        <div className="tabs" role="tablist" aria-label="Add to the timeline">
          {kinds.map((kind) => (
            <button key={kind} type="button" role="tab" aria-selected={adding === kind} onClick={() => setAdding(kind)}>{TAB_LABELS[kind]}</button>
          ))}
        </div>
        {adding === 'note' && <NoteForm resource={resource} onSaved={reload} />}
        {adding === 'call' && <CallForm resource={resource} phone={phone} onSaved={reload} />}
        {adding === 'task' && <TaskForm resource={resource} onCreated={reload} />}
        {adding === 'visit' && <VisitForm resource={resource} onSaved={reload} />}
        <DocumentDrop resource={resource} onSaved={reload} />
      </div>
      <h2 className="timeline-heading">Activity {entries.length > 0 && <span className="count">{entries.length}</span>}</h2>
      <ol className="entries">
        {entries.length === 0 && <li className="muted">No activity yet.</li>}
        {entries.slice(0, shown).map((entry) => <Entry key={`${entry.kind}-${entry.item.id}`} entry={entry} resource={resource} outcomes={outcomes} summaries={summaries} onChanged={reload} />)}
      </ol>
      {entries.length > shown && (
        <button type="button" className="show-more" onClick={() => setShown((n) => n + PAGE)}>
          Show {Math.min(PAGE, entries.length - shown)} more of {entries.length - shown}
        </button>
      )}
    </section>
  );
}

const outcomeName = (list: Outcome[], id: number | null) => (id === null ? null : list.find((o) => o.id === id)?.name ?? null);

/** Facts of an entry after its kind, separated by dots ("Interested · 4 min 30 s"). */
function Facts({ items }: { items: (string | null | undefined | false)[] }) {
  const shown = items.filter(Boolean);
  return shown.length > 0 ? <span className="facts">· {shown.join(' · ')}</span> : null;
}

interface EntryProps {
  entry: TimelineEntry;
  resource: { type: string; id: number };
  outcomes: Outcomes;
  summaries: Map<string, RecordSummary>;
  onChanged(): void;
}

function Entry({ entry, resource, outcomes, summaries, onChanged }: EntryProps) {
  const when = <span className="muted when">{formatWhen(entry.at)}</span>;
  switch (entry.kind) {
    case 'note': {
      const note = entry.item;
      return (
        <ActivityEntry kind="note" id={note.id} creatorId={note.creator_id} className="entry note" preview={note.content} onChanged={onChanged}
          head={<><b>Note{note.type === 'restricted' ? ' (private)' : ''}</b> {when}</>}
          body={<p className="entry-text">{note.content}</p>}
          editor={(done) => <NoteForm resource={resource} editing={note} onSaved={done} onCancel={done} />} />
      );
    }
    case 'task':
      return <li className="entry"><ul className="tasks"><TaskItem task={entry.item} summaries={summaries} onChanged={onChanged} /></ul></li>;
    case 'call': {
      const call = entry.item;
      const number = call.phone_number ? showPhone(call.phone_number) : null;
      return (
        <ActivityEntry kind="call" id={call.id} creatorId={call.creator_id} className={`entry call${call.missed ? ' missed' : ''}`} preview={call.summary} onChanged={onChanged}
          head={<><b>{callKindText(call)}</b> <Facts items={[outcomeName(outcomes.call, call.outcome_id), !call.missed && durationText(call.duration)]} /> {when}</>}
          body={<>
            {number && <span className="entry-meta">{number.href ? <a href={number.href}>{number.text}</a> : number.text}</span>}
            {call.summary && <p className="entry-text">{call.summary}</p>}
          </>}
          editor={(done) => <CallForm resource={resource} phone="" editing={call} onSaved={done} onCancel={done} />} />
      );
    }
    case 'text_message':
      return <li className="entry"><b>{entry.item.incoming ? 'Text received' : 'Text sent'}</b> {when}<p className="entry-text">{entry.item.content}</p></li>;
    case 'visit': {
      const visit = entry.item;
      return (
        <ActivityEntry kind="visit" id={visit.id} creatorId={visit.creator_id} className="entry visit" preview={visit.summary} onChanged={onChanged}
          head={<><b>Visit</b> <Facts items={[outcomeName(outcomes.visit, visit.outcome_id)]} /> {when}</>}
          body={<>
            {visit.resource_address && <span className="entry-meta">{visit.resource_address}</span>}
            {visit.summary && <p className="entry-text">{visit.summary}</p>}
          </>}
          editor={(done) => <VisitForm resource={resource} editing={visit} onSaved={done} onCancel={done} />} />
      );
    }
    case 'document':
      return <li className="entry"><b>File</b> <a href={entry.item.download_url} download={entry.item.name}>{entry.item.name}</a> <span className="muted">{Math.ceil(entry.item.size / 1024)} KB</span> {when}</li>;
  }
}

interface ActivityEntryProps {
  kind: ActivityKind;
  id: number;
  creatorId: number | null;
  className: string;
  preview: string | null;
  head: ReactNode;
  body: ReactNode;
  /** The entry's form, filled in; `done` after a save or a cancel. */
  editor(done: () => void): ReactNode;
  onChanged(): void;
}

/**
 * A note, call or visit: its author (or an admin) corrects it in place
 * (the form takes the text's place, the rep stays on the page) or deletes it.
 */
function ActivityEntry({ kind, id, creatorId, className, preview, head, body, editor, onChanged }: ActivityEntryProps) {
  const [editing, setEditing] = useState(false);
  const mayChange = useMayChange(creatorId);
  const item = useRef<HTMLLIElement>(null);
  // Where the rep works next: the form's first field on opening, Edit again on closing.
  const opened = useRef(false);
  useEffect(() => {
    if (editing) item.current?.querySelector<HTMLElement>('textarea, input:not([type=checkbox]), select')?.focus();
    else if (opened.current) item.current?.querySelector<HTMLElement>('.entry-actions button')?.focus();
    opened.current = editing;
  }, [editing]);
  const done = () => {
    setEditing(false);
    onChanged();
  };
  return (
    <li className={className} ref={item}>
      <div className="entry-head">
        <span>{head}</span>
        {mayChange && !editing && <EntryActions kind={kind} id={id} preview={preview} onEdit={() => setEditing(true)} onDeleted={onChanged} />}
      </div>
      {editing ? editor(done) : body}
    </li>
  );
}
