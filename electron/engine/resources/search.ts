import { invalidParam } from '../problems.js';
import { PART_MARK, SEARCH_INDEXES } from '../db/searchIndexSql.js';
import { NAME_PART_LETTERS } from '../db/sqlFunctions.js';

/**
 * What a user typed into a search, as FTS5 can take it: words are extracted
 * from the input (never spliced as FTS syntax), so any text is a valid query.
 * The lists' `q` (listing.ts) and the record search (recordSearch.ts) use it.
 *
 * Each word is a prefix query over every column of the index: a word's
 * start in a name, email, phone group or task's text, and, through the
 * indexes' name parts (db/sqlFunctions.ts), a part of a name's word; a
 * phone is found by the digits typed, through its indexed runs of last digits.
 */

/**
 * The FTS5 expression for what a user typed into the search of the index
 * `fts`, or null when it has no words: for an index with phones and a text
 * that may be a phone number, its digits (phoneDigitsExpression); else
 * every word (wordsExpression).
 */
export function ftsMatchExpression(text: string, fts: string): string | null {
  const words = searchWords(text);
  if (words.length === 0) return null;
  return (indexHas(fts, 'phones') ? phoneDigitsExpression(text, words) : null) ?? wordsExpression(words, fts);
}

/**
 * Every word a quoted prefix, all of them (AND); in an index with name
 * parts, a word of three letters or more may also begin a marked part
 * (PART_MARK, db/sqlFunctions.ts): the middle or the end of a name's word.
 */
export function wordsExpression(words: string[], fts: string): string {
  const parts = indexHas(fts, 'name_parts');
  // FTS5 joins parenthesized groups only with an explicit AND.
  return words.map((w) => (parts && [...w].length >= NAME_PART_LETTERS ? `("${w}"* OR "${PART_MARK}${w}"*)` : `"${w}"*`)).join(' AND ');
}

/** Every word a quoted prefix (FTS5's implicit AND). */
export const prefixesOf = (words: string[]): string => words.map((w) => `"${w}"*`).join(' ');

/** Only digits and phone punctuation: the text may be a phone number, typed in any format. */
export const isPhoneLike = (text: string): boolean => /^[\d\s+\-()./]+$/.test(text.trim());

const indexHas = (fts: string, column: string): boolean =>
  SEARCH_INDEXES.some((index) => index.fts === fts && index.columns.split(', ').includes(column));

/**
 * The fewest digits that say a whole number without its country code or
 * trunk 0: the phone key's (db/phoneKeySql.ts), nine ("7700 900123" of
 * "+44 7700 900123").
 */
const NATIONAL_DIGITS = 9;

/**
 * For a text that may be a phone number, the FTS5 expression that finds it
 * by its digits however it was typed (else null): the digits as one run,
 * their leading zeros dropped (a trunk 0, the 00 before a country code), as
 * the prefix of one of a phone's marked runs of last digits ("0 7700 900123"
 * → "7700900123", "847-2066" → "8472066"), and as typed when it has leading
 * zeros (they may be the number's own); one word typed as it is, also as
 * the prefix of any word ("2066" is a group of "+1 (312) 847-2066", an
 * organization may be called "1234"); and for a whole number typed with its
 * country code, also its last nine digits as a whole run, so that
 * "+44 7700 900123" finds a number stored as "07700 900123".
 *
 * Several groups are asked as their run alone, not each as a prefix: a
 * group of two or three digits is the prefix of a tenth or a hundredth of
 * every phone's terms, and the run says the same in one narrow term.
 */
export function phoneDigitsExpression(text: string, words: string[]): string | null {
  if (!isPhoneLike(text)) return null;
  const typed = words.join('');
  const digits = typed.replace(/^0+/, '');
  if (digits === '') return prefixesOf(words);
  const alternatives = [`"${PART_MARK}${digits}"*`];
  // A leading 0 may also be a digit of the number's own ("0900123", the last seven of "07700 900123").
  if (typed !== digits) alternatives.push(`"${PART_MARK}${typed}"*`);
  if (words.length === 1 && digits === words[0]) alternatives.unshift(`"${digits}"*`);
  if (digits.length > NATIONAL_DIGITS) alternatives.push(`"${PART_MARK}${digits.slice(-NATIONAL_DIGITS)}"`);
  return alternatives.join(' OR ');
}

/** The words of what a user typed (letters and digits, at most 8), each safe to quote in an FTS5 expression. */
export function searchWords(text: string): string[] {
  if (text.length > 200) throw invalidParam('q', 'must be at most 200 characters');
  return (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}
