import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresBridge, PostgresError } from '../../electron/engine/db/postgresBridge.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * The synchronous PostgreSQL bridge (docs/design/postgres-hub.md, phase 1)
 * against a real throwaway cluster: statements answered synchronously, with
 * parameters, errors with their SQLSTATE, and the connection's transactions.
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL bridge tests skipped: ${missing}`);

describe.skipIf(missing !== null)('the synchronous PostgreSQL bridge', () => {
  let cluster: PostgresCluster;
  let db: PostgresBridge;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    db = new PostgresBridge(cluster.url);
    db.query('CREATE TABLE contacts (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE, owner_id integer)');
  });
  afterAll(async () => {
    await db?.close();
    cluster?.stop();
  });

  it('answers a statement before the next line runs, with its parameters and rows', () => {
    const inserted = db.query<{ id: string }>('INSERT INTO contacts (name, owner_id) VALUES ($1, $2), ($3, $4) RETURNING id', ['Ada', 1, 'Grace', 2]);
    expect(inserted.rowCount).toBe(2);
    const rows = db.query('SELECT name, owner_id FROM contacts WHERE owner_id = ANY($1) ORDER BY id', [[1, 2]]).rows;
    expect(rows).toEqual([{ name: 'Ada', owner_id: 1 }, { name: 'Grace', owner_id: 2 }]);
    // Seen by another connection at once: the insert was committed (autocommit) when query returned.
    expect(cluster.sql('SELECT count(*) FROM contacts')).toBe('2');
  });

  it('throws PostgreSQL\'s refusal with its SQLSTATE, and goes on answering', () => {
    let refusal: unknown;
    try {
      db.query('INSERT INTO contacts (name) VALUES ($1)', ['Ada']);
    } catch (err) {
      refusal = err;
    }
    expect(refusal).toBeInstanceOf(PostgresError);
    expect((refusal as PostgresError).code).toBe('23505');
    expect(db.query('SELECT 1 AS one').rows).toEqual([{ one: 1 }]);
  });

  it('keeps a transaction on its connection: rolled back, nothing of it stays', () => {
    db.query('BEGIN');
    db.query('INSERT INTO contacts (name) VALUES ($1)', ['Linus']);
    expect(db.query('SELECT count(*)::int AS n FROM contacts').rows[0]).toEqual({ n: 3 });
    expect(cluster.sql('SELECT count(*) FROM contacts')).toBe('2'); // not yet visible to others
    db.query('ROLLBACK');
    expect(db.query('SELECT count(*)::int AS n FROM contacts').rows[0]).toEqual({ n: 2 });
  });

  it('answers a thousand statements in a row, in order', () => {
    for (let i = 0; i < 1000; i++) expect(db.query('SELECT $1::int AS i', [i]).rows[0]).toEqual({ i });
  });

  it('never hands a statement the late answer of one that gave up waiting', async () => {
    const impatient = new PostgresBridge(cluster.url, 300);
    try {
      impatient.query('SELECT 1'); // connected
      expect(() => impatient.query('SELECT pg_sleep(0.6) AS slept')).toThrow(/did not answer within 300 ms/);
      // The sleep's answer arrives meanwhile and waits on the port: the next statement must not take it for its own.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(impatient.query('SELECT $1::int AS mine', [8]).rows).toEqual([{ mine: 8 }]);
    } finally {
      await impatient.close();
    }
  });
});
