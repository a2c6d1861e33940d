/**
 * Search terms for phone numbers, the SQL function `phone_terms(phone, …)`:
 * each number as written (FTS splits it into its groups) and as bare digits.
 * Written once for the two kinds of connection that register it: the
 * engine's (database.ts) and the one that builds the search indexes aside at
 * the end of a first sync (searchIndexes.ts), so both index the same terms.
 */
export const phoneTerms = (...phones: unknown[]): string =>
  phones
    .filter((p): p is string => typeof p === 'string' && p.length > 0)
    .map((p) => `${p} ${p.replace(/\D/g, '')}`)
    .join(' ');
