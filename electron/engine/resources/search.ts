import { invalidParam } from '../http/problem.js';
import type { Clause } from './listing.js';

/**
 * `q` over an FTS5 table: every word of the input must prefix-match a word
 * of the indexed text. Words are extracted from the input (never spliced as
 * FTS syntax), so any text a user types is a valid query.
 */
export function ftsPrefixQuery(ftsTable: string, idColumn: string, text: string): Clause {
  if (text.length > 200) throw invalidParam('q', 'must be at most 200 characters');
  const words = text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? [];
  if (words.length === 0) return { sql: '1', params: [] };
  const match = words.slice(0, 8).map((w) => `"${w}"*`).join(' ');
  return { sql: `${idColumn} IN (SELECT rowid FROM ${ftsTable} WHERE ${ftsTable} MATCH ?)`, params: [match] };
}
