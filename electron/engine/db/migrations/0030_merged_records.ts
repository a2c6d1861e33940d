/**
 * Migration 30: merged records (issue 32, resources/merging.ts).
 *
 * A contact or lead merged into another is deleted, but the hub remembers
 * which record took its place: a device that still holds the merged record,
 * with offline edits to it or new records naming it, sends them later, and
 * the hub applies them to the survivor instead of refusing them
 * (sync/mergedIds.ts). One row per merged record; a survivor merged later
 * itself has its rows pointed at the new survivor, so one look-up is enough.
 *
 * Duplicates are found by normalized keys computed in SQL (lower-cased email,
 * phone digits, name); the indexes on the email and name expressions keep the
 * create-time check ("a contact with this email exists") an index look-up.
 */
export const sql = /* sql */ `
CREATE TABLE merged_records (
  id             INTEGER PRIMARY KEY,
  resource_type  TEXT NOT NULL,
  merged_id      INTEGER NOT NULL,
  survivor_id    INTEGER NOT NULL,
  merged_at      TEXT NOT NULL,
  merged_by_id   INTEGER,
  UNIQUE (resource_type, merged_id)
);
CREATE INDEX merged_records_survivor ON merged_records (resource_type, survivor_id);
CREATE INDEX contacts_email_key ON contacts (lower(trim(email)));
CREATE INDEX contacts_name_key ON contacts (lower(trim(name)));
CREATE INDEX leads_email_key ON leads (lower(trim(email)));
`;
