/**
 * What is wrong with a task's reminder, said before Save, as the due date and
 * reminder change (`datetime-local` values, the rep's local time): after the
 * due date or with none the API refuses it; in the past it would go off at
 * once, which the rep may mean, so it is only said.
 */
export function reminderWarning(due: string, remind: string, now: Date): string | null {
  if (!remind) return null;
  const at = new Date(remind);
  if (Number.isNaN(at.getTime())) return null;
  if (!due) return 'Set a due date for the reminder to come before.';
  const dueAt = new Date(due);
  if (!Number.isNaN(dueAt.getTime()) && at >= dueAt) return 'The reminder must be before the due date.';
  if (at < now) return 'The reminder is in the past: it will show at once.';
  return null;
}
