import type { QueryValue } from '../../shared/bridge.js';
import type { Task } from '../../shared/resources/task.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { recordOf } from '../records/records.js';
import { useRecordSummaries } from '../records/useRecordSummaries.js';
import { TaskItem } from './TaskItem.js';
import { SECTION_TITLES, sectionFilters, showMoreLabel, type TaskSectionKey } from './taskSections.js';
import { useTaskChanges } from './taskCountsStore.js';
import type { Selection } from '../bulk/useSelection.js';

const PER_PAGE = 20;

interface Props {
  section: TaskSectionKey;
  /** The screen's filters (the rep's own tasks, a search, a smart list), the section's added. */
  filters: Record<string, QueryValue>;
  /** The hub's count of the whole section (null until known). */
  count: number | null;
  /** The Tasks screen's bulk selection. */
  selection?: Selection;
}

/** One section of the Tasks screen, read from the hub a page at a time: right with 10 tasks or 10 000. */
export function TaskSection({ section, filters, count, selection }: Props) {
  const list = usePagedList<Task>('/v2/tasks', { ...filters, ...sectionFilters(section) }, PER_PAGE);
  useTaskChanges(list.refresh);
  useRefreshOnSync(list.refresh);
  const summaries = useRecordSummaries(list.rows.map(recordOf));
  const title = SECTION_TITLES[section];
  const showMore = list.hasMore ? showMoreLabel(count, list.rows.length, PER_PAGE) : null;

  return (
    <section className="card task-section" id={`tasks-${section}`} aria-label={title}>
      <h2>{title} {count !== null && <span className="muted">{count}</span>}</h2>
      {list.error && <p className="form-error" role="alert">{list.error}</p>}
      {list.rows.length === 0 && !list.loading && !list.error && <p className="muted">Nothing here.</p>}
      {list.rows.length > 0 && (
        <ul className="tasks">{list.rows.map((t) => <TaskItem key={t.id} task={t} summaries={summaries}
          select={selection && { selected: selection.has(t.id), toggle: () => selection.toggle(t.id) }} />)}</ul>
      )}
      {showMore && <button type="button" className="show-more" onClick={list.loadMore} disabled={list.loading}>{showMore}</button>}
    </section>
  );
}
