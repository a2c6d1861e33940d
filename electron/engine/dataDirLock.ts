import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/** The lock's own small file in the data folder (never the database: CLI commands must keep working beside a hub). */
export const LOCK_FILE = 'hub-lock.sqlite';

/** A hub (or replica server) holds the folder already. */
export class DataDirLockedError extends Error {
  constructor(dataDir: string) {
    super(`Another Outpost hub is already running on the data folder ${dataDir}; stop it first or choose another --data-dir.`);
  }
}

/**
 * One serving process per data folder, held as an exclusive SQLite lock on a
 * file of its own for the process's life. The lock is the operating system's
 * (POSIX advisory locks, LockFileEx on Windows), so it goes with the process
 * however it ends: a hub killed with SIGKILL can be started again at once,
 * with no stale lock to wait out, and no two live processes can ever hold it.
 * (A lock file judged stale by its age, as before, refused a restart for
 * 10–16 s after a crash.) SQLite also takes care of two connections in one
 * process, which POSIX locks alone would not tell apart.
 */
export function lockDataDir(dataDir: string): { release(): void } {
  const db = new Database(join(dataDir, LOCK_FILE), { timeout: 0 });
  try {
    db.pragma('journal_mode = DELETE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if (isBusy(err)) throw new DataDirLockedError(dataDir);
    throw err;
  }
  return {
    release: () => {
      if (db.open) db.close();
    },
  };
}

/** Whether a serving process holds the folder now (for commands that must not run beside one, such as restore). */
export function isDataDirLocked(dataDir: string): boolean {
  if (!existsSync(dataDir)) return false;
  try {
    lockDataDir(dataDir).release();
    return false;
  } catch (err) {
    if (err instanceof DataDirLockedError) return true;
    throw err;
  }
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED';
}
