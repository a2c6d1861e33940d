import type { Db, SqliteDb } from './database.js';
import { fillSearchIndexSql, RECONNECT_SEARCH_INDEXES, SEARCH_INDEXES, type SearchIndex } from './searchIndexSql.js';

const searchIndex = (fts: SearchIndex['fts']) => SEARCH_INDEXES.find((i) => i.fts === fts)!;

/** Writes again the search entry of one row of the index's table (after its id changed, say). */
export function reindexRow(db: Db, fts: SearchIndex['fts'], id: number): void {
  const index = searchIndex(fts);
  db.prepare(`DELETE FROM ${fts} WHERE rowid = ?`).run(id);
  db.prepare(`INSERT INTO ${fts} (rowid, ${index.columns}) ${index.rows} WHERE id = ?`).run(id);
}

/**
 * Adds to the search index `fts` the rows of its table from id `firstId` on,
 * in one statement and in big segments (a seed's batch, with the table's
 * trigger off meanwhile). With FTS5's default 1 MiB, a million contacts made
 * a thousand segments to merge: 31 s, against about 1 s for 100 000.
 */
export function indexRowsFrom(db: SqliteDb, fts: SearchIndex['fts'], firstId: number): void {
  db.exec(fillSearchIndexSql(searchIndex(fts), fts, firstId));
}

/** Builds the search indexes `indexes` (every one unless told) anew from their tables. */
export function rebuildSearchIndexes(db: SqliteDb, indexes: readonly SearchIndex[] = SEARCH_INDEXES): void {
  for (const index of indexes) {
    // A contentless index is emptied by this command (it has no rows of its own to delete).
    db.exec(`INSERT INTO ${index.fts} (${index.fts}) VALUES ('delete-all')`);
    db.exec(fillSearchIndexSql(index));
  }
}

/** After a build of the search indexes on `db`, committed: see RECONNECT_SEARCH_INDEXES. */
export function reconnectSearchIndexes(db: SqliteDb): void {
  db.exec(RECONNECT_SEARCH_INDEXES);
}

/** The schema name the search indexes are built under, aside. */
export const SEARCH_BUILD_SCHEMA = 'search_build';

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
