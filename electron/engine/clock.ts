/**
 * Time is injected everywhere (token expiry, overdue tasks, sequence delays)
 * so tests can move it without sleeping.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock tests can set and advance. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start: Date | string = '2026-01-05T09:00:00Z') {
    this.current = new Date(start).getTime();
  }
  now(): Date {
    return new Date(this.current);
  }
  set(to: Date | string): void {
    this.current = new Date(to).getTime();
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

/** The last second formatted, and its text: most calls in a busy second ask for the same one. */
let lastSecond = Number.NaN;
let lastText = '';

/**
 * The wire format of every date-time: UTC, ISO 8601, whole seconds
 * (`2026-01-05T09:00:00Z`). A request formats "now" several times (its
 * token's expiry, SQL's now_utc(), the timestamps it writes), so the text of
 * the current second is kept. An invalid date throws RangeError, as toISOString does.
 */
export function isoSeconds(date: Date): string {
  const second = Math.floor(date.getTime() / 1000);
  if (second !== lastSecond) {
    lastText = new Date(second * 1000).toISOString().replace(/\.000Z$/, 'Z');
    lastSecond = second;
  }
  return lastText;
}
