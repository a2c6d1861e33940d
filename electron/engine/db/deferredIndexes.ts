import type { Db } from './database.js';

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
  const present = db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  if (rows < present || rows === 0) return load();
  const indexes = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql IS NOT NULL").all(table) as { name: string; sql: string }[];
  for (const { name } of indexes) db.exec(`DROP INDEX ${name}`);
  const result = load();
  for (const { sql } of indexes) db.exec(sql);
  return result;
}
