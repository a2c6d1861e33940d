/**
 * A line's total, exact: its `value` (the unit price after variation, which
 * the API rounds to cents) × its quantity, on BigInt units, so no amount ever
 * passes through a JavaScript number. The order's subtotals and totals are the
 * API's own (`totals`).
 */
import { sumDecimals } from '../deals/money.js';

interface Exact {
  units: bigint;
  /** Digits after the point: the value is units / 10^scale. */
  scale: number;
}

const NUMBER_TEXT = /^([+-])?(\d*)(?:\.(\d*))?$/;

/** A decimal as the API sends it (a string, or a number for percents and quantities) in exact form. */
function exact(input: string | number): Exact {
  const match = NUMBER_TEXT.exec(String(input).trim());
  if (!match || (match[2] === '' && !match[3])) return { units: 0n, scale: 0 };
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt((whole || '0') + fraction);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

function text({ units, scale }: Exact): string {
  return sumDecimals([`${units < 0n ? '-' : ''}${shift(units < 0n ? -units : units, scale)}`]);
}

/** Places the point `scale` digits from the right of a non-negative integer. */
function shift(units: bigint, scale: number): string {
  const digits = units.toString().padStart(scale + 1, '0');
  return scale === 0 ? digits : `${digits.slice(0, -scale)}.${digits.slice(-scale)}`;
}

const times = (a: Exact, b: Exact): Exact => ({ units: a.units * b.units, scale: a.scale + b.scale });

/** value × quantity, exact ("3671.99" × 3 → "11015.97"). */
export function lineTotal(value: string, quantity: string | number): string {
  return text(times(exact(value), exact(quantity)));
}
