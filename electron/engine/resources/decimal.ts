import { isCurrency } from '../../../shared/currencies.js';

/**
 * Money amounts (a deal's `value`) as exact decimals, never floats: kept as
 * normalized text — no sign, no leading zeros, no trailing fractional zeros,
 * "0" for zero ("1000.25", "1000.5", "0") — so storing, answering and
 * comparing need no arithmetic at all.
 */

/** Digits after the decimal point we keep (cents); more is refused, never rounded. */
export const DECIMAL_SCALE = 2;
/** Digits before the point: up to 999 999 999 999 999 (a quadrillion is not a deal value). */
export const DECIMAL_INTEGER_DIGITS = 15;

export type DecimalParse = { ok: true; value: string } | { ok: false; code: 'invalid_type' | 'incorrect_value'; problem: string };

const DECIMAL_TEXT = /^(\d+)(?:\.(\d+))?$/;
const NOT_A_DECIMAL: DecimalParse = { ok: false, code: 'invalid_type', problem: 'must be a decimal number, as a string ("1000.25") or a number' };

/**
 * A decimal as clients send it: a string (`"1000.25"`), a number (`1000`,
 * `11.12`: read from its shortest decimal form, so `0.1` is exactly 0.1) or
 * null (no value: 0). Negative amounts, more than two decimals and absurd
 * magnitudes are refused rather than rounded.
 */
export function parseDecimal(input: unknown): DecimalParse {
  if (input === null) return { ok: true, value: '0' };
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input)) return { ok: false, code: 'invalid_type', problem: 'must be a finite number' };
    // String(n) is the shortest text that reads back as n: 11.12 → "11.12"; 0.1 + 0.2 → "0.30000000000000004" (refused below).
    text = String(input);
    // Exponent form: 1e21 and beyond, or below 1e-6 (far more decimals than we keep).
    if (/e/i.test(text)) return { ok: false, code: 'incorrect_value', problem: Math.abs(input) >= 1 ? outOfRange() : tooPrecise() };
  } else if (typeof input === 'string') {
    text = input.trim();
  } else {
    return NOT_A_DECIMAL;
  }
  if (text.startsWith('-') && DECIMAL_TEXT.test(text.slice(1))) return { ok: false, code: 'incorrect_value', problem: 'must not be negative' };
  const match = DECIMAL_TEXT.exec(text.startsWith('+') ? text.slice(1) : text);
  if (!match) return NOT_A_DECIMAL;
  const integer = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').replace(/0+$/, '');
  if (fraction.length > DECIMAL_SCALE) return { ok: false, code: 'incorrect_value', problem: tooPrecise() };
  if (integer.length > DECIMAL_INTEGER_DIGITS) return { ok: false, code: 'incorrect_value', problem: outOfRange() };
  return { ok: true, value: fraction ? `${integer}.${fraction}` : integer };
}

const outOfRange = () => `must be less than 1e${DECIMAL_INTEGER_DIGITS}`;
const tooPrecise = () => `must have at most ${DECIMAL_SCALE} decimals`;

/**
 * SQL sort key of a normalized decimal column, exact and numeric: the length
 * of its integer part (two digits), then the text itself. Equal-length
 * integer parts compare digit by digit, and a shorter fraction is a prefix
 * of a longer one, so it sorts first ("1000" < "1000.05" < "1000.5").
 */
export function decimalSortKey(column: string): string {
  return `(printf('%02d', length(${column}) - length(ltrim(${column}, '0123456789'))) || ${column})`;
}

/*
 * Exact money and percent arithmetic (products, orders, line items): amounts
 * are the normalized decimal text above; computing means working in
 * hundredths with BigInt.
 */

const SCALE = 10n ** BigInt(DECIMAL_SCALE);

/** "3599.99" → 359999n (hundredths); "-2.5" → -250n. */
export function toHundredths(text: string): bigint {
  const negative = text.startsWith('-');
  const [integer, fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const value = BigInt(integer) * SCALE + BigInt(fraction.padEnd(DECIMAL_SCALE, '0'));
  return negative ? -value : value;
}

/** 359999n → "3599.99"; 367200n → "3672"; normalized as resources/decimal.ts keeps decimals. */
export function fromHundredths(value: bigint): string {
  const sign = value < 0n ? '-' : '';
  const magnitude = value < 0n ? -value : value;
  const fraction = (magnitude % SCALE).toString().padStart(DECIMAL_SCALE, '0').replace(/0+$/, '');
  return `${sign}${magnitude / SCALE}${fraction ? `.${fraction}` : ''}`;
}

/**
 * `amount × (1 + percent/100)` in hundredths, rounded half up to the cent
 * (commercial rounding: 0.505 → 0.51). Both in hundredths; the result of a
 * non-negative amount and a percent ≥ −100 is never negative.
 */
export function applyPercent(amount: bigint, percent: bigint): bigint {
  const hundredPercent = 100n * SCALE;
  const scaled = amount * (hundredPercent + percent);
  return (scaled + hundredPercent / 2n) / hundredPercent;
}

/**
 * A percent as clients send it (number, string or null for 0), up to two
 * decimals, within [min, max] (in percent). Signed, unlike amounts: a
 * line item's variation of −2 is a 2 % discount.
 */
export function parsePercent(input: unknown, min: number, max: number): DecimalParse {
  const text = typeof input === 'number' ? String(input) : typeof input === 'string' ? input.trim() : input;
  const negative = typeof text === 'string' && text.startsWith('-');
  const parsed = parseDecimal(negative ? (text as string).slice(1) : text);
  if (!parsed.ok) return parsed;
  const value = negative && parsed.value !== '0' ? `-${parsed.value}` : parsed.value;
  const hundredths = toHundredths(value);
  if (hundredths < BigInt(min) * SCALE || hundredths > BigInt(max) * SCALE) {
    return { ok: false, code: 'incorrect_value', problem: `must be between ${min} and ${max}` };
  }
  return { ok: true, value };
}

/** An ISO 4217 code as sent (`usd` is read as USD); null when it is not a currency of shared/currencies.ts. */
export function currencyCode(input: unknown): string | null {
  if (typeof input !== 'string') return null;
  const code = input.trim().toUpperCase();
  return isCurrency(code) ? code : null;
}

/** The field error of a code currencyCode refused. */
export function currencyCodeProblem(field: string, input: unknown): string {
  return `${field} must be an ISO 4217 currency code in use (e.g. USD, EUR)${typeof input === 'string' ? `; ${quoted(input.trim())} is not one` : ''}.`;
}

/** A sent value in a message, cut short: it may be kilobytes. */
export function quoted(text: string): string {
  return JSON.stringify(text.length > 20 ? `${text.slice(0, 20)}…` : text);
}
