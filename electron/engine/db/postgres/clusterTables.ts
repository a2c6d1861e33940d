/**
 * Tables only a PostgreSQL hub has: what the nodes of one hub
 * must share and a single-machine hub keeps in its process or its data
 * folder. They are not in the SQLite schema (so not in the migrations and
 * not in the schema-parity test): `openPostgres` creates them if missing,
 * each time a node starts.
 *
 * - `document_contents`: the bytes of each uploaded document, which SQLite
 *   hubs keep as files under the data folder (resources/documentContents.ts).
 *   Deleting a document's record deletes its bytes. Stored EXTERNAL: most
 *   uploads (PDF, images) are compressed already, so PostgreSQL should not
 *   spend time trying again.
 * - `rate_limit_hits`: requests per key (a hash of the caller's token or
 *   address) and fixed window, counted by every node (http/rateLimitStore.ts);
 *   `window_end` (ms since the epoch, the database's clock) lets old windows
 *   be deleted now and then.
 *
 * And the notice each node's token cache listens for (auth/tokens.ts): any
 * change to a token's validity or scope, or to a user's role, status or deletion, on any node or
 * by the command line, is sent on AUTH_CHANGES when its transaction commits.
 */

/** The channel of the notice that tokens or users' permissions changed. */
export const AUTH_CHANGES = 'outpost_auth_changes';

export const CLUSTER_TABLES = /* sql */ `
CREATE TABLE IF NOT EXISTS document_contents (
  id     bigint PRIMARY KEY REFERENCES documents(id) ON DELETE CASCADE,
  bytes  bytea NOT NULL
);
ALTER TABLE document_contents ALTER COLUMN bytes SET STORAGE EXTERNAL;

CREATE TABLE IF NOT EXISTS rate_limit_hits (
  key           text NOT NULL,
  window_start  bigint NOT NULL,
  window_end    bigint NOT NULL,
  hits          integer NOT NULL,
  PRIMARY KEY (key, window_start)
);
CREATE INDEX IF NOT EXISTS rate_limit_hits_end ON rate_limit_hits (window_end);

CREATE OR REPLACE FUNCTION outpost_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('outpost_auth_changes', '');
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER access_tokens_auth_changed AFTER UPDATE ON access_tokens FOR EACH ROW
  WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
    OR OLD.scope IS DISTINCT FROM NEW.scope OR OLD.user_id IS DISTINCT FROM NEW.user_id)
  EXECUTE FUNCTION outpost_auth_changed();
CREATE OR REPLACE TRIGGER access_tokens_deleted_auth_changed AFTER DELETE ON access_tokens
  FOR EACH STATEMENT EXECUTE FUNCTION outpost_auth_changed();
CREATE OR REPLACE TRIGGER users_auth_changed AFTER UPDATE ON users FOR EACH ROW
  WHEN (OLD.role IS DISTINCT FROM NEW.role OR OLD.status IS DISTINCT FROM NEW.status OR OLD.deleted_at IS DISTINCT FROM NEW.deleted_at)
  EXECUTE FUNCTION outpost_auth_changed();
CREATE OR REPLACE TRIGGER users_deleted_auth_changed AFTER DELETE ON users
  FOR EACH STATEMENT EXECUTE FUNCTION outpost_auth_changed();
`;
