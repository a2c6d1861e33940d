import { existsSync, renameSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { DATABASE_FILE, DOCUMENTS_FOLDER } from '../db/dataFolder.js';
import { checkDatabaseCopy } from './databaseCopy.js';
import { copyDocumentFiles, documentsBesideBackup, unavailableWarning, type DocumentsCopied } from './documentFiles.js';
import { fsyncFile, fsyncFolder, removeAll } from './durableFiles.js';

/** What a backup or a restore did: one line for stdout, and what it could not copy. */
export interface OperationReport {
  summary: string;
  warnings: string[];
}

export interface BackupOptions {
  dataDir: string;
  /** The backup file (the database); its documents go to `<to>.documents/`. */
  to: string;
  /** Replace an existing backup of that name. */
  force: boolean;
}

interface Copy {
  schemaVersion: number;
  documents: DocumentsCopied;
}

/** A backup taken while documents were deleted is taken again, at most this many times in all. */
const ATTEMPTS = 3;
/** Pages per step of SQLite's online backup: all of them, so the copy is one snapshot (see `takeCopy`). */
const ALL_PAGES = 0x7fffffff;

/**
 * `outpost backup`: an online copy of a data folder, taken while a hub may
 * be serving and writing on it. Written beside the target (`.partial`),
 * checked, flushed, then renamed into place, so `to` is only ever a
 * complete, verified backup; a failed one leaves nothing behind.
 */
export async function backupDataDir({ dataDir, to, force }: BackupOptions): Promise<OperationReport> {
  const source = join(dataDir, DATABASE_FILE);
  const target = { file: to, documents: documentsBesideBackup(to) };
  if (!existsSync(source)) throw new Error(`there is no Outpost database in ${dataDir} (no ${DATABASE_FILE})`);
  if (to === source || to.startsWith(`${source}-`)) throw new Error('--to must name a new file, not the database being backed up');
  if (!existsSync(dirname(to))) throw new Error(`the folder ${dirname(to)} does not exist`);
  if (!force && (existsSync(target.file) || existsSync(target.documents))) throw new Error(`${to} already exists; add --force to replace it`);
  const partial = { file: `${to}.partial`, documents: `${target.documents}.partial` };
  // A connection of its own beside the hub's (WAL: the hub's writes go on while this one reads).
  const live = new Database(source, { fileMustExist: true, timeout: 5000 });
  try {
    const copy = await takeCopy(live, dataDir, partial);
    putInPlace(partial, target);
    return report(copy, source, target, join(dataDir, DOCUMENTS_FOLDER));
  } catch (err) {
    removeAll(partial.file, partial.documents);
    throw new Error(`${(err as Error).message}; nothing was written to ${to}`, { cause: err });
  } finally {
    live.close();
  }
}

/**
 * The database copied in a single step of SQLite's online backup, under one
 * read snapshot: every write acknowledged before it began is in it, and
 * however busy the hub, it never restarts (in small steps, each write of the
 * hub's would restart it). Then checked, and the files of the documents it
 * records copied beside it. A document deleted in between (its file gone
 * with it) would leave a record without a file: the whole copy is taken again.
 */
async function takeCopy(live: Database.Database, dataDir: string, partial: { file: string; documents: string }): Promise<Copy> {
  for (let attempt = 1; ; attempt++) {
    removeAll(partial.file, partial.documents);
    await live.backup(partial.file, { progress: () => ALL_PAGES });
    const schemaVersion = checkDatabaseCopy(partial.file, `the copy of ${join(dataDir, DATABASE_FILE)}`);
    const documents = copyDocumentFiles(partial.file, join(dataDir, DOCUMENTS_FOLDER), partial.documents);
    const stillRecorded = (id: number) => live.prepare('SELECT 1 FROM documents WHERE id = ?').get(id) !== undefined;
    if (documents.unavailable.every(stillRecorded) || attempt === ATTEMPTS) return { schemaVersion, documents };
  }
}

/** The documents first, the database last: a backup file in place always has its documents beside it. */
function putInPlace(partial: { file: string; documents: string }, target: { file: string; documents: string }): void {
  fsyncFile(partial.file);
  removeAll(target.documents);
  renameSync(partial.documents, target.documents);
  renameSync(partial.file, target.file);
  fsyncFolder(dirname(target.file));
}

function report(copy: Copy, source: string, target: { file: string; documents: string }, documentsFolder: string): OperationReport {
  const { documents } = copy;
  return {
    summary: `Backed up ${source} to ${target.file} (${statSync(target.file).size} bytes, schema ${copy.schemaVersion}) ` +
      `and ${documents.count} document files (${documents.bytes} bytes) to ${target.documents}.`,
    warnings: documents.unavailable.length > 0 ? [unavailableWarning(documents.unavailable, documentsFolder)] : [],
  };
}
