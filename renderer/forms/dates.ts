/**
 * The quick picks of a date field (Today, Tomorrow, Next week) and the values
 * they give: a calendar date (`2026-11-25`) or a local date and time
 * (`2026-11-25T17:00`), as `<input type="date">` and `"datetime-local"` hold them.
 */
export type DateKind = 'date' | 'datetime-local';

export const QUICK_PICKS = [
  { label: 'Today', days: 0 },
  { label: 'Tomorrow', days: 1 },
  { label: 'Next week', days: 7 },
] as const;

const pad = (n: number) => String(n).padStart(2, '0');
const dayText = (d: Date) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;

/** The hour a picked day starts at when no time was chosen yet: the start of the working day. */
const WORKDAY_START = '09:00';

/**
 * The value of a quick pick `days` after `now`'s day. A date and time keeps
 * the time already chosen (else 09:00); today's, when that time has passed,
 * becomes the next full hour (or 23:59 late at night), so Today never means
 * a moment already gone.
 */
export function pickedValue(kind: DateKind, days: number, current: string, now: Date): string {
  const day = new Date(now.getFullYear(), now.getMonth(), now.getDate() + days);
  if (kind === 'date') return dayText(day);
  const time = /T(\d{2}:\d{2})/.exec(current)?.[1] ?? WORKDAY_START;
  const picked = `${dayText(day)}T${time}`;
  if (new Date(picked) > now) return picked;
  const nextHour = new Date(now.getFullYear(), now.getMonth(), now.getDate(), now.getHours() + 1);
  return nextHour.getDate() === now.getDate() ? `${dayText(now)}T${pad(nextHour.getHours())}:00` : `${dayText(now)}T23:59`;
}
