import { closeSync, fsyncSync, openSync, rmSync } from 'node:fs';

/** Flushes a file to the disk, so a rename that puts it in place cannot land before its content. */
export function fsyncFile(path: string): void {
  const fd = openSync(path, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Flushes a folder's entries (the renames just made in it). Best effort:
 * Windows cannot open a folder for this, and there a rename is made durable
 * by the file system itself.
 */
export function fsyncFolder(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    fsyncSync(fd);
  } catch {
    // Not supported here (EISDIR/EPERM on Windows): nothing more can be done.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** Removes files or folders left by an unfinished run (or made by this one before it failed). */
export function removeAll(...paths: string[]): void {
  for (const path of paths) rmSync(path, { recursive: true, force: true });
}
