import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EngineContext } from '../context.js';
import { DOCUMENTS_FOLDER } from '../db/dataFolder.js';

/**
 * Where the bytes of uploaded documents live (resources/documents.ts keeps
 * their records): a file per document under the data folder on SQLite (the
 * single-machine hub, and a replica, which has none and fetches them from its
 * hub), a row of `document_contents` on PostgreSQL, so that every node of a
 * hub serves every document (db/postgres/clusterTables.ts).
 */
export interface DocumentContents {
  /** Stores a new document's bytes; called inside the transaction that inserts its record (a failed write rolls both back). */
  write(id: number, content: Buffer): void;
  /** The bytes, or null when they are not here. */
  read(id: number): Buffer | null;
  /** Removes the bytes of a document whose record was just deleted. */
  remove(id: number): void;
}

export function documentContents(ctx: EngineContext, dataDir: string): DocumentContents {
  return ctx.db.dialect === 'postgres' ? new TableContents(ctx) : new FolderContents(join(dataDir, DOCUMENTS_FOLDER));
}

/** One file per document, named by its id. */
class FolderContents implements DocumentContents {
  constructor(private readonly folder: string) {}

  write(id: number, content: Buffer): void {
    mkdirSync(this.folder, { recursive: true });
    try {
      writeFileSync(this.file(id), content);
    } catch (err) {
      // A disk that filled up mid-write leaves part of a file: none is kept (the record rolls back with it).
      rmSync(this.file(id), { force: true });
      throw err;
    }
  }

  read(id: number): Buffer | null {
    return existsSync(this.file(id)) ? readFileSync(this.file(id)) : null;
  }

  remove(id: number): void {
    rmSync(this.file(id), { force: true });
  }

  private file(id: number): string {
    return join(this.folder, String(id));
  }
}

/** One row per document in the hub's PostgreSQL database, bytes as bytea. */
class TableContents implements DocumentContents {
  constructor(private readonly ctx: EngineContext) {}

  write(id: number, content: Buffer): void {
    this.ctx.statements.get('INSERT INTO document_contents (id, bytes) VALUES (?, ?)').run(id, content);
  }

  read(id: number): Buffer | null {
    const bytes = this.ctx.statements.get('SELECT bytes FROM document_contents WHERE id = ?').pluck().get(id) as Uint8Array | undefined;
    if (bytes === undefined) return null;
    // node-postgres reads bytea as a Buffer, but the bridge's worker posts it to this thread as a plain Uint8Array.
    return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  remove(): void {
    // Nothing to do: the row went with the document's (ON DELETE CASCADE).
  }
}
