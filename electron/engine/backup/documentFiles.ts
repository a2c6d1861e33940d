import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { fsyncFolder } from './durableFiles.js';

/** Where a backup file's documents are: a folder beside it, named after it. */
export function documentsBesideBackup(backupFile: string): string {
  return `${backupFile}.documents`;
}

export interface DocumentsCopied {
  count: number;
  bytes: number;
  /** Documents whose file was missing or did not match its record: not copied. */
  unavailable: number[];
}

interface DocumentRecord {
  id: number;
  size: number;
  sha256: string;
}

/**
 * Copies the files of the documents that a database copy records, from one
 * folder to another (which is created). Each file is checked against its
 * record (size and SHA-256) and flushed to disk; files uploaded after the
 * copy was taken are not its documents and are left alone.
 */
export function copyDocumentFiles(databaseCopy: string, from: string, to: string): DocumentsCopied {
  mkdirSync(to, { recursive: true });
  const copied: DocumentsCopied = { count: 0, bytes: 0, unavailable: [] };
  for (const record of recordedDocuments(databaseCopy)) {
    const content = matchingContent(join(from, String(record.id)), record);
    if (!content) {
      copied.unavailable.push(record.id);
      continue;
    }
    writeFileSync(join(to, String(record.id)), content, { flush: true });
    copied.count += 1;
    copied.bytes += content.length;
  }
  fsyncFolder(to);
  return copied;
}

/** The warning for documents that could not be copied (a replica's, whose files stay on its hub, or a damaged folder's). */
export function unavailableWarning(ids: number[], folder: string): string {
  const shown = ids.slice(0, 10).join(', ') + (ids.length > 10 ? ', …' : '');
  return `${ids.length} document(s) have no matching file in ${folder} (ids ${shown}): only their records were copied`;
}

function recordedDocuments(databaseCopy: string): DocumentRecord[] {
  const db = new Database(databaseCopy, { readonly: true, fileMustExist: true });
  try {
    // Databases older than documents (schema 6) have none.
    const hasTable = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'documents'").get() !== undefined;
    return hasTable ? (db.prepare('SELECT id, size, sha256 FROM documents ORDER BY id').all() as DocumentRecord[]) : [];
  } finally {
    db.close();
  }
}

function matchingContent(file: string, record: DocumentRecord): Buffer | null {
  if (!existsSync(file)) return null;
  const content = readFileSync(file);
  const matches = content.length === record.size && createHash('sha256').update(content).digest('hex') === record.sha256;
  return matches ? content : null;
}
