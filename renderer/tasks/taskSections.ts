import type { QueryValue } from '../../shared/bridge.js';
import type { TaskDueSection } from '../../shared/resources/task.js';

export type TaskSectionKey = TaskDueSection | 'completed';

/** The browser's own time zone (IANA name): the hub cuts the days of the sections there. */
export const localTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export const SECTION_TITLES: Record<TaskSectionKey, string> = {
  overdue: 'Overdue',
  today: 'Today',
  upcoming: 'Upcoming',
  none: 'No due date',
  completed: 'Completed',
};

/** Tasks whose due date is set read in due order; the others newest first. */
const ORDER: Record<TaskSectionKey, string> = {
  overdue: 'due_date',
  today: 'due_date',
  upcoming: 'due_date',
  none: 'created_at:desc',
  completed: 'completed_at:desc',
};

/** The list query of one section of the user's tasks (GET /v2/tasks with the extension `due`). */
export function sectionQuery(section: TaskSectionKey, ownerId: number, order = ORDER[section]): Record<string, QueryValue> {
  return { owner_id: ownerId, ...sectionFilters(section, order) };
}

/** What makes a list of tasks one section (and its order), added to any other filters (a smart list's). */
export function sectionFilters(section: TaskSectionKey, order = ORDER[section]): Record<string, QueryValue> {
  if (section === 'completed') return { completed: true, sort_by: order };
  return { completed: false, due: section, tz: localTimeZone(), sort_by: order };
}


/**
 * The label of a section's "Show more" button: never more than remain
 * ("Show 3 more of 3"), and null (no button) when none remain by the hub's
 * count, which may have fallen below what is loaded as tasks were done.
 * Without a count yet, a page's worth.
 */
export function showMoreLabel(count: number | null, loaded: number, perPage: number): string | null {
  if (count === null) return `Show ${perPage} more`;
  const left = Math.max(0, count - loaded);
  return left === 0 ? null : `Show ${Math.min(perPage, left)} more of ${left}`;
}
