/**
 * Deal values are decimal strings ("1000.25") so they never lose precision
 * as floats. Sums here are done on BigInt units scaled to the longest
 * fraction among the values, and formatting hands the string itself to Intl
 * (which formats decimal strings exactly), so no value ever passes through a
 * JavaScript number.
 */

const DECIMAL = /^(-)?(\d*)(?:\.(\d*))?$/;

interface Scaled {
  units: bigint;
  digits: number;
}

function parse(value: string): Scaled {
  const match = DECIMAL.exec(value.trim());
  if (!match) return { units: 0n, digits: 0 };
  const [, sign, whole, fraction = ''] = match;
  const units = BigInt((whole || '0') + fraction);
  return { units: sign ? -units : units, digits: fraction.length };
}

function rescale({ units, digits }: Scaled, to: number): bigint {
  return units * 10n ** BigInt(to - digits);
}

function render(units: bigint, digits: number): string {
  const negative = units < 0n;
  const text = (negative ? -units : units).toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? text.slice(-digits).replace(/0+$/, '') : '';
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}

/** The exact sum of decimal strings, as a decimal string without trailing zeros ("0" for none). */
export function sumDecimals(values: readonly string[]): string {
  const parsed = values.map(parse);
  const digits = Math.max(0, ...parsed.map((p) => p.digits));
  const total = parsed.reduce((sum, p) => sum + rescale(p, digits), 0n);
  return render(total, digits);
}

/** Sums per currency, in the order the currencies first appear: a board column can hold deals in several. */
export function totalsByCurrency(deals: readonly { value: string; currency: string }[]): { currency: string; total: string }[] {
  const groups = new Map<string, string[]>();
  for (const deal of deals) groups.set(deal.currency, [...(groups.get(deal.currency) ?? []), deal.value]);
  return [...groups].map(([currency, values]) => ({ currency, total: sumDecimals(values) }));
}

/** "1000.25" in USD → "$1,000.25"; an unknown currency code falls back to "1,000.25 XYZ". */
export function formatMoney(value: string, currency: string): string {
  const exact = value as Intl.StringNumericLiteral;
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency, maximumFractionDigits: 20 }).format(exact);
  } catch {
    return `${new Intl.NumberFormat(undefined, { maximumFractionDigits: 20 }).format(exact)} ${currency}`;
  }
}

/** Whether the text is a decimal the API takes as a value (digits, an optional fraction). */
export function isDecimal(text: string): boolean {
  return /^-?\d+(\.\d+)?$/.test(text.trim());
}
