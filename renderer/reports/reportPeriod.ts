/**
 * The period presets of the Reports screen and the dates they stand for.
 * Dates are calendar days (`YYYY-MM-DD`) in the browser's time zone: the
 * hub cuts them in the account's, which for a team in one place is the same.
 */

export const PERIOD_PRESETS = ['this_month', 'last_3_months', 'last_12_months', 'this_year', 'custom'] as const;
export type PeriodPreset = (typeof PERIOD_PRESETS)[number];

export const PRESET_LABELS: Record<PeriodPreset, string> = {
  this_month: 'This month',
  last_3_months: 'Last 3 months',
  last_12_months: 'Last 12 months',
  this_year: 'This year',
  custom: 'Custom dates',
};

export interface DateRange {
  from: string;
  to: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A local date as `YYYY-MM-DD` (not toISOString: that is the UTC day). */
export const isoDay = (date: Date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;

/** The first day of the month `monthsBack` months before today's. */
const monthStart = (today: Date, monthsBack: number) => isoDay(new Date(today.getFullYear(), today.getMonth() - monthsBack, 1));

/** "Last N months" are N whole months counting this one, as the hub's default (12) is. */
export function presetRange(preset: Exclude<PeriodPreset, 'custom'>, today = new Date()): DateRange {
  const to = isoDay(today);
  switch (preset) {
    case 'this_month': return { from: monthStart(today, 0), to };
    case 'last_3_months': return { from: monthStart(today, 2), to };
    case 'last_12_months': return { from: monthStart(today, 11), to };
    case 'this_year': return { from: `${today.getFullYear()}-01-01`, to };
  }
}

const dayOf = (iso: string) => {
  const [y, m, d] = iso.split('-').map(Number);
  return new Date(y, m - 1, d);
};

/** A period's label in a table or on an axis: "Mar 2026" for a month, "2 Mar" (its Monday) for a week. */
export function periodLabel(start: string, interval: 'month' | 'week', withYear = false): string {
  const date = dayOf(start);
  if (interval === 'month') return date.toLocaleDateString(undefined, { month: 'short', year: 'numeric' });
  return date.toLocaleDateString(undefined, { day: 'numeric', month: 'short', ...(withYear ? { year: 'numeric' } : {}) });
}

/** "2 Mar 2026 – 8 Mar 2026": a period in full, for tooltips and table headers of weeks. */
export function periodSpan(start: string, end: string): string {
  const format = (iso: string) => dayOf(iso).toLocaleDateString(undefined, { day: 'numeric', month: 'short', year: 'numeric' });
  return `${format(start)} – ${format(end)}`;
}
