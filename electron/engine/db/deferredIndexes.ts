import { sqliteOf, type Db } from './database.js';

/**
 * The page cache while the indexes are built, in KiB. SQLite sorts an index's
 * keys in runs about the size of its page cache, then merges the runs; runs
 * that fit the processor's caches sort faster than long ones. Measured on a
 * hub's million contacts (4 KiB pages), the 21 contact indexes took 17.4 s with
 * the engine's 64 MiB, 15.1 s with 16 MiB and 10.8 s with 4 MiB.
 */
const SORT_CACHE_KIB = 4096;

/**
 * Runs `load`, which adds `rows` rows to `table`, inside the caller's
 * transaction; when that at least doubles the table, its secondary indexes
 * are dropped first and built again after, once each, from the sorted rows.
 *
 * Kept current row by row, an index whose keys arrive in random order (a
 * name, an email, a phone number) takes its inserts all over its B-tree, and
 * once the indexes outgrow the page cache every row costs page reads: seeding
 * a million contacts (eighteen indexes) took 19 times as long as a hundred
 * thousand. Built at the end, each index is one sort, and the time grows with
 * the rows. For a few rows added to a big table rebuilding would cost more than
 * it saves, hence the doubling. Indexes that back a UNIQUE constraint have no
 * SQL of their own and stay (they check the rows as they come). On PostgreSQL
 * (no such cost at this size: its indexes are not the seed's bound) `load` just runs.
 */
export function withIndexesBuiltAfter<T>(db: Db, table: string, rows: number, load: () => T): T {
  if (db.dialect !== 'sqlite') return load();
  if (rows === 0 || rows < (db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number)) return load();
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table) as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  const result = load();
  const sqlite = sqliteOf(db);
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  sqlite.pragma(`cache_size = -${SORT_CACHE_KIB}`);
  try {
    for (const { sql } of indexes) db.exec(sql);
  } finally {
    sqlite.pragma(`cache_size = ${cacheSize}`);
  }
  return result;
}
