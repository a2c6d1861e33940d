import type { Db } from '../db/database.js';
import { BULK_LOAD_SCHEMA, rebuildSearchIndexes } from '../db/searchIndexes.js';

const SETTING = 'bulk_load_schema';
/**
 * SQLite's page cache during a bulk load, in KiB. The load writes new pages
 * in order and rereads few, so a small cache costs little time, and it keeps
 * the replica's peak memory well under its 200 MB target while the pages of
 * the download are parsed beside it (16 MiB otherwise: measured at 300 000
 * records, a peak of 199 MB with it, 186 MB with this).
 */
const BULK_LOAD_CACHE_KIB = 4096;

/**
 * A replica's first sync is a bulk load of the hub's records (300 000 of them
 * for a large team). Keeping the search indexes current row by row costs
 * several times the load itself, and the big tables' secondary indexes more
 * again, so the first sync runs with those triggers and indexes off and
 * builds them once at the end, sorted, as seeding does. Their SQL is saved
 * first: if the process dies meanwhile, `finishBulkLoad` at the next start
 * puts them back and builds what is missing.
 */
export async function asBulkLoad<T>(db: Db, load: () => Promise<T>): Promise<T> {
  const cacheSize = db.pragma('cache_size', { simple: true }) as number;
  db.pragma(`cache_size = -${BULK_LOAD_CACHE_KIB}`);
  const objects = db.prepare(BULK_LOAD_SCHEMA).all() as { type: 'trigger' | 'index'; name: string; sql: string }[];
  db.transaction(() => {
    db.prepare('INSERT OR REPLACE INTO replica_settings (name, value) VALUES (?, ?)').run(SETTING, JSON.stringify(objects));
    for (const { type, name } of objects) db.exec(`DROP ${type === 'index' ? 'INDEX' : 'TRIGGER'} IF EXISTS ${name}`);
  })();
  try {
    return await load();
  } finally {
    finishBulkLoad(db);
    db.pragma(`cache_size = ${cacheSize}`);
  }
}

/** Puts the indexes and triggers back and builds the search indexes, if a bulk load was under way. */
export function finishBulkLoad(db: Db): void {
  const saved = db.prepare('SELECT value FROM replica_settings WHERE name = ?').pluck().get(SETTING) as string | undefined;
  if (saved === undefined) return;
  db.transaction(() => {
    for (const { sql } of JSON.parse(saved) as { sql: string }[]) db.exec(sql.replace(/^CREATE (TRIGGER|INDEX) /i, 'CREATE $1 IF NOT EXISTS '));
    rebuildSearchIndexes(db);
    db.prepare('DELETE FROM replica_settings WHERE name = ?').run(SETTING);
  })();
}
