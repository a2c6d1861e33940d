import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openSqlite, prepareSqlite } from '../support/wasmSqlite.js';

/**
 * The wasm test run's platform (test/support/wasmSqlite.ts): a database in
 * WebAssembly memory whose file on disk is read at open and written at close,
 * so the engine's tests that reopen a file, or read it with better-sqlite3,
 * find what was written; and the browser's pragmas (setUpWasmConnection).
 */

let dir: string;
beforeAll(async () => {
  await prepareSqlite();
  dir = mkdtempSync(join(tmpdir(), 'outpost-wasm-platform-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the wasm platform in Node', () => {
  it('writes the file at close, and reads it at open, to and from better-sqlite3 in WAL mode', () => {
    const file = join(dir, 'shared.sqlite');
    const wasm = openSqlite(file);
    wasm.exec("CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('from wasm')");
    wasm.close();

    const native = new Database(file);
    native.pragma('journal_mode = WAL');
    expect(native.prepare('SELECT body FROM notes').pluck().all()).toEqual(['from wasm']);
    native.prepare("INSERT INTO notes VALUES ('from native')").run();
    native.close();

    const again = openSqlite(file);
    expect(again.prepare('SELECT body FROM notes ORDER BY rowid').pluck().all()).toEqual(['from wasm', 'from native']);
    again.close();
  });

  it('leaves the file as it was when opened read-only', () => {
    const file = join(dir, 'readonly.sqlite');
    const creator = openSqlite(file);
    creator.exec('CREATE TABLE t (x); INSERT INTO t VALUES (1)');
    creator.close();
    const writer = openSqlite(file);
    writer.exec('INSERT INTO t VALUES (2)');
    writer.close();
    const modified = statSync(file).mtimeMs;
    const reader = openSqlite(file, { readonly: true });
    expect(reader.prepare('SELECT count(*) FROM t').pluck().get()).toBe(2);
    expect(() => reader.exec('INSERT INTO t VALUES (3)')).toThrow(expect.objectContaining({ code: 'SQLITE_READONLY' }));
    reader.close();
    expect(statSync(file).mtimeMs).toBe(modified);
  });

  it("sets the browser's pragmas: temporary tables in memory, exclusive locking, the page size asked for", () => {
    const db = openSqlite(join(dir, 'pragmas.sqlite'), { pageSize: 16384 });
    expect(db.pragma('temp_store', { simple: true })).toBe(2);
    expect(db.pragma('locking_mode', { simple: true })).toBe('exclusive');
    expect(db.pragma('page_size', { simple: true })).toBe(16384);
    db.close();
  });
});
