/**
 * Migration 25: one-time links that let a person set their password (an
 * invitation to a new user, or a password reset). Only the SHA-256 of the
 * link's token is kept, as for OAuth tokens: the link itself is shown once.
 * A user has at most one usable link: issuing one ends the earlier ones.
 */
export const sql = /* sql */ `
CREATE TABLE user_invitations (
  id          INTEGER PRIMARY KEY,
  user_id     INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  token_hash  TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  used_at     TEXT,
  revoked_at  TEXT
);
CREATE INDEX user_invitations_user ON user_invitations(user_id);
`;
