import { copyFileSync, existsSync, mkdirSync, renameSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, DOCUMENTS_FOLDER } from '../db/dataFolder.js';
import { SCHEMA_VERSION } from '../db/migrations/index.js';
import { DataDirLockedError, lockDataDir } from '../dataDirLock.js';
import { checkDatabaseCopy } from './databaseCopy.js';
import { copyDocumentFiles, documentsBesideBackup, unavailableWarning, type DocumentsCopied } from './documentFiles.js';
import { fsyncFile, fsyncFolder, removeAll } from './durableFiles.js';
import type { OperationReport } from './backup.js';

export interface RestoreOptions {
  /** A backup file (`outpost backup`); its documents are read from `<from>.documents/`. */
  from: string;
  dataDir: string;
  /** Replace the folder's existing database and documents. */
  force: boolean;
}

interface Aside {
  file: string;
  documents: string;
}

/**
 * `outpost restore`: puts a backup in place as a data folder's database and
 * documents. The folder's lock is held throughout, so no hub runs on it
 * now nor starts halfway. Everything is copied aside first and checked
 * there (SQLite finds it whole, it is Outpost's, of a schema this build can
 * open), flushed, and only then renamed into place; a failure leaves the
 * folder as it was.
 */
export function restoreDataDir({ from, dataDir, force }: RestoreOptions): OperationReport {
  if (!existsSync(from) || !statSync(from).isFile()) throw new Error(`${from} is not a file`);
  mkdirSync(dataDir, { recursive: true });
  const lock = holdFolder(dataDir);
  try {
    if (existsSync(join(dataDir, DATABASE_FILE)) && !force) throw new Error(`${dataDir} already has a database; add --force to replace it (and its documents)`);
    const aside = { file: join(dataDir, `${DATABASE_FILE}.restoring`), documents: join(dataDir, `${DOCUMENTS_FOLDER}.restoring`) };
    try {
      const { schemaVersion, documents } = copyAside(from, aside);
      swapIn(aside, dataDir);
      return {
        summary: `Restored ${from} (schema ${schemaVersion}) and ${documents.count} document files (${documents.bytes} bytes) into ${dataDir}.`,
        warnings: documents.unavailable.length > 0 ? [unavailableWarning(documents.unavailable, documentsBesideBackup(from))] : [],
      };
    } catch (err) {
      removeAll(aside.file, aside.documents);
      throw err;
    }
  } finally {
    lock.release();
  }
}

/** The folder's lock (the one a hub takes); refused while a hub holds it. */
function holdFolder(dataDir: string): { release(): void } {
  try {
    return lockDataDir(dataDir);
  } catch (err) {
    if (err instanceof DataDirLockedError) throw new Error(`a hub is running on ${dataDir}: stop it before restoring into that folder`);
    throw err;
  }
}

/** The backup and its documents copied into the folder under temporary names, checked and flushed. */
function copyAside(from: string, aside: Aside): { schemaVersion: number; documents: DocumentsCopied } {
  removeAll(aside.file, aside.documents);
  copyFileSync(from, aside.file);
  const schemaVersion = checkDatabaseCopy(aside.file, from);
  if (schemaVersion > SCHEMA_VERSION) {
    throw new Error(`${from} was written by a newer version of Outpost (schema ${schemaVersion}; this version opens up to ${SCHEMA_VERSION}): update Outpost to restore it`);
  }
  const documents = copyDocumentFiles(aside.file, documentsBesideBackup(from), aside.documents);
  fsyncFile(aside.file);
  return { schemaVersion, documents };
}

/**
 * The documents first, the database last (its rename is the moment the
 * restore takes effect). The old database's journals go before it: SQLite
 * would replay a stale `-wal` or `-journal` into the restored file.
 */
function swapIn(aside: Aside, dataDir: string): void {
  const database = join(dataDir, DATABASE_FILE);
  const documents = join(dataDir, DOCUMENTS_FOLDER);
  const replaced = `${documents}.replaced`;
  removeAll(replaced);
  if (existsSync(documents)) renameSync(documents, replaced);
  renameSync(aside.documents, documents);
  removeAll(`${database}-wal`, `${database}-shm`, `${database}-journal`);
  renameSync(aside.file, database);
  fsyncFolder(dataDir);
  removeAll(replaced);
}
