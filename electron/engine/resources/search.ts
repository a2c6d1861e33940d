import { invalidParam } from '../problems.js';
import type { Clause } from './listing.js';

/**
 * `q` over an FTS5 table: every word of the input must prefix-match a word
 * of the indexed text. Words are extracted from the input (never spliced as
 * FTS syntax), so any text a user types is a valid query.
 */
export function ftsPrefixQuery(ftsTable: string, idColumn: string, text: string): Clause {
  const match = ftsMatchExpression(text);
  if (match === null) return { sql: '1 = 1', params: [] };
  return { sql: `${idColumn} IN (SELECT rowid FROM ${ftsTable} WHERE ${ftsTable} MATCH ?)`, params: [match] };
}

/** The FTS5 expression for what a user typed (each word a quoted prefix), or null when it has no words. */
export function ftsMatchExpression(text: string): string | null {
  const words = searchWords(text);
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}

/** The words of what a user typed (letters and digits, at most 8), each safe to quote in an FTS5 expression. */
export function searchWords(text: string): string[] {
  if (text.length > 200) throw invalidParam('q', 'must be at most 200 characters');
  return (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
}
