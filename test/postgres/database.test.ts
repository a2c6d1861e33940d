import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compile, HUB_WRITE_LOCK, PostgresDatabase } from '../../electron/engine/db/postgres/database.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * better-sqlite3's interface as the engine uses it, over PostgreSQL
 * (docs/design/postgres-hub.md, phase 2's seam), on a real throwaway cluster:
 * statements with SQLite's placeholders, plucked values, transactions with
 * savepoints, and the one write lock that keeps hub nodes' writes in order.
 */
describe('placeholders as PostgreSQL writes them', () => {
  it('numbers ? and @name in order, a name used twice keeping its number', () => {
    expect(compile('SELECT * FROM t WHERE a = ? AND b IN (?, ?)')).toEqual({ text: 'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3)', slots: [0, 1, 2] });
    // A ? inside quoted text or a quoted name is left alone.
    expect(compile(`SELECT '?', 'it''s ?', "odd?name" FROM t WHERE a = ?`)).toEqual({ text: `SELECT '?', 'it''s ?', "odd?name" FROM t WHERE a = $1`, slots: [0] });
    expect(compile(`UPDATE t SET name = @name, note = '@nope' WHERE id = @id OR parent = @id`)).toEqual({ text: `UPDATE t SET name = $1, note = '@nope' WHERE id = $2 OR parent = $2`, slots: ['name', 'id'] });
    // Both kinds in one statement, as SQLite allows; now_utc() is the engine's clock, one parameter more.
    expect(compile('INSERT INTO d (u, k, at, seen) VALUES (?, ?, @now, @now) RETURNING now_utc()')).toEqual({
      text: 'INSERT INTO d (u, k, at, seen) VALUES ($1, $2, $3, $3) RETURNING CAST($4 AS text)', slots: [0, 1, 'now'], now: true,
    });
  });
});

const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL database tests skipped: ${missing}`);

describe.skipIf(missing !== null)('PostgresDatabase', () => {
  let cluster: PostgresCluster;
  let db: PostgresDatabase;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    db = new PostgresDatabase(cluster.url);
    db.exec(`CREATE TABLE change_log (revision bigserial PRIMARY KEY, resource_type text NOT NULL, resource_id bigint NOT NULL);
      CREATE TABLE contacts (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, owner_id bigint)`);
  });
  afterAll(async () => {
    await db?.close();
    cluster?.stop();
  });
  const count = () => db.prepare('SELECT count(*) FROM contacts').pluck().get();

  it('reads and writes with the engine\'s placeholders, ids and counts as numbers', () => {
    const insert = db.prepare('INSERT INTO contacts (name, owner_id) VALUES (?, ?) RETURNING id');
    const first = insert.run('Ada', 1);
    expect(first).toEqual({ changes: 1, lastInsertRowid: 1 });
    expect(insert.run(['Grace', 2]).lastInsertRowid).toBe(2);
    expect(db.prepare('INSERT INTO contacts (name, owner_id) VALUES (@name, @owner) RETURNING id').run({ name: 'Linus', owner: 2 }).lastInsertRowid).toBe(3);
    expect(db.prepare('SELECT name, owner_id FROM contacts WHERE owner_id = ? ORDER BY id').all(2)).toEqual([{ name: 'Grace', owner_id: 2 }, { name: 'Linus', owner_id: 2 }]);
    expect(db.prepare('SELECT name FROM contacts WHERE id = ?').pluck().get(1)).toBe('Ada');
    expect(db.prepare('SELECT name FROM contacts WHERE id = ?').get(99)).toBeUndefined();
    expect(count()).toBe(3);
    expect(db.prepare('UPDATE contacts SET owner_id = 3 WHERE owner_id = ?').run(2).changes).toBe(2);
  });

  it('commits a transaction that returns, and rolls back one that throws, with nothing of it left', () => {
    const add = db.transaction((name: string) => db.prepare('INSERT INTO contacts (name) VALUES (?)').run(name));
    add('Margaret');
    expect(count()).toBe(4);
    const failing = db.transaction(() => {
      db.prepare('INSERT INTO contacts (name) VALUES (?)').run('Barbara');
      db.prepare('INSERT INTO contacts (name) VALUES (?)').run('Ada'); // taken: 23505
    });
    expect(() => failing()).toThrow(/duplicate key/);
    expect(count()).toBe(4);
    expect(db.inTransaction).toBe(false);
  });

  it('runs a transaction inside another in a savepoint: its failure undoes only its own writes', () => {
    const inner = db.transaction(() => {
      db.prepare('INSERT INTO contacts (name) VALUES (?)').run('Inner');
      throw new Error('inner fails');
    });
    const outer = db.transaction(() => {
      db.prepare('INSERT INTO contacts (name) VALUES (?)').run('Outer');
      expect(() => inner()).toThrow('inner fails');
    });
    outer();
    expect(db.prepare("SELECT name FROM contacts WHERE name IN ('Inner', 'Outer')").pluck().all()).toEqual(['Outer']);
  });

  it('holds the hub\'s write lock through every transaction, so another node\'s write waits for it', () => {
    const probe = `SET lock_timeout = '300ms'; BEGIN; SELECT pg_advisory_xact_lock(${HUB_WRITE_LOCK}); INSERT INTO change_log (resource_type, resource_id) VALUES ('contact', 2); COMMIT;`;
    const write = db.transaction(() => {
      db.prepare('INSERT INTO change_log (resource_type, resource_id) VALUES (?, ?)').run('contact', 1);
      // Another node (psql, its own connection) cannot take the lock, so cannot commit a later revision first.
      expect(() => cluster.sql(probe)).toThrow(/lock timeout/);
    });
    write.immediate();
    cluster.sql(probe); // free again once committed
    expect(db.prepare('SELECT resource_id FROM change_log ORDER BY revision').pluck().all()).toEqual([1, 2]);
    // However it is called: a plain transaction takes it too (a read-then-write must not race another node).
    db.transaction(() => expect(cluster.sql(`SELECT pg_try_advisory_lock(${HUB_WRITE_LOCK})`)).toBe('f'))();
    // Statements outside a transaction never wait for it.
    expect(cluster.sql(`SELECT pg_try_advisory_lock(${HUB_WRITE_LOCK})`)).toBe('t');
  });
});
