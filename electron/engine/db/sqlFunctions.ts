/**
 * Search terms for phone numbers, the SQL function `phone_terms(phone, …)`:
 * each number as written (FTS splits it into its groups) and as bare digits.
 * Self-contained on purpose: the engine's connections register it
 * (database.ts), and the SQL worker's source is made from its text
 * (sqlWorker.ts), so a search index built on a worker's connection has the
 * same terms.
 */
export const phoneTerms = (...phones: unknown[]): string =>
  phones
    .filter((p): p is string => typeof p === 'string' && p.length > 0)
    .map((p) => `${p} ${p.replace(/\D/g, '')}`)
    .join(' ');
