import { sqliteOf, type Db, type SqliteDb } from './database.js';

/**
 * Runs `write` (a bulk load that adds far more pages than the file has: a
 * seed of a million contacts) with a rollback journal instead of the WAL,
 * when nothing else has the file open.
 *
 * In WAL mode every page a transaction writes is written twice: into the
 * WAL, then into the file at the checkpoint after the commit. For a seed of
 * a million contacts that is a WAL of two gigabytes, and it made the seed
 * 11.3 times as long as one of 100 000 (the kernel's share 16 times): 87 s.
 * A rollback journal keeps a copy of the pages that existed before only;
 * new pages go into the file once: 72.9 s, 9.7 times 100 000's 7.5 s.
 * Crash-safe as the WAL is (a hot journal is rolled back at the next open,
 * and opening sets WAL mode again).
 *
 * SQLite leaves WAL mode only with no other connection open; with one (a
 * hub running on the file) it stays as it is, without waiting. On
 * PostgreSQL, and inside a transaction, `write` just runs.
 */
export function withRollbackJournal<T>(db: Db, write: () => T): T {
  if (db.dialect !== 'sqlite' || db.inTransaction) return write();
  const sqlite = sqliteOf(db);
  const left = setJournal(sqlite, 'delete');
  try {
    return write();
  } finally {
    // Failing that (another connection opened meanwhile), the next open sets it.
    if (left) setJournal(sqlite, 'wal');
  }
}

/** Sets the journal mode if SQLite can at once; whether it did. */
function setJournal(db: SqliteDb, mode: 'delete' | 'wal'): boolean {
  const timeout = db.pragma('busy_timeout', { simple: true }) as number;
  db.pragma('busy_timeout = 0');
  try {
    return db.pragma(`journal_mode = ${mode}`, { simple: true }) === mode;
  } catch (err) {
    if ((err as { code?: string }).code === 'SQLITE_BUSY') return false;
    throw err;
  } finally {
    db.pragma(`busy_timeout = ${timeout}`);
  }
}
