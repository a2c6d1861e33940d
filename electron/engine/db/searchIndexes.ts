import type { SqliteDb } from './database.js';

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

type SearchIndex = (typeof SEARCH_INDEXES)[number];

/** Sets the FTS5 index `table` (`fts`, or `schema.fts`) to flush its terms at `bytes`. */
const setHashSize = (db: SqliteDb, table: string, index: SearchIndex, bytes: number) =>
  db.exec(`INSERT INTO ${table} (${index.fts}, rank) VALUES ('hashsize', ${bytes})`);

/** Fills the empty FTS5 index `table` from all of its source table's rows, in big segments. */
function fillSearchIndex(db: SqliteDb, table: string, index: SearchIndex): void {
  setHashSize(db, table, index, REBUILD_HASH_BYTES);
  db.exec(`INSERT INTO ${table} (rowid, ${index.columns}) ${index.rows}`);
}

/**
 * Adds to the search index `fts` the rows of its table from id `firstId` on,
 * in one statement and in big segments (a seed's batch, with the table's
 * trigger off meanwhile). With FTS5's default 1 MiB, a million contacts made
 * a thousand segments to merge: 31 s, against about 1 s for 100 000.
 */
export function indexRowsFrom(db: SqliteDb, fts: SearchIndex['fts'], firstId: number): void {
  const index = SEARCH_INDEXES.find((i) => i.fts === fts)!;
  setHashSize(db, fts, index, REBUILD_HASH_BYTES);
  db.prepare(`INSERT INTO ${fts} (rowid, ${index.columns}) ${index.rows} WHERE id >= ?`).run(firstId);
  setHashSize(db, fts, index, DEFAULT_HASH_BYTES);
}

export function rebuildSearchIndexes(db: SqliteDb): void {
  for (const index of SEARCH_INDEXES) {
    db.exec(`DELETE FROM ${index.fts}`);
    fillSearchIndex(db, index.fts, index);
    setHashSize(db, index.fts, index, DEFAULT_HASH_BYTES);
  }
}

/** FTS5's tables behind each search index that hold the index and its copy of the text (`_config` keeps its settings). */
const SHADOW_PARTS = ['data', 'idx', 'content', 'docsize'];
/** The schema name the search indexes are built under, aside. */
export const SEARCH_BUILD_SCHEMA = 'search_build';

/**
 * Builds every search index in the database file `aside` (made anew; no
 * journal, since it is thrown away if anything goes wrong) from this
 * database's tables, and returns the statements that copy them in. Building
 * aside only reads this database, so another connection may write it
 * meanwhile (a bulk load's worker builds the secondary indexes so). The copy
 * must run on another connection, with `aside` attached as SEARCH_BUILD_SCHEMA
 * and shadow-table writes allowed: FTS5 caches an index's structure per
 * connection and reads it again only after another connection's commit.
 */
export function buildSearchIndexesAside(db: SqliteDb, aside: string): string[] {
  const schema = SEARCH_BUILD_SCHEMA;
  db.prepare(`ATTACH ? AS ${schema}`).run(aside);
  try {
    db.pragma(`${schema}.journal_mode = OFF`);
    db.pragma(`${schema}.synchronous = OFF`);
    // As small as this connection's own page cache (the default would add 16 MB): the build writes pages once, in order.
    db.pragma(`${schema}.cache_size = ${db.pragma('main.cache_size', { simple: true }) as number}`);
    for (const index of SEARCH_INDEXES) {
      const sql = db.prepare("SELECT sql FROM main.sqlite_master WHERE type = 'table' AND name = ?").pluck().get(index.fts) as string;
      db.exec(sql.replace(/^CREATE VIRTUAL TABLE /i, `CREATE VIRTUAL TABLE ${schema}.`));
      // Its hash size stays behind with the file: only the index's data is copied, not its _config.
      fillSearchIndex(db, `${schema}.${index.fts}`, index);
    }
  } finally {
    db.exec(`DETACH ${schema}`);
  }
  return SEARCH_INDEXES.flatMap(({ fts }) => SHADOW_PARTS.flatMap((part) => [
    `DELETE FROM main.${fts}_${part}`,
    `INSERT INTO main.${fts}_${part} SELECT * FROM ${schema}.${fts}_${part}`,
  ]));
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
