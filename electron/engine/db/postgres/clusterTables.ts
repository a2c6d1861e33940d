/**
 * Tables only a PostgreSQL hub has (issue 24): what the nodes of one hub
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
 */
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
`;
