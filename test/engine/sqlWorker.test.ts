import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { SqlWorker } from '../../electron/engine/db/sqlWorker.js';

/** A real worker thread with its own connection to a real SQLite file, beside this thread's connection. */
let dir: string;
let file: string;
let db: Database.Database;
const workers: SqlWorker[] = [];

function worker(options: { nativeBinding?: string } = {}): SqlWorker {
  const opened = new SqlWorker({ file, cacheKiB: 1024, ...options });
  workers.push(opened);
  return opened;
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-sql-worker-'));
  file = join(dir, 'test.sqlite');
  db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.exec("CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT NOT NULL); INSERT INTO items (name) VALUES ('one')");
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.close()));
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const names = () => db.prepare('SELECT name FROM items ORDER BY id').pluck().all();

describe('SqlWorker', () => {
  it('runs a batch in one transaction, and keeps nothing of a batch that fails', async () => {
    const sql = worker();
    await sql.run({ statements: ["INSERT INTO items (name) VALUES ('two')", 'CREATE INDEX items_name ON items (name)'] });
    expect(names()).toEqual(['one', 'two']);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE type = 'index'").pluck().all()).toEqual(['items_name']);

    const failing = sql.run({ statements: ["INSERT INTO items (name) VALUES ('three')", 'INSERT INTO items (name) VALUES (NULL)'] });
    await expect(failing).rejects.toThrow(/NOT NULL constraint failed/);
    expect(names()).toEqual(['one', 'two']);
    // The worker goes on serving after a failed batch.
    await sql.run({ statements: ["INSERT INTO items (name) VALUES ('four')"] });
    expect(names()).toEqual(['one', 'two', 'four']);
  });

  it('holds the write lock across batches kept open, while this thread still reads the committed state', async () => {
    const sql = worker();
    await sql.run({ statements: ["INSERT INTO items (name) VALUES ('pending')"], keepOpen: true });
    db.pragma('busy_timeout = 0');
    expect(() => db.prepare("INSERT INTO items (name) VALUES ('mine')").run()).toThrow(/database is locked/);
    expect(names()).toEqual(['one']);
    await sql.run({ statements: ["INSERT INTO items (name) VALUES ('last')"] });
    db.prepare("INSERT INTO items (name) VALUES ('mine')").run();
    expect(names()).toEqual(['one', 'pending', 'last', 'mine']);
  });

  it('rolls back a transaction left open when it closes', async () => {
    const sql = worker();
    await sql.run({ statements: ["INSERT INTO items (name) VALUES ('never')"], keepOpen: true });
    await sql.close();
    expect(names()).toEqual(['one']);
    db.prepare("INSERT INTO items (name) VALUES ('after')").run();
    expect(names()).toEqual(['one', 'after']);
  });

  it('copies from an attached file, and writes FTS5 shadow tables only when the batch says so', async () => {
    db.exec("CREATE VIRTUAL TABLE words USING fts5(body); INSERT INTO words (body) VALUES ('old text')");
    const asideFile = join(dir, 'aside.sqlite');
    const aside = new Database(asideFile);
    aside.exec("CREATE VIRTUAL TABLE words USING fts5(body); INSERT INTO words (body) VALUES ('copied pricing terms'), ('more pricing')");
    aside.close();
    const copy = ['data', 'idx', 'content', 'docsize'].flatMap((part) => [`DELETE FROM main.words_${part}`, `INSERT INTO main.words_${part} SELECT * FROM aside.words_${part}`]);
    // This thread's FTS5 has read the index's structure before the copy, and keeps it until another
    // connection commits: copied on this connection, the search found one row of two and failed its integrity check.
    expect(db.prepare("SELECT body FROM words WHERE words MATCH 'old'").pluck().all()).toEqual(['old text']);

    const sql = worker();
    await expect(sql.run({ attach: { file: asideFile, name: 'aside' }, statements: copy })).rejects.toThrow(/may not be modified/);
    await sql.run({ attach: { file: asideFile, name: 'aside' }, statements: copy, shadowTables: true });
    expect(db.prepare("SELECT body FROM words WHERE words MATCH 'pricing'").pluck().all()).toEqual(['copied pricing terms', 'more pricing']);
    expect(db.prepare("SELECT count(*) FROM words WHERE words MATCH 'old'").pluck().get()).toBe(0);
    db.exec("INSERT INTO words (words, rank) VALUES ('integrity-check', 1)");
  });

  it('rejects every batch when the worker cannot open the database', async () => {
    const sql = worker({ nativeBinding: join(dir, 'no-such-driver.node') });
    await expect(sql.run({ statements: ['SELECT 1'] })).rejects.toThrow();
    await expect(sql.run({ statements: ['SELECT 1'] })).rejects.toThrow();
  });
});
