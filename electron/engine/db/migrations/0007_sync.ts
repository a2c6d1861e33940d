/**
 * Migration 7: the hub side of the sync protocol (sync/).
 *
 * - `record_revisions`: the latest revision of every record that was ever
 *   changed, one row a record, kept by a trigger on the change log. The sync
 *   queue reads it in revision order, so a record changed ten times is one
 *   row (the spec's "only the freshest state"), and deleted records stay as
 *   rows so devices that hold them learn of the delete.
 * - `sync_devices`: one row per user and device UUID (a device signed in as
 *   two users is two devices: what each may see differs). `watermark`: every
 *   record at or below this revision is already held by the device at its
 *   latest revision, so a start only looks at what changed after it.
 * - `sync_device_records`: what each device holds, at which revision it
 *   acknowledged; 0 = served in a session but not acknowledged yet (it may
 *   hold it, so a later delete is still delivered).
 * - `sync_sessions`: a session is a snapshot (`snapshot` revision) read in
 *   revision order from `cursor`.
 */

/**
 * Records that exist without a change-log entry (the default outcome lists
 * that migrations 4 and 5 insert, the account) get a `created` entry, so
 * devices receive them. Later migrations that insert rows record them too.
 */
const SYNCED_TABLES: [type: string, table: string][] = [
  ['account', 'account'], ['user', 'users'], ['contact', 'contacts'], ['tag', 'tags'], ['task', 'tasks'], ['note', 'notes'],
  ['call', 'calls'], ['call_outcome', 'call_outcomes'], ['visit_outcome', 'visit_outcomes'], ['text_message', 'text_messages'],
  ['visit', 'visits'], ['document', 'documents'],
];
const backfill = SYNCED_TABLES.map(([type, table]) => `INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
  SELECT '${type}', t.id, 'created', NULL, t.updated_at FROM ${table} t
  WHERE NOT EXISTS (SELECT 1 FROM record_revisions r WHERE r.resource_type = '${type}' AND r.resource_id = t.id);`).join('\n');

export const sql = /* sql */ `
CREATE TABLE record_revisions (
  revision       INTEGER PRIMARY KEY,
  resource_type  TEXT NOT NULL,
  resource_id    INTEGER NOT NULL,
  UNIQUE (resource_type, resource_id)
);
INSERT INTO record_revisions (revision, resource_type, resource_id)
  SELECT MAX(revision), resource_type, resource_id FROM change_log GROUP BY resource_type, resource_id;
CREATE TRIGGER change_log_latest_revision AFTER INSERT ON change_log BEGIN
  INSERT INTO record_revisions (revision, resource_type, resource_id) VALUES (NEW.revision, NEW.resource_type, NEW.resource_id)
    ON CONFLICT (resource_type, resource_id) DO UPDATE SET revision = excluded.revision;
END;
${backfill}

CREATE TABLE sync_devices (
  id            INTEGER PRIMARY KEY,
  user_id       INTEGER NOT NULL REFERENCES users(id),
  uuid          TEXT NOT NULL,
  watermark     INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL,
  last_seen_at  TEXT NOT NULL,
  UNIQUE (user_id, uuid)
);

CREATE TABLE sync_device_records (
  device_id      INTEGER NOT NULL REFERENCES sync_devices(id) ON DELETE CASCADE,
  resource_type  TEXT NOT NULL,
  resource_id    INTEGER NOT NULL,
  revision       INTEGER NOT NULL,
  PRIMARY KEY (device_id, resource_type, resource_id)
) WITHOUT ROWID;

CREATE TABLE sync_sessions (
  id            TEXT PRIMARY KEY,
  device_id     INTEGER NOT NULL REFERENCES sync_devices(id) ON DELETE CASCADE,
  user_id       INTEGER NOT NULL REFERENCES users(id),
  snapshot      INTEGER NOT NULL,
  cursor        INTEGER NOT NULL,
  total_count   INTEGER NOT NULL,
  served_count  INTEGER NOT NULL DEFAULT 0,
  state         TEXT NOT NULL DEFAULT 'open' CHECK (state IN ('open', 'drained', 'closed')),
  created_at    TEXT NOT NULL,
  last_used_at  TEXT NOT NULL
);
CREATE INDEX sync_sessions_user ON sync_sessions(user_id, state, last_used_at);
CREATE INDEX sync_sessions_device ON sync_sessions(device_id, state);
`;
