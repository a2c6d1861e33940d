/** `<input type="datetime-local">` speaks local time without a zone; the API speaks UTC ISO 8601. */
export function localInputToIso(value: string): string | null {
  return value ? new Date(value).toISOString() : null;
}

export function formatWhen(iso: string | null): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

export type TaskBucket = 'overdue' | 'today' | 'upcoming' | 'someday';

/** Where an open task belongs on the Tasks screen, by its due date and now. */
export function bucketOf(dueDate: string | null, now: Date): TaskBucket {
  if (!dueDate) return 'someday';
  const due = new Date(dueDate);
  if (due < now) return 'overdue';
  const endOfToday = new Date(now);
  endOfToday.setHours(23, 59, 59, 999);
  return due <= endOfToday ? 'today' : 'upcoming';
}
