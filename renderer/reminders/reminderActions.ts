import type { Task } from '../../shared/resources/task.js';
import { api } from '../api/client.js';
import { formatWhen } from '../tasks/taskDates.js';
import { useTaskCounts } from '../tasks/taskCountsStore.js';
import { snoozedTimes, type SnoozeChoice } from './snooze.js';

/** Saves a change to the task and tells every count and list of tasks; answers what happened, in words. */
async function change(task: Task, data: Partial<Task>, done: (saved: Task) => string): Promise<string> {
  const saved = await api.update<Task>(`/v2/tasks/${task.id}`, data);
  useTaskCounts.getState().changed();
  return done(saved);
}

export function snoozeReminder(task: Task, choice: SnoozeChoice): Promise<string> {
  const times = snoozedTimes(task, choice.until(new Date()));
  return change(task, times, (saved) => {
    const moved = times.due_date ? `; due moved to ${formatWhen(saved.due_date)}` : '';
    return `Snoozed until ${formatWhen(saved.remind_at)}${moved}.`;
  });
}

export function completeReminder(task: Task): Promise<string> {
  return change(task, { completed: true }, () => `Done: ${task.content}.`);
}

/** No more reminder; the task itself stays as it was. */
export function dismissReminder(task: Task): Promise<string> {
  return change(task, { remind_at: null }, () => 'Reminder dismissed; the task stays in Tasks.');
}
