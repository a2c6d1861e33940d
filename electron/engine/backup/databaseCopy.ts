import Database from 'better-sqlite3';

/** Tables every Outpost database has had since its first schema: their absence means another application's file. */
const OUTPOST_TABLES = ['account', 'users', 'change_log'];

/**
 * Checks a copy of an Outpost database (a backup just written, or one about
 * to be restored) and returns its schema version: SQLite must find it whole
 * (`PRAGMA integrity_check` answers `ok`) and it must be Outpost's. The copy
 * is also switched to a rollback journal: a backup is then one self-contained
 * file that opens read-only anywhere, even on read-only media (the engine
 * turns WAL on again when it opens the restored database).
 * Throws an error whose message names `label` and says what is wrong.
 */
export function checkDatabaseCopy(file: string, label: string): number {
  let db: Database.Database | undefined;
  try {
    db = new Database(file, { fileMustExist: true });
    db.pragma('journal_mode = DELETE');
    const integrity = db.pragma('integrity_check', { simple: true });
    if (integrity !== 'ok') throw new CopyCheckError(`${label} is damaged (SQLite's integrity check: ${String(integrity).split('\n')[0]})`);
    const found = db.prepare(`SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name IN (${OUTPOST_TABLES.map(() => '?').join(',')})`).pluck().get(...OUTPOST_TABLES);
    const version = db.pragma('user_version', { simple: true }) as number;
    if (found !== OUTPOST_TABLES.length || version < 1) throw new CopyCheckError(`${label} is an SQLite database, but not an Outpost one`);
    return version;
  } catch (err) {
    throw err instanceof CopyCheckError ? err : new CopyCheckError(unreadable(label, err));
  } finally {
    db?.close();
  }
}

class CopyCheckError extends Error {}

/** What SQLite's refusal to read a file means, in words. */
function unreadable(label: string, err: unknown): string {
  const { code, message } = err as { code?: string; message?: string };
  const detail = (message ?? String(err)).split('\n')[0];
  if (code === 'SQLITE_NOTADB') return `${label} is not an SQLite database`;
  if (code === 'SQLITE_CORRUPT') return `${label} is damaged (SQLite: ${detail})`;
  return `${label} could not be read (${detail})`;
}
