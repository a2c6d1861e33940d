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
export const phoneTerms = (...phones: unknown[]): string =>
  phones
    .filter((p): p is string => typeof p === 'string' && p.length > 0)
    .map((p) => {
      const digits = p.replace(/\D/g, '');
      return [p, digits, ...digitRuns(digits).map((run) => PART_MARK + run)].join(' ');
    })
    .join(' ');

function digitRuns(digits: string): string[] {
  const runs: string[] = [];
  for (let start = 0; digits.length - start >= PHONE_SUFFIX_DIGITS; start++) runs.push(digits.slice(start));
  return runs;
}

/**
 * A name's word endings, `name_parts(name, …)`, marked (PART_MARK): of each
 * word of four letters or more, every ending of three letters or more but
 * the word itself ("francisco": "rancisco", "ancisco" … "sco"). A typed word
 * of three letters or more, also asked as a marked prefix, then finds a name
 * whose word has it in its middle ("ancis", "cisc"). The words are split as
 * FTS5's unicode61 tokenizer splits them (letters and digits), which then
 * folds case and accents of the endings as of the name.
 */
export const nameParts = (...names: unknown[]): string =>
  names
    .filter((n): n is string => typeof n === 'string' && n.length > 0)
    .flatMap((n) => n.normalize('NFC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? [])
    .flatMap(wordEndings)
    .map((ending) => PART_MARK + ending)
    .join(' ');

function wordEndings(word: string): string[] {
  const letters = [...word];
  const endings: string[] = [];
  for (let start = 1; letters.length - start >= NAME_PART_LETTERS; start++) endings.push(letters.slice(start).join(''));
  return endings;
}
