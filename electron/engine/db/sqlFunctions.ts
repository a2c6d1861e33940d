import type Database from 'better-sqlite3';

/**
 * Search terms for phone numbers, the SQL function `phone_terms(phone, …)`:
 * each number as written (FTS splits it into its groups) and as bare digits.
 * Registered in one place for the two kinds of connection that use it: the
 * engine's (database.ts) and the one that builds the search indexes aside at
 * the end of a first sync (searchIndexes.ts), so both index the same terms.
 */
export function registerPhoneTerms(db: Database.Database): void {
  db.function('phone_terms', { deterministic: true, varargs: true }, phoneTerms);
}

const phoneTerms = (...phones: unknown[]): string =>
  phones
    .filter((p): p is string => typeof p === 'string' && p.length > 0)
    .map((p) => `${p} ${p.replace(/\D/g, '')}`)
    .join(' ');
