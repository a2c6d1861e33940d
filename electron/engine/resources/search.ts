import { invalidParam } from '../problems.js';

/**
 * What a user typed into a search, as FTS5 can take it: words are extracted
 * from the input (never spliced as FTS syntax), so any text is a valid query.
 * The lists' `q` (listing.ts) and the record search (recordSearch.ts) use it.
 */

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
