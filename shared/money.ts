import { minorUnitsOf } from './currencies.js';

/**
 * Exact money arithmetic on decimal strings ("1000.25"), shared by the
 * renderer (board, Home, reports) and the engine (reports): values are
 * parsed into BigInt units scaled to their own number of decimals, summed
 * and multiplied as integers, and only a converted total is rounded, once,
 * half up, to the minor units of its currency. No amount ever passes
 * through a JavaScript number.
 */

const DECIMAL = /^(-)?(\d*)(?:\.(\d*))?$/;

/** A decimal as an integer and how many of its digits are decimals: "12.5" → 125n, 1. */
export interface Scaled {
  units: bigint;
  digits: number;
}

/** Unparseable text counts as zero (a total never fails over one odd value). */
export function parseDecimalText(value: string): Scaled {
  const match = DECIMAL.exec(value.trim());
  if (!match || (match[2] === '' && (match[3] ?? '') === '')) return { units: 0n, digits: 0 };
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt((whole || '0') + fraction);
  return { units: sign ? -units : units, digits: fraction.length };
}

function rescale({ units, digits }: Scaled, to: number): bigint {
  return units * 10n ** BigInt(to - digits);
}

/** Units at `digits` decimals as text, trailing fractional zeros dropped ("0" for zero). */
export function renderDecimal(units: bigint, digits: number): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? text.slice(-digits).replace(/0+$/, '') : '';
  return `${negative && /[1-9]/.test(text) ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The exact sum of decimal strings, as a decimal string without trailing zeros ("0" for none). */
export function sumDecimals(values: readonly string[]): string {
  const parsed = values.map(parseDecimalText);
  const digits = Math.max(0, ...parsed.map((p) => p.digits));
  const total = parsed.reduce((sum, p) => sum + rescale(p, digits), 0n);
  return renderDecimal(total, digits);
}

/** An amount of money in one currency. */
export interface Amount {
  currency: string;
  amount: string;
}

/** Sums per currency, in the order the currencies first appear. */
export function sumByCurrency(amounts: readonly Amount[]): Amount[] {
  const groups = new Map<string, string[]>();
  for (const { currency, amount } of amounts) groups.set(currency, [...(groups.get(currency) ?? []), amount]);
  return [...groups].map(([currency, values]) => ({ currency, amount: sumDecimals(values) }));
}

/**
 * Exchange rates into the account's currency: currency → how many units of
 * the account's currency one unit of it is worth, as a decimal string
 * ("1.0870" for EUR in a USD account).
 */
export type RateTable = ReadonlyMap<string, string>;

/** A total converted into one currency, with what it was made of. */
export interface ConvertedTotal {
  /** The currency the total is in (the account's). */
  currency: string;
  /** The converted sum of every amount that could be converted, rounded to the currency's minor units. */
  total: string;
  /** The original amounts per currency, the account's own included, in the order they first appear. */
  originals: Amount[];
  /** Originals in currencies without a rate: not in `total`, never counted at 1. */
  unconverted: Amount[];
}

/** `units × rate` at scale `digits + rate digits`, rounded half away from zero to `to` decimals. */
function roundTo(units: bigint, digits: number, to: number): bigint {
  if (digits <= to) return units * 10n ** BigInt(to - digits);
  const divisor = 10n ** BigInt(digits - to);
  const half = divisor / 2n;
  return units < 0n ? -((-units + half) / divisor) : (units + half) / divisor;
}

/**
 * The sum of amounts in several currencies, in `into`: each currency's sum
 * times its rate (the account's own at 1), added exactly, then rounded once to
 * the minor units of `into`. Currencies without a rate are listed apart.
 */
export function convertTotal(amounts: readonly Amount[], into: string, rates: RateTable): ConvertedTotal {
  const originals = sumByCurrency(amounts);
  const products: Scaled[] = [];
  const unconverted: Amount[] = [];
  for (const original of originals) {
    const rate = original.currency === into ? '1' : rates.get(original.currency);
    if (rate === undefined) {
      unconverted.push(original);
      continue;
    }
    const amount = parseDecimalText(original.amount);
    const factor = parseDecimalText(rate);
    products.push({ units: amount.units * factor.units, digits: amount.digits + factor.digits });
  }
  const digits = Math.max(0, ...products.map((p) => p.digits));
  const exact = products.reduce((sum, p) => sum + rescale(p, digits), 0n);
  const minor = minorUnitsOf(into);
  return { currency: into, total: renderDecimal(roundTo(exact, digits, minor), minor), originals, unconverted };
}

/** A converted total of a map of currency → amount (the reports' `{"EUR": "300.00"}`). */
export function convertValues(values: Readonly<Record<string, string>>, into: string, rates: RateTable): ConvertedTotal {
  return convertTotal(Object.entries(values).map(([currency, amount]) => ({ currency, amount })), into, rates);
}

/** Whether a total needs its originals shown: more than one currency, or one other than the account's. */
export function isMixed(total: ConvertedTotal): boolean {
  return total.originals.some((o) => o.currency !== total.currency);
}

/**
 * "1000.25" in USD → "$1,000.25"; a code Intl does not know falls back to
 * "1,000.25 XYZ". Intl is handed the decimal string itself, which it formats
 * exactly. At least the currency's minor units are shown ("$1,200.50", not
 * "$1,200.5"), more only when the amount has them.
 */
export function formatMoney(value: string, currency: string, locale?: string): string {
  const exact = value as Intl.StringNumericLiteral;
  const minimumFractionDigits = minorUnitsOf(currency);
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits, maximumFractionDigits: 20 }).format(exact);
  } catch {
    return `${new Intl.NumberFormat(locale, { minimumFractionDigits, maximumFractionDigits: 20 }).format(exact)} ${currency}`;
  }
}

/** Rates the API takes: positive, at most 12 digits before the point and 10 after. */
export const RATE_PATTERN = /^(?!0+(\.0+)?$)\d{1,12}(\.\d{1,10})?$/;

/** A rate as sent ("1.087", 1.087) normalized ("1.087"), or null when it is not a positive decimal the API takes. */
export function normalizeRate(input: unknown): string | null {
  const text = typeof input === 'number' && Number.isFinite(input) ? String(input) : typeof input === 'string' ? input.trim() : null;
  if (text === null || !RATE_PATTERN.test(text)) return null;
  const { units, digits } = parseDecimalText(text);
  return renderDecimal(units, digits);
}
