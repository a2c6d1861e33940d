import type { ReportInterval, ReportPeriod } from '../../../shared/resources/report.js';
import { addDays, dayDate, utcDay, utcInstant, type DayRange } from './params.js';

/**
 * The periods of a time series over a range: calendar months or ISO weeks
 * (Monday to Sunday), every one present even when nothing happened, the
 * first and last cut to the range so their counts are the range's.
 * SQL groups by local day; `indexOf` puts each day in its period.
 */
export class Periods {
  readonly list: ReportPeriod[] = [];
  private readonly starts: string[] = [];

  constructor(private readonly range: DayRange, interval: ReportInterval) {
    let start = periodStart(range.from, interval);
    while (start <= range.to) {
      const next = nextPeriodStart(start, interval);
      this.starts.push(start);
      this.list.push({ period_start: start < range.from ? range.from : start, period_end: addDays(next, -1) > range.to ? range.to : addDays(next, -1) });
      start = next;
    }
  }

  /** Each period's UTC bounds, as stored times compare: `[start, end)`. */
  utcBounds(): [string, string][] {
    return this.list.map((p) => [utcInstant(p.period_start, this.range.offsetMinutes), utcInstant(addDays(p.period_end, 1), this.range.offsetMinutes)]);
  }

  /** Index of the period holding `day` (within the range), by binary search over the period starts. */
  indexOf(day: string): number {
    let low = 0;
    let high = this.starts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.starts[middle] <= day) low = middle;
      else high = middle - 1;
    }
    return low;
  }
}

function periodStart(day: string, interval: ReportInterval): string {
  if (interval === 'month') return `${day.slice(0, 7)}-01`;
  // getUTCDay: Sunday 0 … Saturday 6; ISO weeks start on Monday.
  const weekday = (dayDate(day).getUTCDay() + 6) % 7;
  return addDays(day, -weekday);
}

function nextPeriodStart(start: string, interval: ReportInterval): string {
  if (interval === 'week') return addDays(start, 7);
  const date = dayDate(start);
  return utcDay(new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + 1, 1)));
}
