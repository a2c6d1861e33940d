/**
 * Deal values are decimal strings ("1000.25") so they never lose precision
 * as floats. The arithmetic and the formatting live in shared/money.ts, which
 * the engine's reports use too; this module keeps the renderer's names.
 */
import { formatMoney, sumByCurrency, sumDecimals } from '../../shared/money.js';

export { formatMoney, sumDecimals };

/** Sums per currency, in the order the currencies first appear: a board column can hold deals in several. */
export function totalsByCurrency(deals: readonly { value: string; currency: string }[]): { currency: string; total: string }[] {
  return sumByCurrency(deals.map((d) => ({ currency: d.currency, amount: d.value }))).map((s) => ({ currency: s.currency, total: s.amount }));
}

/** Whether the text is a decimal the API takes as a value (digits, an optional fraction). */
export function isDecimal(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text.trim());
}
