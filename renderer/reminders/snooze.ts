import type { Task } from '../../shared/resources/task.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

/** A choice of the notification centre's Snooze: its button, its spoken name, and when it reminds again. */
export interface SnoozeChoice {
  label: string;
  name: string;
  until(now: Date): Date;
}

export const SNOOZE_CHOICES: readonly SnoozeChoice[] = [
  { label: '10 min', name: 'in 10 minutes', until: (now) => new Date(now.getTime() + 10 * MINUTE_MS) },
  { label: '1 h', name: 'in 1 hour', until: (now) => new Date(now.getTime() + HOUR_MS) },
  {
    label: 'Tomorrow',
    name: 'tomorrow at 9:00',
    until: (now) => {
      const next = new Date(now);
      next.setDate(next.getDate() + 1);
      next.setHours(9, 0, 0, 0);
      return next;
    },
  },
];

/** The wire format: UTC, whole seconds. */
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

/**
 * The task's times after a snooze until `until`. The reminder is the task's
 * own `remind_at`, so the snooze holds on every device and in every session.
 * The API wants a reminder earlier than the due date: a due date not after
 * `until` moves on with it, keeping the lead the reminder had (an hour if none).
 */
export function snoozedTimes(task: Pick<Task, 'due_date' | 'remind_at'>, until: Date): { remind_at: string; due_date?: string } {
  const remindAt = iso(until.getTime());
  if (task.due_date && Date.parse(task.due_date) > Date.parse(remindAt)) return { remind_at: remindAt };
  const lead = task.due_date && task.remind_at ? Date.parse(task.due_date) - Date.parse(task.remind_at) : HOUR_MS;
  return { remind_at: remindAt, due_date: iso(Date.parse(remindAt) + Math.max(lead, MINUTE_MS)) };
}
