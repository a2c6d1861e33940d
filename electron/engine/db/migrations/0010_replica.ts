/**
 * Migration 10: the desktop replica's own tables (replica/). Unused on a hub.
 *
 * - `replica_settings`: the device UUID (created once, never changed), the hub.
 * - `outbox`: every local change, in order, as the REST call that will replay
 *   it on the hub: method, collection, the record's local id (negative while
 *   it exists only here), and for writes the fields sent (an update sends
 *   only what changed). `op_key` is its Idempotency-Key. A change the hub
 *   refused stays, `rejected` with the hub's answer, until fixed or discarded.
 * - `id_map`: temporary id → hub id, once the hub has answered a create.
 */
export const sql = /* sql */ `
CREATE TABLE replica_settings (
  name   TEXT PRIMARY KEY,
  value  TEXT NOT NULL
);

CREATE TABLE outbox (
  seq            INTEGER PRIMARY KEY AUTOINCREMENT,
  op_key         TEXT NOT NULL UNIQUE,
  method         TEXT NOT NULL CHECK (method IN ('POST', 'PUT', 'DELETE')),
  resource_type  TEXT NOT NULL,
  collection     TEXT NOT NULL,
  record_id      INTEGER NOT NULL,
  data           TEXT,
  state          TEXT NOT NULL DEFAULT 'pending' CHECK (state IN ('pending', 'rejected')),
  error          TEXT,
  attempts       INTEGER NOT NULL DEFAULT 0,
  created_at     TEXT NOT NULL
);
CREATE INDEX outbox_record ON outbox(resource_type, record_id);

CREATE TABLE id_map (
  resource_type  TEXT NOT NULL,
  temp_id        INTEGER NOT NULL,
  hub_id         INTEGER NOT NULL,
  PRIMARY KEY (resource_type, temp_id)
) WITHOUT ROWID;

`;
