/**
 * Deal values are decimal strings ("1000.25") so they never lose precision
 * as floats. The arithmetic and the formatting live in shared/money.ts, which
 * the engine's reports use too; this module keeps the renderer's names.
 */
export { formatMoney, sumDecimals } from '../../shared/money.js';

/** Whether the text is a decimal the API takes as a value (digits, an optional fraction). */
export function isDecimal(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text.trim());
}
