import type { SqliteConnection } from './connection.js';
import { PART_MARK } from './searchIndexSql.js';

/**
 * The search indexes' SQL functions (db/searchIndexSql.ts), registered in one
 * place for the two kinds of connection that use them: the engine's
 * (database.ts) and the one that builds the search indexes aside at the end
 * of a first sync (searchIndexes.ts), so both index the same terms. A
 * PostgreSQL hub has the same functions in SQL (db/postgres/functions.ts).
 */
export function registerSearchFunctions(db: Pick<SqliteConnection, 'function'>): void {
  db.function('phone_terms', { deterministic: true, varargs: true }, phoneTerms);
  db.function('name_parts', { deterministic: true, varargs: true }, nameParts);
}

/**
 * The shortest run of a phone's last digits that finds it: seven, a local
 * number without its area code ("847-2066" of "+1 (312) 847-2066").
 */
export const PHONE_SUFFIX_DIGITS = 7;
/** A name word's shortest ending indexed: a typed part of a word is found from three letters. */
export const NAME_PART_LETTERS = 3;

/**
 * Search terms for phone numbers, `phone_terms(phone, …)`: each number as
 * written (FTS splits it into its groups: "847" finds "(312) 847-2066") and
 * its bare digits, then, marked (PART_MARK), its digits from each position
 * that leaves at least seven: "13128472066", "3128472066" … "8472066". A
 * typed run of digits (its leading zeros dropped, resources/search.ts) then
 * prefix-matches one of them whether it was typed with or without the country
 * code or the area code, in any punctuation: "+44 7700 900123",
 * "447700900123", "07700 900123" and "7700900123" all meet "7700900123…", a
 * run of "+44 7700 900123" and of "07700 900123" alike.
 */
export function phoneTerms(...phones: unknown[]): string {
  // Built as one string: the search build calls this for every row (100 000 contacts: 18 MB of terms).
  let terms = '';
  for (const phone of phones) {
    if (typeof phone !== 'string' || phone.length === 0) continue;
    const digits = phone.replace(NOT_DIGIT, '');
    terms += `${terms === '' ? '' : ' '}${phone} ${digits}`;
    for (let start = 0; digits.length - start >= PHONE_SUFFIX_DIGITS; start++) terms += ` ${PART_MARK}${digits.slice(start)}`;
  }
  return terms;
}

const NOT_DIGIT = /\D/g;

/**
 * A name's word endings, `name_parts(name, …)`, marked (PART_MARK): of each
 * word of four letters or more, every ending of three letters or more but
 * the word itself ("francisco": "rancisco", "ancisco" … "sco"). A typed word
 * of three letters or more, also asked as a marked prefix, then finds a name
 * whose word has it in its middle ("ancis", "cisc"). The words are split as
 * FTS5's unicode61 tokenizer splits them (letters and digits), which then
 * folds case and accents of the endings as of the name.
 */
export function nameParts(...names: unknown[]): string {
  let parts = '';
  for (const name of names) {
    if (typeof name !== 'string' || name.length === 0) continue;
    for (const word of name.normalize('NFC').match(WORD) ?? []) {
      // Endings by letter: a word without surrogate pairs (nearly every name) is sliced by index.
      const letters = SURROGATES.test(word) ? [...word] : null;
      const length = letters ? letters.length : word.length;
      for (let start = 1; length - start >= NAME_PART_LETTERS; start++) {
        parts += `${parts === '' ? '' : ' '}${PART_MARK}${letters ? letters.slice(start).join('') : word.slice(start)}`;
      }
    }
  }
  return parts;
}

const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const SURROGATES = /[\uD800-\uDFFF]/;
