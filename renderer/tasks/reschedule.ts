import { addDays, isValid, parse, set, startOfDay } from 'date-fns';
import type { Task } from '../../shared/resources/task.js';

/**
 * Where a rescheduled task goes: tomorrow, in a week, or a day picked in a
 * date input (`2027-01-19`). Always counted from today, not from the old due
 * date, so an overdue task moved "Tomorrow" really is due tomorrow.
 */
export type RescheduleTarget = { kind: 'tomorrow' } | { kind: 'next-week' } | { kind: 'day'; day: string };

/** The time a task without a due time gets: the start of the working day. */
const WORKDAY_START = { hours: 9, minutes: 0 };

/**
 * "Next week" is the same time seven days from today rather than next
 * Monday: it is what the date fields' own "Next week" pick means, and a task
 * pushed on a Friday lands on a working day, not on the Monday pile-up.
 */
const DAYS_AHEAD = { tomorrow: 1, 'next-week': 7 } as const;

/** The calendar day a target names, at local midnight; null for a date input's value that is no date. */
function dayOf(target: RescheduleTarget, now: Date): Date | null {
  if (target.kind !== 'day') return addDays(startOfDay(now), DAYS_AHEAD[target.kind]);
  const day = parse(target.day, 'yyyy-MM-dd', now);
  return isValid(day) ? day : null;
}

/**
 * The new due moment: the target's day at the task's local time of day
 * (09:00 when it had no due date). Built from local wall-clock fields, so a
 * task due at 10:00 is still due at 10:00 across a daylight-saving change.
 */
export function rescheduledDue(due: string | null, target: RescheduleTarget, now: Date): Date | null {
  const day = dayOf(target, now);
  if (!day) return null;
  const old = due ? new Date(due) : null;
  const time = old ? { hours: old.getHours(), minutes: old.getMinutes() } : WORKDAY_START;
  return set(day, { ...time, seconds: 0, milliseconds: 0 });
}

/** The wire format: UTC, whole seconds. */
const iso = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * What a PUT sends to move the task: the new due date, and its reminder moved
 * along keeping the same lead (the API wants a reminder before the due date,
 * and one set "an hour before" should stay an hour before). Null when the
 * target is no date.
 */
export function rescheduledTimes(task: Pick<Task, 'due_date' | 'remind_at'>, target: RescheduleTarget, now: Date): { due_date: string; remind_at?: string } | null {
  const due = rescheduledDue(task.due_date, target, now);
  if (!due) return null;
  if (!task.due_date || !task.remind_at) return { due_date: iso(due) };
  const lead = Date.parse(task.due_date) - Date.parse(task.remind_at);
  return { due_date: iso(due), remind_at: iso(new Date(due.getTime() - lead)) };
}

/** How a target reads after the move ("tomorrow", "Jan 19, 2027"), for a status message. */
export function targetWords(target: RescheduleTarget, now: Date): string {
  if (target.kind === 'tomorrow') return 'tomorrow';
  if (target.kind === 'next-week') return 'next week';
  const day = dayOf(target, now);
  return day ? day.toLocaleDateString(undefined, { dateStyle: 'medium' }) : target.day;
}
