import type { EngineContext } from '../context.js';
import { DOCUMENTS_FOLDER } from '../db/dataFolder.js';
import { documentFolder, pathIn, type DocumentContents } from '../platform/files.js';

export type { DocumentContents } from '../platform/files.js';

/**
 * Where the bytes of uploaded documents live (resources/documents.ts keeps
 * their records): a file per document under the data folder on SQLite in Node
 * (the single-machine hub, and a replica, which has none and fetches them from
 * its hub: platform/files.ts), a row of `document_contents` on PostgreSQL, so
 * that every node of a hub serves every document (db/postgres/clusterTables.ts),
 * and in the browser, where no files sit beside the database.
 */
export function documentContents(ctx: EngineContext, dataDir: string): DocumentContents {
  if (ctx.db.dialect === 'postgres') return new TableContents(ctx, 'cascades');
  return documentFolder(pathIn(dataDir, DOCUMENTS_FOLDER)) ?? new TableContents(ctx, 'own table');
}

/**
 * One row per document, bytes as a blob: PostgreSQL's `document_contents`
 * (its rows go with their documents', ON DELETE CASCADE), or on SQLite a table
 * of the same name made here (a replica keeps no foreign keys: rows are
 * removed one by one).
 */
export class TableContents implements DocumentContents {
  constructor(private readonly ctx: EngineContext, private readonly table: 'cascades' | 'own table') {
    if (table === 'own table') ctx.db.exec('CREATE TABLE IF NOT EXISTS document_contents (id INTEGER PRIMARY KEY, bytes BLOB NOT NULL)');
  }

  write(id: number, content: Uint8Array): void {
    this.ctx.statements.get('INSERT INTO document_contents (id, bytes) VALUES (?, ?)').run(id, content);
  }

  read(id: number): Uint8Array | null {
    // node-postgres reads bytea as a Buffer, the bridge's worker posts it as a plain Uint8Array: either is bytes.
    return (this.ctx.statements.get('SELECT bytes FROM document_contents WHERE id = ?').pluck().get(id) as Uint8Array | undefined) ?? null;
  }

  remove(id: number): void {
    if (this.table === 'own table') this.ctx.statements.get('DELETE FROM document_contents WHERE id = ?').run(id);
  }
}
