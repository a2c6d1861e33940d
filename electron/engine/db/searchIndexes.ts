import type { Db } from './database.js';

/**
 * The full-text indexes (FTS5) behind `q`, kept current row by row by the
 * triggers of migrations 1–3, 13 and 20, and how to build each one for a whole table at
 * once (a bulk load turns the triggers off and calls `rebuildSearchIndexes`).
 */
const SEARCH_INDEXES = [
  { fts: 'contacts_fts', columns: 'name, email, phones', rows: 'SELECT id, name, email, phone_terms(phone, mobile) FROM contacts' },
  { fts: 'tasks_fts', columns: 'content', rows: 'SELECT id, content FROM tasks' },
  { fts: 'notes_fts', columns: 'content', rows: 'SELECT id, content FROM notes' },
  {
    fts: 'leads_fts', columns: 'name, email, phones',
    rows: "SELECT id, concat_ws(' ', first_name, last_name, organization_name), email, phone_terms(phone, mobile) FROM leads",
  },
  { fts: 'deals_fts', columns: 'name', rows: 'SELECT id, name FROM deals' },
] as const;

/**
 * FTS5 keeps the terms of the rows it is given in memory and writes them out
 * as one segment when they pass this size (1 MiB by default). For a whole
 * table at once, bigger segments mean far less merging: at 100 000 contacts,
 * tasks and notes the build took about a third less time with 8 MiB.
 */
const REBUILD_HASH_BYTES = 8 * 1024 * 1024;
const DEFAULT_HASH_BYTES = 1024 * 1024;

export function rebuildSearchIndexes(db: Db): void {
  for (const index of SEARCH_INDEXES) {
    const hashSize = (bytes: number) => db.exec(`INSERT INTO ${index.fts} (${index.fts}, rank) VALUES ('hashsize', ${bytes})`);
    hashSize(REBUILD_HASH_BYTES);
    db.exec(`DELETE FROM ${index.fts}`);
    db.exec(`INSERT INTO ${index.fts} (rowid, ${index.columns}) ${index.rows}`);
    hashSize(DEFAULT_HASH_BYTES);
  }
}

/**
 * What a bulk load turns off and builds again at the end: the triggers that
 * keep the search indexes current row by row, and the secondary indexes of
 * the big tables (built once, sorted, instead of row by row). Indexes that
 * back a UNIQUE constraint have no SQL and stay. (A replica, the one place
 * that bulk-loads, keeps no stored documents: db/documents.ts.)
 */
export const BULK_LOAD_SCHEMA = `SELECT type, name, sql FROM sqlite_master
  WHERE (type = 'trigger' AND name LIKE '%\\_fts\\_%' ESCAPE '\\')
     OR (type = 'index' AND sql IS NOT NULL AND tbl_name IN ('contacts', 'tasks', 'notes', 'calls', 'taggings', 'leads'))`;
