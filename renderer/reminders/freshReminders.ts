import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { ReminderTracker } from '../../shared/reminders.js';

const SHOWN_KEY = 'outpost.reminders.shown';
const PAGE = 20;

/** The reminders that came due since the last look in this browser session, and whether the whole first page was new. */
export interface FreshReminders {
  tasks: Task[];
  allNew: boolean;
}

/**
 * The user's due reminders, latest first: one that has just come due is
 * always on the first page, whatever the backlog. Each (task, remind_at) is
 * announced once per browser session; a snoozed one comes back at its new time.
 */
export async function freshReminders(ownerId: number): Promise<FreshReminders> {
  const page = await api.list<Task>('/v2/tasks', { owner_id: ownerId, reminder_due: true, sort_by: 'remind_at:desc', per_page: PAGE });
  const due = page.items.map((i) => i.data);
  const tracker = new ReminderTracker(JSON.parse(sessionStorage.getItem(SHOWN_KEY) ?? '[]') as string[]);
  const fresh = new Set(tracker.fresh(due).map((t) => t.id));
  if (fresh.size > 0) sessionStorage.setItem(SHOWN_KEY, JSON.stringify(tracker.keys()));
  return { tasks: due.filter((t) => fresh.has(t.id)), allNew: due.length > 0 && fresh.size === due.length };
}
