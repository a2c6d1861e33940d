/**
 * Amounts as people type them, in their own locale ("12,500", "12 500.50",
 * "12.500,50" in Germany, "1 234,5" in France), read into the API's exact
 * decimal text ("12500", "12500.5") without ever going through a float.
 */

export type AmountParse = { ok: true; value: string } | { ok: false };

/** The locale's decimal and grouping marks, from how it writes 12345.6. */
export function separatorsOf(locale?: string): { decimal: string; group: string } {
  const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(12345.6);
  return {
    decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
    group: parts.find((p) => p.type === 'group')?.value ?? ',',
  };
}

/** Spaces of every kind (NBSP, narrow NBSP, thin space) and apostrophes group digits wherever they are typed. */
const SPACE_GROUPS = /[\s\u00a0\u202f\u2009'’]/g;
const MARKS = /[.,]/g;

/**
 * Reads what a rep typed as an amount, in `locale` (the browser's when left
 * out). Spaces and apostrophes group digits. With both `.` and `,` the last
 * is the decimal mark; with one kind only, it is the locale's decimal mark,
 * or a grouping mark when every group after the first has three digits
 * ("12,500" in English, "12.500" in German), or else a decimal mark all the
 * same when it is one, with one or two digits after it ("12.5" typed on a
 * German keypad). Anything else is not an amount. A sign is kept; zeros
 * that say nothing are dropped.
 */
export function parseAmount(typed: string, locale?: string): AmountParse {
  const text = typed.trim().replace(SPACE_GROUPS, '');
  const match = /^([+-]?)([\d.,]*\d[\d.,]*)$/.exec(text);
  if (!match) return { ok: false };
  const [, sign, body] = match;
  const decimalAt = decimalMarkAt(body, separatorsOf(locale).decimal);
  if (decimalAt === null) return { ok: false };
  const whole = decimalAt < 0 ? body : body.slice(0, decimalAt);
  const fraction = decimalAt < 0 ? '' : body.slice(decimalAt + 1);
  if (/[.,]/.test(fraction) || !wellGrouped(whole)) return { ok: false };
  const digits = whole.replace(MARKS, '').replace(/^0+(?=\d)/, '') || '0';
  const cents = fraction.replace(/0+$/, '');
  const value = cents ? `${digits}.${cents}` : digits;
  return { ok: true, value: sign === '-' && value !== '0' ? `-${value}` : value };
}

/** Where the decimal mark is in `body` (-1: none), or null when the marks cannot be read either way. */
function decimalMarkAt(body: string, localeDecimal: string): number | null {
  const marks = body.match(MARKS) ?? [];
  if (marks.length === 0) return -1;
  const kinds = new Set(marks);
  if (kinds.size === 2) return Math.max(body.lastIndexOf('.'), body.lastIndexOf(','));
  const mark = marks[0] ?? '.';
  const last = body.lastIndexOf(mark);
  if (mark === localeDecimal) return marks.length === 1 ? last : null;
  if (wellGrouped(body)) return -1;
  return marks.length === 1 && /^\d{1,2}$/.test(body.slice(last + 1)) ? last : null;
}

/** "12,500,000", "12,34,567" (India) or "12500": the last group has three digits, those between two or three, the first one to three. */
function wellGrouped(whole: string): boolean {
  const groups = whole.split(MARKS);
  if (new Set(whole.match(MARKS)).size > 1) return false;
  if (groups.length === 1) return /^\d*$/.test(whole);
  const between = groups.slice(1, -1);
  return /^\d{1,3}$/.test(groups[0]) && between.every((g) => /^\d{2,3}$/.test(g)) && /^\d{3}$/.test(groups[groups.length - 1]);
}

/**
 * The API's decimal text as the locale writes it ("12500.5" → "12,500.50" in
 * English, "12.500,50" in German), digit for digit: the whole part through
 * Intl as a BigInt, the fraction as it is (cents padded to two). Text that is
 * not a decimal is given back as it is.
 */
export function formatAmount(value: string, locale?: string): string {
  const match = /^(-?)(\d+)(?:\.(\d+))?$/.exec(value.trim());
  if (!match) return value;
  const [, sign, whole, fraction] = match;
  const grouped = new Intl.NumberFormat(locale, { useGrouping: true }).format(BigInt(whole));
  return `${sign}${grouped}${fraction ? separatorsOf(locale).decimal + fraction.padEnd(2, '0') : ''}`;
}
