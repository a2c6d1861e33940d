/**
 * Migration 31: failed sign-ins by email and source (auth/signIn.ts).
 *
 * A failure is now recorded with the network address it came from, so a lock
 * holds an email only for that address (and an address for every email),
 * while the email itself is only slowed down: anyone who knows a rep's email
 * can no longer lock the rep out. Failures recorded before have the source ''
 * (no request comes from it): they lock nothing but still count towards
 * their email's slow down, until they expire (within 15 minutes).
 * Indexes: the pair's lock (email, source, time) and the source's
 * (source, time); the email's count keeps (email, time), from migration 8;
 * and the purge of expired rows (time).
 */
export const sql = /* sql */ `
ALTER TABLE sign_in_failures ADD COLUMN source TEXT NOT NULL DEFAULT '';
CREATE INDEX sign_in_failures_pair ON sign_in_failures(email, source, failed_at);
CREATE INDEX sign_in_failures_source ON sign_in_failures(source, failed_at);
CREATE INDEX sign_in_failures_time ON sign_in_failures(failed_at);
`;
