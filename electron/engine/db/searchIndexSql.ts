// The search indexes' definitions and the SQL that fills them, without imports: the
// migrations (32) use them as db/searchIndexes.ts does, and that module imports the database's types.

/**
 * The full-text indexes (FTS5) behind `q`, kept current row by row by the
 * triggers of migrations 1–3, 13 and 20, and how to build each one for a whole table at
 * once (a bulk load turns the triggers off and calls `rebuildSearchIndexes`).
 */
export const SEARCH_INDEXES = [
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

export type SearchIndex = (typeof SEARCH_INDEXES)[number];

/** Sets the FTS5 index `table` (`fts`, or `schema.fts`) to flush its terms at `bytes`. */
const hashSizeSql = (table: string, index: SearchIndex, bytes: number) => `INSERT INTO ${table} (${index.fts}, rank) VALUES ('hashsize', ${bytes});`;

/**
 * SQL that adds to the FTS5 index `table` (`fts`, or `schema.fts`) its source
 * table's rows (all, or those from id `firstId` on), in big segments, then
 * sets the index back to FTS5's default segment size.
 */
export const fillSearchIndexSql = (index: SearchIndex, table: string = index.fts, firstId?: number) => [
  hashSizeSql(table, index, REBUILD_HASH_BYTES),
  `INSERT INTO ${table} (rowid, ${index.columns}) ${index.rows}${firstId === undefined ? '' : ` WHERE id >= ${Math.trunc(firstId)}`};`,
  hashSizeSql(table, index, DEFAULT_HASH_BYTES),
].join('\n');

