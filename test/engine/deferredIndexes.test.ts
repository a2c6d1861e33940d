import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase, sqliteOf, type Db } from '../../electron/engine/db/database.js';
import { withIndexesBuiltAfter } from '../../electron/engine/db/deferredIndexes.js';

// db/deferredIndexes.ts on a real SQLite file with the engine's schema: the contacts table and its indexes.

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

function database(): Db {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-indexes-'));
  dirs.push(dir);
  return openDatabase(join(dir, 'test.sqlite'));
}

const indexesOf = (db: Db) => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'contacts' AND sql IS NOT NULL ORDER BY name").pluck().all() as string[];
const insertContacts = (db: Db, from: number, count: number) => {
  const insert = db.prepare("INSERT INTO contacts (id, creator_id, owner_id, is_organization, name, last_name, email, created_at, updated_at) VALUES (?, 1, 1, 0, ?, ?, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')");
  for (let id = from; id < from + count; id++) insert.run(id, `Name ${(id * 7919) % 1000}`, `Last ${(id * 104729) % 997}`, `c${id}@example.com`);
};

describe('withIndexesBuiltAfter', () => {
  it('loads a batch that at least doubles the table without its indexes, then builds every one of them over all the rows', () => {
    const db = database();
    db.prepare("INSERT INTO users (id, email, name, role, created_at, updated_at) VALUES (1, 'a@example.com', 'A', 'admin', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')").run();
    const before = indexesOf(db);
    expect(before.length).toBeGreaterThan(10);
    insertContacts(db, 1, 100);
    let duringLoad: string[] = [];
    db.transaction(() => withIndexesBuiltAfter(db, 'contacts', 500, () => {
      duringLoad = indexesOf(db);
      insertContacts(db, 101, 500);
    }))();
    expect(duringLoad).toEqual([]);
    expect(indexesOf(db)).toEqual(before);
    expect(sqliteOf(db).pragma('integrity_check', { simple: true })).toBe('ok');
    // Each rebuilt index holds every row: read through it, by name.
    expect(db.prepare('SELECT count(*) FROM contacts INDEXED BY contacts_last_name WHERE last_name IS NOT NULL').pluck().get()).toBe(600);
    expect(db.prepare("SELECT id FROM contacts INDEXED BY contacts_email WHERE email = 'c555@example.com'").pluck().get()).toBe(555);
    db.close();
  });

  it('keeps the indexes for a batch smaller than the table (rebuilding them would cost more)', () => {
    const db = database();
    db.prepare("INSERT INTO users (id, email, name, role, created_at, updated_at) VALUES (1, 'a@example.com', 'A', 'admin', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')").run();
    insertContacts(db, 1, 100);
    const before = indexesOf(db);
    let duringLoad: string[] = [];
    db.transaction(() => withIndexesBuiltAfter(db, 'contacts', 99, () => {
      duringLoad = indexesOf(db);
      insertContacts(db, 101, 99);
    }))();
    expect(duringLoad).toEqual(before);
    db.close();
  });

  it('leaves the table as it was, indexes included, when the load fails (the caller\'s transaction rolls back)', () => {
    const db = database();
    db.prepare("INSERT INTO users (id, email, name, role, created_at, updated_at) VALUES (1, 'a@example.com', 'A', 'admin', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')").run();
    const before = indexesOf(db);
    const failing = db.transaction(() => withIndexesBuiltAfter(db, 'contacts', 50, () => {
      insertContacts(db, 1, 50);
      throw new Error('the load failed');
    }));
    expect(failing).toThrow('the load failed');
    expect(indexesOf(db)).toEqual(before);
    expect(db.prepare('SELECT count(*) FROM contacts').pluck().get()).toBe(0);
    db.close();
  });
});
