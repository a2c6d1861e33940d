import { invalidParam } from '../problems.js';

/**
 * A time zone as clients name it, to find where a person's day ends: an IANA
 * name (`Europe/Berlin`, what a browser reports, daylight saving included) or
 * a fixed offset in the spec's form (`UTC+01:00`, a user's `timezone` field).
 */
export type TimeZone = { offsetMinutes: number } | { format: Intl.DateTimeFormat };

const OFFSET = /^UTC([+-])(0\d|1[0-4]):([0-5]\d)$/;
const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;

/** Formatters are costly to make and there are few zones: each is made once. */
const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone named by `text`; a name no one knows is a 400 on the parameter `name`. */
export function parseTimeZone(name: string, text: string): TimeZone {
  const offset = OFFSET.exec(text.trim());
  if (offset) return { offsetMinutes: (offset[1] === '-' ? -1 : 1) * (Number(offset[2]) * 60 + Number(offset[3])) };
  const known = formats.get(text);
  if (known) return { format: known };
  try {
    const format = new Intl.DateTimeFormat('en-US', {
      timeZone: text, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
    });
    formats.set(text, format);
    return { format };
  } catch {
    throw invalidParam(name, `must be an IANA time zone such as Europe/Berlin, or an offset such as UTC+01:00, given: ${text}`);
  }
}

/** How far the zone's wall clock is ahead of UTC at `at`, in minutes. */
function offsetAt(zone: TimeZone, at: number): number {
  if ('offsetMinutes' in zone) return zone.offsetMinutes;
  const parts = Object.fromEntries(zone.format.formatToParts(at).map((p) => [p.type, Number(p.value)]));
  const wall = Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second);
  return Math.round((wall - Math.floor(at / 1000) * 1000) / MINUTE_MS);
}

/**
 * The instant the day after `now`'s day begins in the zone (its local
 * midnight). The offset is asked again at that midnight, so a day that
 * changes to or from daylight saving ends at its true hour.
 */
export function startOfNextDay(now: Date, zone: TimeZone): Date {
  const wallNow = now.getTime() + offsetAt(zone, now.getTime()) * MINUTE_MS;
  const nextMidnightWall = Math.floor(wallNow / DAY_MS) * DAY_MS + DAY_MS;
  let instant = nextMidnightWall - offsetAt(zone, nextMidnightWall) * MINUTE_MS;
  // A second look settles the offset when the first guess fell on the other side of a change.
  instant = nextMidnightWall - offsetAt(zone, instant) * MINUTE_MS;
  return new Date(instant);
}
