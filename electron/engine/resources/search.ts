import { invalidParam } from '../problems.js';

/**
 * What a user typed into a search, as FTS5 can take it: words are extracted
 * from the input (never spliced as FTS syntax), so any text is a valid query.
 * The lists' `q` (listing.ts) and the record search (recordSearch.ts) use it.
 *
 * Each word is a prefix query over every column of the index: a word's
 * start in a name, email, phone group or task's text, and, through the
 * indexes' name parts and phone digit runs (db/sqlFunctions.ts), a part of
 * a name's word and a phone's last digits.
 */

/** The FTS5 expression for what a user typed (each word a quoted prefix, or the digits of a phone), or null when it has no words. */
export function ftsMatchExpression(text: string): string | null {
  const words = searchWords(text);
  return words.length === 0 ? null : `(${prefixesOf(words)})${phoneDigitsAlternatives(text, words)}`;
}

/** Every word a quoted prefix (FTS5's implicit AND). */
export const prefixesOf = (words: string[]): string => words.map((w) => `"${w}"*`).join(' ');

/** Only digits and phone punctuation: the text may be a phone number, typed in any format. */
export const isPhoneLike = (text: string): boolean => /^[\d\s+\-()./]+$/.test(text.trim());

/**
 * The fewest digits that say a whole number without its country code or
 * trunk 0: the phone key's (db/phoneKeySql.ts), nine ("7700 900123" of
 * "+44 7700 900123").
 */
const NATIONAL_DIGITS = 9;

/**
 * For a text that may be a phone number, the further FTS5 alternatives (`OR …`)
 * that find it by its digits, however it was typed: the digits as one run,
 * their leading zeros dropped (a trunk 0, or the 00 before a country code),
 * as the prefix of one of a phone's indexed runs of last digits ("0 7700
 * 900123" → "7700900123"*, "847-2066" → "8472066"*); and for a whole number
 * typed with its country code, its last nine digits as a whole run, so that
 * "+44 7700 900123" also finds a number stored as "07700 900123". Empty for
 * other texts, and when the words alone already say it.
 */
export function phoneDigitsAlternatives(text: string, words: string[]): string {
  if (!isPhoneLike(text)) return '';
  const digits = words.join('').replace(/^0+/, '');
  const alternatives: string[] = [];
  if (digits !== '' && (words.length > 1 || digits !== words[0])) alternatives.push(`"${digits}"*`);
  if (digits.length > NATIONAL_DIGITS) alternatives.push(`"${digits.slice(-NATIONAL_DIGITS)}"`);
  return alternatives.map((a) => ` OR ${a}`).join('');
}

/** The words of what a user typed (letters and digits, at most 8), each safe to quote in an FTS5 expression. */
export function searchWords(text: string): string[] {
  if (text.length > 200) throw invalidParam('q', 'must be at most 200 characters');
  return (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}
