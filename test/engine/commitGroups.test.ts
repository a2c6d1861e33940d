import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { CommitFailedError, CommitGroups } from '../../electron/engine/db/commitGroups.js';
import { asSqliteDb, type SqliteDb } from '../../electron/engine/db/database.js';

// A real SQLite file in WAL mode, and a second connection that sees only what is committed.
let dir: string;
let db: SqliteDb;
let other: Database.Database;
let groups: CommitGroups;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-commits-'));
  db = asSqliteDb(new Database(join(dir, 'test.sqlite')));
  db.pragma('journal_mode = WAL');
  db.pragma('foreign_keys = ON');
  db.exec(`CREATE TABLE parent (id INTEGER PRIMARY KEY);
    CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, parent_id INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)`);
  other = new Database(join(dir, 'test.sqlite'));
  groups = new CommitGroups(db);
});
afterEach(() => {
  other.close();
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const add = (name: string, parentId: number | null = null) => () => db.prepare('INSERT INTO item (name, parent_id) VALUES (?, ?)').run(name, parentId);
const committedNames = () => other.prepare('SELECT name FROM item ORDER BY id').pluck().all();

describe('commit groups', () => {
  it('commits the writes of one turn of the event loop together, once the turn ends', async () => {
    const writes = [groups.run(add('a')), groups.run(add('b')), groups.run(add('c'))];
    // All three in one open transaction: nothing is visible to another connection yet.
    expect(db.inTransaction).toBe(true);
    expect(committedNames()).toEqual([]);
    await Promise.all(writes);
    expect(db.inTransaction).toBe(false);
    expect(committedNames()).toEqual(['a', 'b', 'c']);
    // A write in a later turn begins a group of its own.
    await groups.run(add('d'));
    expect(committedNames()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('rolls back only the write that failed; the others of its group are kept', async () => {
    const failing = groups.run(() => {
      add('half-written')();
      throw new Error('refused');
    });
    const kept = [groups.run(add('before')), groups.run(add('after'))];
    await expect(failing).rejects.toThrow('refused');
    await Promise.all(kept);
    expect(committedNames()).toEqual(['before', 'after']);
  });

  it('rejects every write of a group whose commit fails, and keeps none of them', async () => {
    // A deferred foreign key is checked at COMMIT: the one kind of failure a commit can be made to have here.
    const writes = [groups.run(add('fine')), groups.run(add('orphan', 99))];
    const pending = groups.pending();
    for (const write of writes) await expect(write).rejects.toBeInstanceOf(CommitFailedError);
    await expect(pending).rejects.toBeInstanceOf(CommitFailedError);
    expect(db.inTransaction).toBe(false);
    expect(committedNames()).toEqual([]);
    // The next group starts clean.
    await groups.run(add('again'));
    expect(committedNames()).toEqual(['again']);
  });

  it('lets a write that joins without waiting be committed with its group, and flush commits at once', async () => {
    expect(groups.join(add('settled')).changes).toBe(1);
    expect(groups.pending()).not.toBeNull();
    groups.flush();
    expect(groups.pending()).toBeNull();
    expect(committedNames()).toEqual(['settled']);
  });

  it('runs inside a transaction someone else holds as part of it, leaving the commit to them', async () => {
    db.prepare('BEGIN').run();
    const inside = groups.run(add('inner'));
    expect(groups.pending()).toBeNull();
    await inside;
    expect(committedNames()).toEqual([]);
    db.prepare('COMMIT').run();
    expect(committedNames()).toEqual(['inner']);
  });
});
