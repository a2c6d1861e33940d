/**
 * Migration 23: a name is unique only where the spec demands it. Call and
 * visit outcomes, loss reasons, deal and lead unqualified reasons and deal
 * sources may repeat a name, as in the real service (the Ruby client's tests
 * name loss reasons by the second and create several a second); lead sources
 * stay unique (spec: Lead sources), now through a partial index.
 *
 * SQLite cannot drop a UNIQUE constraint, so each table is rebuilt by its
 * documented procedure (new table, copy, drop, rename), every id kept, with
 * foreign keys off (see db/database.ts): with them on, dropping the old table
 * would run the ON DELETE actions of the leads and deals that name its rows.
 */

const NAMED_LIST_TABLES = ['call_outcomes', 'visit_outcomes', 'loss_reasons', 'deal_unqualified_reasons', 'lead_unqualified_reasons'];

/** Replaces `table` by one made by `create` (given the new table's name), rows and ids copied over. */
function rebuild(table: string, columns: string, create: (name: string) => string): string {
  return `${create(`${table}_rebuilt`)}
INSERT INTO ${table}_rebuilt (${columns}) SELECT ${columns} FROM ${table};
DROP TABLE ${table};
ALTER TABLE ${table}_rebuilt RENAME TO ${table};`;
}

const namedList = (name: string) => `CREATE TABLE ${name} (
  id          INTEGER PRIMARY KEY,
  creator_id  INTEGER REFERENCES users(id),
  name        TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);`;

const sources = (name: string) => `CREATE TABLE ${name} (
  id             INTEGER PRIMARY KEY,
  creator_id     INTEGER REFERENCES users(id),
  name           TEXT NOT NULL,
  resource_type  TEXT NOT NULL CHECK (resource_type IN ('lead', 'deal')),
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);`;

export const sql = /* sql */ `
${NAMED_LIST_TABLES.map((table) => rebuild(table, 'id, creator_id, name, created_at, updated_at', namedList)).join('\n')}
${rebuild('sources', 'id, creator_id, name, resource_type, created_at, updated_at', sources)}
CREATE UNIQUE INDEX sources_lead_name ON sources(name) WHERE resource_type = 'lead';
`;
