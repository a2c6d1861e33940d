/**
 * Migration 8: the OAuth 2.0 authorization server (auth/).
 *
 * - `oauth_clients.public`: a client that cannot keep a secret (a native or
 *   browser app, RFC 6749 §2.1); it has no secret and must use PKCE.
 * - `authorization_codes`: single-use, 10 minutes, bound to client,
 *   redirect URI, user, scope and the PKCE challenge. Kept after use, so a
 *   replayed code can revoke what was issued from it (RFC 6749 §4.1.2).
 * - `access_tokens.supersedes_refresh_id`: the refresh token this access
 *   token was issued by refreshing; that refresh token stays valid until an
 *   access token issued from it is first used (spec: Grants, 4).
 * - `authorization_code_id` on both token tables: the code they came from.
 * - `sign_in_failures`: failed password checks, for brute-force protection.
 */
export const sql = /* sql */ `
ALTER TABLE oauth_clients ADD COLUMN public INTEGER NOT NULL DEFAULT 0;
UPDATE oauth_clients SET public = 1 WHERE secret_hash IS NULL;

CREATE TABLE authorization_codes (
  id                     INTEGER PRIMARY KEY,
  code_hash              TEXT NOT NULL UNIQUE,
  client_id              TEXT NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  user_id                INTEGER NOT NULL REFERENCES users(id),
  redirect_uri           TEXT NOT NULL,
  scope                  TEXT NOT NULL,
  code_challenge         TEXT,
  created_at             TEXT NOT NULL,
  expires_at             TEXT NOT NULL,
  used_at                TEXT
);

ALTER TABLE access_tokens ADD COLUMN supersedes_refresh_id INTEGER REFERENCES refresh_tokens(id) ON DELETE SET NULL;
ALTER TABLE access_tokens ADD COLUMN authorization_code_id INTEGER REFERENCES authorization_codes(id) ON DELETE SET NULL;
ALTER TABLE refresh_tokens ADD COLUMN authorization_code_id INTEGER REFERENCES authorization_codes(id) ON DELETE SET NULL;
CREATE INDEX access_tokens_refresh ON access_tokens(refresh_token_id);

CREATE TABLE sign_in_failures (
  id         INTEGER PRIMARY KEY,
  email      TEXT NOT NULL COLLATE NOCASE,
  failed_at  TEXT NOT NULL
);
CREATE INDEX sign_in_failures_email ON sign_in_failures(email, failed_at);
`;
