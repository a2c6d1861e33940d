import { useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import { NOTE_RESOURCE_TYPES, type Note } from '../../shared/resources/note.js';
import { useSession } from '../session/sessionStore.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useUsers } from '../collaborators/useUsers.js';
import { recordOf } from '../records/records.js';
import { RecordLink } from '../records/RecordLink.js';
import { useRecordSummaries, type RecordSummary } from '../records/useRecordSummaries.js';
import { formatWhen } from '../tasks/taskDates.js';
import { FilterBar } from '../lists/FilterBar.js';
import { ListCount } from '../lists/ListCount.js';
import { ListStatus } from '../lists/ListStatus.js';
import { useDebounced } from '../lists/useDebounced.js';
import { CsvExportButton } from '../importExport/ExportButton.js';
import './notes.css';

const SEARCH_DELAY_MS = 200;
const RECORD_KINDS: Record<(typeof NOTE_RESOURCE_TYPES)[number], string> = { contact: 'Contacts', lead: 'Leads', deal: 'Deals' };

interface Filters {
  resource_type: string;
  mine: boolean;
}

function toQuery(q: string, filters: Filters, me: number | undefined): Record<string, QueryValue> {
  return {
    q: q.trim() || undefined,
    resource_type: filters.resource_type || undefined,
    creator_id: filters.mine ? me : undefined,
    sort_by: 'created_at:desc',
  };
}

/** Every note the signed-in person may read (private ones only their own), newest first, searchable, each linking its record. */
export function NotesScreen() {
  const me = useSession((s) => s.user?.id);
  const [filters, setFilters] = useState<Filters>({ resource_type: '', mine: false });
  const [search, setSearch] = useState('');
  // Searched once the typing pauses.
  const q = useDebounced(search, SEARCH_DELAY_MS);
  const query = toQuery(q, filters, me);
  const list = usePagedList<Note>('/v2/notes', query);
  useRefreshOnSync(list.refresh);
  const summaries = useRecordSummaries(list.rows.map(recordOf));
  const users = useUsers();

  const change = (patch: Partial<Filters>) => setFilters({ ...filters, ...patch });
  return (
    <section className="screen notes-screen">
      <header className="screen-header">
        <h1>Notes</h1>
        <div className="list-actions">
          <CsvExportButton resource="notes" query={query} what="notes" />
        </div>
      </header>
      <FilterBar active={(filters.resource_type ? 1 : 0) + (filters.mine ? 1 : 0)} count={<ListCount shown={list.rows.length} total={list.total} loading={list.loading} />}
        search={<input type="search" placeholder="Search the notes" aria-label="Search notes" value={search} onChange={(e) => setSearch(e.target.value)} />}>
        <select aria-label="On" value={filters.resource_type} onChange={(e) => change({ resource_type: e.target.value })}>
          <option value="">On any record</option>
          {NOTE_RESOURCE_TYPES.map((t) => <option key={t} value={t}>On {RECORD_KINDS[t].toLowerCase()}</option>)}
        </select>
        <select aria-label="Written by" value={filters.mine ? 'me' : ''} onChange={(e) => change({ mine: e.target.value === 'me' })}>
          <option value="">By anyone</option>
          <option value="me">By me</option>
        </select>
      </FilterBar>
      <ol className="note-list" aria-label="Notes">
        {list.rows.map((note) => <NoteItem key={note.id} note={note} summaries={summaries} author={users.find((u) => u.id === note.creator_id)?.name} />)}
      </ol>
      <ListStatus list={list} empty={q.trim() ? 'No notes match.' : 'No notes yet: add one on a contact, lead or deal.'} />
    </section>
  );
}

function NoteItem({ note, summaries, author }: { note: Note; summaries: Map<string, RecordSummary>; author: string | undefined }) {
  const record = recordOf(note);
  return (
    <li className="card note-item" aria-label={note.content.slice(0, 80)}>
      <p className="note-content">{note.content}</p>
      <p className="note-meta muted">
        {record && <>On <RecordLink record={record} summaries={summaries} /> · </>}
        {author && <>{author} · </>}
        <time dateTime={note.created_at}>{formatWhen(note.created_at)}</time>
        {note.type === 'restricted' && <span className="badge">Private</span>}
        {note.is_important && <span className="badge important">Important</span>}
      </p>
    </li>
  );
}
