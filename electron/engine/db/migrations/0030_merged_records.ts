/**
 * Migration 30: merged records (resources/merging.ts).
 *
 * A contact or lead merged into another is deleted, but the hub remembers
 * which record took its place: a device that still holds the merged record,
 * with offline edits to it or new records naming it, sends them later, and
 * the hub applies them to the survivor instead of refusing them
 * (changes/mergedIds.ts). One row per merged record; a survivor merged later
 * itself has its rows pointed at the new survivor, so one look-up is enough.
 *
 * Duplicates are found by normalized keys (resources/duplicates.ts):
 * lower-cased email, a phone number's last nine digits, a name within its
 * organization. Each key is indexed as the expression the finder groups and
 * looks up by, so grouping reads an index in order and the create-time check
 * ("a contact with this email exists") is a look-up, on 100 000 contacts too.
 */

/** A phone column's digits without the usual separators (db/phoneKeySql.ts spells the same; migration 33 rewrote the phone keys). */
const digits = (column: string) => ['+', ' ', '-', '(', ')', '.', '/'].reduce((sql, sign) => `replace(${sql}, '${sign}', '')`, column);

/**
 * The duplicate keys' indexes; `greatest` is SQLite's two-argument `max` as
 * PostgreSQL spells it (db/postgres/schema.ts uses this with 'greatest').
 */
export function duplicateKeyIndexes(greatest: 'max' | 'greatest'): string {
  const phoneKey = (column: string) => `substr(${digits(column)}, ${greatest}(1, length(${digits(column)}) - 8))`;
  const leadName = "lower(trim(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))))";
  return [
    'CREATE INDEX contacts_email_key ON contacts (lower(trim(email)));',
    'CREATE INDEX contacts_name_key ON contacts (lower(trim(name)), is_organization, contact_id);',
    'CREATE INDEX leads_email_key ON leads (lower(trim(email)));',
    `CREATE INDEX leads_name_key ON leads (${leadName}, lower(trim(coalesce(organization_name, ''))));`,
    ...['contacts', 'leads'].flatMap((table) => ['phone', 'mobile'].map((column) => `CREATE INDEX ${table}_${column}_key ON ${table} (${phoneKey(column)});`)),
  ].join('\n');
}

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
${duplicateKeyIndexes('max')}
`;
