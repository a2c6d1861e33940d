/** `<input type="datetime-local">` speaks local time without a zone; the API speaks UTC ISO 8601. */
export function localInputToIso(value: string): string | null {
  return value ? new Date(value).toISOString() : null;
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
