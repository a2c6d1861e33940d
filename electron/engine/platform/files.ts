import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The data folder on disk, Node's side (files.web.ts is the browser's, where
 * the database is a name in the Origin Private File System and nothing else is
 * kept beside it).
 */

/** Creates the folder (and its parents) if missing. */
export function makeFolder(folder: string): void {
  mkdirSync(folder, { recursive: true });
}

/** The path of `name` inside `folder`. */
export function pathIn(folder: string, name: string): string {
  return join(folder, name);
}

/** Removes the file if it exists. */
export function removeFileIfAny(file: string): void {
  rmSync(file, { force: true });
}

/** Where the bytes of uploaded documents are kept (resources/documentContents.ts chooses). */
export interface DocumentContents {
  /** Stores a new document's bytes; called inside the transaction that inserts its record (a failed write rolls both back). */
  write(id: number, content: Uint8Array): void;
  /** The bytes, or null when they are not here. */
  read(id: number): Uint8Array | null;
  /** Removes the bytes of a document whose record was just deleted. */
  remove(id: number): void;
}

/** Documents' bytes as a file each in `folder`; null where there are no files (the browser). */
export function documentFolder(folder: string): DocumentContents | null {
  return new FolderContents(folder);
}

/** One file per document, named by its id. */
class FolderContents implements DocumentContents {
  constructor(private readonly folder: string) {}

  write(id: number, content: Uint8Array): void {
    mkdirSync(this.folder, { recursive: true });
    try {
      writeFileSync(this.file(id), content);
    } catch (err) {
      // A disk that filled up mid-write leaves part of a file: none is kept (the record rolls back with it).
      rmSync(this.file(id), { force: true });
      throw err;
    }
  }

  read(id: number): Uint8Array | null {
    return existsSync(this.file(id)) ? readFileSync(this.file(id)) : null;
  }

  remove(id: number): void {
    rmSync(this.file(id), { force: true });
  }

  private file(id: number): string {
    return join(this.folder, String(id));
  }
}
