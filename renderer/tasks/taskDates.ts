/** `<input type="datetime-local">` speaks local time without a zone; the API speaks UTC ISO 8601. */
export function localInputToIso(value: string): string | null {
  return value ? new Date(value).toISOString() : null;
}

/** The other way: a UTC moment as `<input type="datetime-local">` shows it, in the reader's time zone (`2026-11-24T10:53`). */
export function isoToLocalInput(iso: string | null): string {
  if (!iso) return '';
  const date = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** The day of a moment (`2026-11-24T10:53:00Z`) in the reader's time zone, as people read it ("Nov 24, 2026"). */
export function formatDateOf(iso: string | null): string {
  return iso ? new Date(iso).toLocaleDateString(undefined, { dateStyle: 'medium' }) : '';
}

export function formatWhen(iso: string | null): string {
  if (!iso) return '';
  return new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/** A calendar date (`2027-01-19`, no time or zone) as people read it ("Jan 19, 2027"), on the day it names wherever the reader is. */
export function formatDay(date: string | null): string {
  const match = date ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(date) : null;
  if (!match) return date ?? '';
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3])).toLocaleDateString(undefined, { dateStyle: 'medium' });
}
