import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDb } from '../../electron/engine/db/database.js';
import { withRollbackJournal } from '../../electron/engine/db/rollbackJournal.js';

/** A seed's bulk load with a rollback journal on a real SQLite file: only while nothing else has it open, and WAL mode after. */
const dirs: string[] = [];
const open: { close(): unknown }[] = [];

function database(): { db: SqliteDb; file: string } {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-journal-'));
  dirs.push(dir);
  const file = join(dir, 'outpost.sqlite');
  const db = openDatabase(file);
  open.push(db);
  db.exec('CREATE TABLE seeded (id INTEGER PRIMARY KEY, content TEXT)');
  return { db, file };
}

afterEach(() => {
  open.splice(0).forEach((c) => c.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const journal = (db: SqliteDb) => db.pragma('journal_mode', { simple: true });
const insertTask = (db: SqliteDb, id: number) => db.prepare("INSERT INTO seeded (id, content) VALUES (?, 'Seeded')").run(id);

describe('a bulk load with a rollback journal', () => {
  it('writes with a rollback journal when it is the only connection, and leaves the file in WAL mode', () => {
    const { db, file } = database();
    const during = withRollbackJournal(db, () => {
      db.transaction(() => insertTask(db, 1))();
      return journal(db);
    });
    expect(during).toBe('delete');
    expect(journal(db)).toBe('wal');
    db.close();
    const reader = new Database(file, { readonly: true });
    open.push(reader);
    expect(reader.prepare('SELECT content FROM seeded WHERE id = 1').pluck().get()).toBe('Seeded');
  });

  it('stays in WAL mode, without waiting for it, while another connection has the file open', () => {
    const { db, file } = database();
    const hub = new Database(file);
    open.push(hub);
    hub.prepare('SELECT count(*) FROM seeded').get();
    const during = withRollbackJournal(db, () => {
      db.transaction(() => insertTask(db, 2))();
      return journal(db);
    });
    expect(during).toBe('wal');
    expect(hub.prepare('SELECT count(*) FROM seeded WHERE id = 2').pluck().get()).toBe(1);
    // The busy timeout the engine set is back.
    expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
  });

  it('goes back to WAL mode when the load fails, its transaction rolled back', () => {
    const { db } = database();
    expect(() => withRollbackJournal(db, () => db.transaction(() => {
      insertTask(db, 3);
      throw new Error('the seed failed');
    })())).toThrow('the seed failed');
    expect(journal(db)).toBe('wal');
    expect(db.prepare('SELECT count(*) FROM seeded').pluck().get()).toBe(0);
  });
});
