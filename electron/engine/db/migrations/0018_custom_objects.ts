/**
 * Migration 18: the custom-objects interface (served under /api/v2).
 *
 * `custom_objects.key` is the object's public id (the path variable); the
 * integer `id` is internal, so rows of fields and records stay attached if
 * the product ever lets a key be renamed. A delete is permanent (the spec),
 * and the object's fields and records go with it.
 *
 * Field definitions keep their type-specific settings as JSON
 * (`options_json`: dropdown and multiselect options; `relationship_target_type`
 * for lookups). Record values are one JSON object per record keyed by field
 * key (`fields_json`): a field set is the object's own schema, changed at
 * run time by admins, so columns per field would mean DDL on a live database.
 * Record ids are ULIDs (strings, sortable by creation), as the real service's;
 * field ids are never given twice (AUTOINCREMENT), since clients keep them.
 *
 * This data is the hub's only: it is not in the change log, and a desktop
 * replica forwards /api/v2 to its hub.
 */
export const sql = /* sql */ `
CREATE TABLE custom_objects (
  id                    INTEGER PRIMARY KEY,
  key                   TEXT NOT NULL UNIQUE,
  title                 TEXT NOT NULL,
  title_pluralized      TEXT NOT NULL,
  description           TEXT,
  created_by_user_id    INTEGER,
  updated_by_user_id    INTEGER,
  created_at            TEXT NOT NULL,
  updated_at            TEXT NOT NULL
);

CREATE TABLE custom_object_fields (
  id                        INTEGER PRIMARY KEY AUTOINCREMENT,
  custom_object_id          INTEGER NOT NULL REFERENCES custom_objects(id) ON DELETE CASCADE,
  key                       TEXT NOT NULL,
  type                      TEXT NOT NULL,
  title                     TEXT NOT NULL,
  description               TEXT,
  position                  INTEGER NOT NULL DEFAULT 0,
  active                    INTEGER NOT NULL DEFAULT 1,
  regexp_for_validation     TEXT,
  options_json              TEXT,
  relationship_target_type  TEXT,
  created_at                TEXT NOT NULL,
  updated_at                TEXT NOT NULL,
  UNIQUE (custom_object_id, key)
);
CREATE INDEX custom_object_fields_target ON custom_object_fields(relationship_target_type);

CREATE TABLE custom_object_records (
  id                    TEXT PRIMARY KEY,
  custom_object_id      INTEGER NOT NULL REFERENCES custom_objects(id) ON DELETE CASCADE,
  name                  TEXT NOT NULL,
  external_id           TEXT,
  fields_json           TEXT NOT NULL DEFAULT '{}',
  created_by_user_id    INTEGER,
  updated_by_user_id    INTEGER,
  created_at            TEXT NOT NULL,
  updated_at            TEXT NOT NULL
);
CREATE INDEX custom_object_records_object ON custom_object_records(custom_object_id, id);
CREATE INDEX custom_object_records_name ON custom_object_records(custom_object_id, name COLLATE NOCASE);
CREATE UNIQUE INDEX custom_object_records_external_id ON custom_object_records(custom_object_id, external_id) WHERE external_id IS NOT NULL;
`;
