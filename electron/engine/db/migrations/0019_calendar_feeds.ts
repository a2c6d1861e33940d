/**
 * Migration 19: per-user calendar feeds (importExport/calendarFeeds.ts). A
 * user who turns the feed on gets a secret URL a calendar app subscribes to
 * without a token; only the SHA-256 of the secret is kept, so the database
 * cannot give the URL away. One feed per user: a new one replaces the old.
 * The hub's only data (a replica refuses the feed endpoints): no change log.
 */
export const sql = /* sql */ `
CREATE TABLE calendar_feeds (
  user_id      INTEGER PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
  secret_hash  TEXT NOT NULL UNIQUE,
  created_at   TEXT NOT NULL
);
`;
