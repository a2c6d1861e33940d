import type { CurrencyValues } from '../../shared/resources/report.js';
import { sumDecimals } from '../deals/money.js';

/** Every currency among the values, the account's first, then alphabetical. */
export function currenciesOf(values: readonly CurrencyValues[], home: string | undefined): string[] {
  const all = [...new Set(values.flatMap((v) => Object.keys(v)))].sort();
  return home && all.includes(home) ? [home, ...all.filter((c) => c !== home)] : all;
}

/** Exact sums per currency of several values objects (a table's total row). */
export function sumValues(values: readonly CurrencyValues[]): CurrencyValues {
  const sums: CurrencyValues = {};
  for (const currency of currenciesOf(values, undefined)) sums[currency] = sumDecimals(values.map((v) => v[currency] ?? '0'));
  return sums;
}

/** "$1.2M": a money axis's tick. */
export function compactMoney(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, notation: 'compact', maximumFractionDigits: 1 }).format(amount);
  } catch {
    return `${new Intl.NumberFormat(undefined, { notation: 'compact', maximumFractionDigits: 1 }).format(amount)} ${currency}`;
  }
}

/** "0.67" → "67%"; null (nothing to divide) → "—". */
export function formatRate(rate: string | null): string {
  if (rate === null) return '—';
  return new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 }).format(Number(rate));
}

/** Won ÷ (won + lost) of a total row, as the hub writes it ("0.67"), or null. */
export function rateOf(part: number, whole: number): string | null {
  return whole === 0 ? null : (Math.round((part / whole) * 100) / 100).toFixed(2);
}

export const formatCount = (n: number) => n.toLocaleString();
