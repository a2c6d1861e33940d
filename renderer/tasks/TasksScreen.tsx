import { useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { TaskCounts } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';
import { OwnerFilter } from '../owners/OwnerFilter.js';
import { TaskForm } from './TaskForm.js';
import { TaskSection } from './TaskSection.js';
import { BulkReschedule } from './BulkReschedule.js';
import { SECTION_TITLES, localTimeZone, type TaskSectionKey } from './taskSections.js';
import { useTaskChanges, useTaskCounts } from './taskCountsStore.js';
import { CsvExportButton, ExportButton } from '../importExport/ExportButton.js';
import { BulkBar } from '../bulk/BulkBar.js';
import { BULK_KINDS } from '../bulk/bulkKinds.js';
import { useSelection } from '../bulk/useSelection.js';
import { FilterBar } from '../lists/FilterBar.js';
import { SmartListToolbar } from '../smartLists/SmartListToolbar.js';
import { useSmartListScreen } from '../smartLists/useSmartListScreen.js';
import './tasks.css';

const SECTIONS: TaskSectionKey[] = ['overdue', 'today', 'upcoming', 'none', 'completed'];
const SEARCH_DELAY_MS = 150;
const COLUMNS = ['Task', 'Due', 'Related to'];

/** The screen's filters: a search, and whose tasks ('' anyone's; by default the rep's own). */
interface Filters {
  q: string;
  owner_id: string;
}

const toQuery = (filters: Filters): Record<string, QueryValue> => ({ q: filters.q.trim() || undefined, owner_id: filters.owner_id || undefined });

/**
 * The rep's tasks in sections (overdue, today, upcoming, no due date,
 * completed). The hub decides what falls where, counts each section and
 * pages it, so today's tasks show even behind hundreds of overdue ones.
 * A search, another owner or a smart list narrows every section.
 */
export function TasksScreen() {
  const me = useSession((s) => s.user);
  const mine: Filters = { q: '', owner_id: me ? String(me.id) : '' };
  const [filters, setFilters] = useState<Filters>(mine);
  const [search, setSearch] = useState('');
  const show = (next: Filters) => {
    setSearch(next.q);
    setFilters(next);
  };
  const smartList = useSmartListScreen('task', toQuery(filters), {
    apply: (list) => show({ q: list.filters.q ?? '', owner_id: list.filters.owner_id ?? '' }),
    reset: () => show(mine),
  });
  const own = smartList.list === null && filters.q === '' && filters.owner_id === mine.owner_id;
  const counts = useSectionCounts(own ? null : smartList.request);
  useEffect(() => void useTaskCounts.getState().refresh(), []);
  // The bulk selection spans the sections: "all matching" is every task the screen's filters select.
  const selection = useSelection(JSON.stringify(smartList.request));
  const total = counts ? SECTIONS.reduce((sum, section) => sum + (counts[section] ?? 0), 0) : null;

  // Search as you type, once the typing pauses.
  useEffect(() => {
    const timer = setTimeout(() => setFilters((f) => (f.q === search ? f : { ...f, q: search })), SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [search]);

  if (!me) return null;
  return (
    <section className="screen tasks-screen">
      <header className="screen-header">
        <h1>Tasks</h1>
        <div className="list-actions">
          <CsvExportButton resource="tasks" query={{ owner_id: me.id, sort_by: 'due_date' }} what="tasks" />
          <ExportButton path="/v2/tasks/export.ics" query={{ owner_id: me.id, sort_by: 'due_date' }} label="Export calendar (.ics)" description="Export your tasks with a due date as an iCalendar file" />
        </div>
      </header>
      {/* The form tells the sections itself (taskCountsStore). */}
      <TaskForm onCreated={() => undefined} />
      <SmartListToolbar screen={smartList} columns={COLUMNS} />
      <FilterBar active={filters.owner_id === mine.owner_id ? 0 : 1} count={null}
        search={<input type="search" placeholder="Search tasks" aria-label="Search tasks" value={search} onChange={(e) => setSearch(e.target.value)} />}>
        <OwnerFilter value={filters.owner_id} onChange={(owner_id) => setFilters({ ...filters, owner_id })} anyLabel="Anyone's tasks" />
      </FilterBar>
      <nav className="section-jumps" aria-label="Task sections">
        {SECTIONS.map((section) => (
          <button key={section} type="button" className={`jump ${section}`} onClick={() => document.getElementById(`tasks-${section}`)?.scrollIntoView({ block: 'start' })}>
            {SECTION_TITLES[section]} <b>{counts?.[section] ?? '…'}</b>
          </button>
        ))}
      </nav>
      <BulkBar kind={BULK_KINDS.tasks} selection={selection} total={total} query={smartList.request}
        nameOf={() => undefined} onChanged={() => useTaskCounts.getState().changed()} />
      <BulkReschedule selection={selection} query={smartList.request} />
      {SECTIONS.map((section) => <TaskSection key={section} section={section} filters={smartList.request} count={counts?.[section] ?? null} selection={selection} />)}
    </section>
  );
}

/**
 * The sections' counts: the rep's own from the shared store (the bell's
 * too); for other filters (a search, another owner, a smart list) the hub's
 * counts of those, read again after each change to a task.
 */
function useSectionCounts(filters: Record<string, QueryValue> | null): TaskCounts | null {
  const shared = useTaskCounts((s) => s.counts);
  const [own, setOwn] = useState<{ key: string; counts: TaskCounts } | null>(null);
  const [version, setVersion] = useState(0);
  useTaskChanges(() => setVersion((v) => v + 1));
  const key = JSON.stringify(filters);
  useEffect(() => {
    if (filters === null) return;
    let live = true;
    const { sort_by: _sort, page: _page, per_page: _perPage, count: _count, ...rest } = filters;
    api.get<TaskCounts>('/v2/tasks/counts', { ...rest, tz: localTimeZone() }).then((counts) => live && setOwn({ key, counts }), () => undefined);
    return () => {
      live = false;
    };
    // The key stands for the filters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, version]);
  if (filters === null) return shared;
  return own?.key === key ? own.counts : null;
}
