/**
 * Migration 27: offline edits merge field by field (changes/fieldPaths.ts).
 *
 * - `field_changes` (hub): who last changed each field of a record through
 *   the REST interface, and when (a device's time of writing, where it sent
 *   one). A replica whose edit meets a colleague's change of the same field
 *   is told whose it was. Paths as in fieldPaths.ts (`email`, `address.city`).
 * - `outbox.base` (replica): for an update, the values the changed fields had
 *   before the rep changed them, as the hub last served them; the hub takes the
 *   change only where a field still has that value.
 * - `sync_conflicts` (replica): a field changed on both sides, kept until the
 *   rep chooses: `yours` is the value the rep sent (JSON), `theirs` the hub's
 *   (JSON) with who changed it and when. One open conflict a field.
 */
export const sql = /* sql */ `
CREATE TABLE field_changes (
  resource_type  TEXT NOT NULL,
  resource_id    INTEGER NOT NULL,
  field          TEXT NOT NULL,
  user_id        INTEGER,
  changed_at     TEXT NOT NULL,
  PRIMARY KEY (resource_type, resource_id, field)
) WITHOUT ROWID;

ALTER TABLE outbox ADD COLUMN base TEXT;

CREATE TABLE sync_conflicts (
  id             INTEGER PRIMARY KEY,
  resource_type  TEXT NOT NULL,
  record_id      INTEGER NOT NULL,
  field          TEXT NOT NULL,
  yours          TEXT,
  yours_at       TEXT NOT NULL,
  theirs         TEXT,
  theirs_by      INTEGER,
  theirs_at      TEXT,
  created_at     TEXT NOT NULL,
  UNIQUE (resource_type, record_id, field)
);
`;
