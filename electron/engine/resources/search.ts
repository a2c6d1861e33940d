import { invalidParam } from '../http/problem.js';
import type { Clause } from './listing.js';

/**
 * `q` over an FTS5 table: every word of the input must prefix-match a word
 * of the indexed text. Words are extracted from the input (never spliced as
 * FTS syntax), so any text a user types is a valid query.
 */
export function ftsPrefixQuery(ftsTable: string, idColumn: string, text: string): Clause {
  const match = ftsMatchExpression(text);
  if (match === null) return { sql: '1', params: [] };
  return { sql: `${idColumn} IN (SELECT rowid FROM ${ftsTable} WHERE ${ftsTable} MATCH ?)`, params: [match] };
}

/** The FTS5 expression for what a user typed (each word a quoted prefix), or null when it has no words. */
export function ftsMatchExpression(text: string): string | null {
  if (text.length > 200) throw invalidParam('q', 'must be at most 200 characters');
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  return words.length === 0 ? null : words.slice(0, 8).map((w) => `"${w}"*`).join(' ');
}
