import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseUnavailableError, PostgresBridge, PostgresError, type BridgeOptions, type PostgresConnection } from '../../electron/engine/db/postgresBridge.js';
import { libpqAvailable } from '../../electron/engine/db/libpqConnection.js';
import { openPostgresConnection, type PostgresDriver } from '../../electron/engine/db/postgresConnection.js';
import { PostgresDatabase } from '../../electron/engine/db/postgres/database.js';
import { CommitFailedError, CommitGroups } from '../../electron/engine/db/commitGroups.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * The synchronous PostgreSQL bridge (docs/design/postgres-hub.md, phase 1)
 * against a real throwaway cluster: statements answered synchronously, with
 * parameters, errors with their SQLSTATE, and the connection's transactions.
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL bridge tests skipped: ${missing}`);
// Both drivers answer alike (db/postgresConnection.ts): every test but the bridge's own runs on each.
const drivers: PostgresDriver[] = libpqAvailable() ? ['libpq', 'bridge'] : ['bridge'];
if (!libpqAvailable()) console.log('PostgreSQL connection tests run on the bridge only: the optional libpq package is not installed or did not build (it needs libpq-dev).');

describe.skipIf(missing !== null).each(drivers)('the synchronous PostgreSQL connection (%s)', (driver) => {
  let cluster: PostgresCluster;
  let db: PostgresConnection;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    db = openPostgresConnection(cluster.url, {}, driver);
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

  it('gives values as SQLite gives them to the engine: big integers and sums as numbers, booleans as 1 and 0, JSON as its text', () => {
    const row = db.query(`SELECT 9007199254740991::int8 AS id, 12.50::numeric AS total, true AS yes, false AS no, '{"a": [1]}'::json AS doc, '{"b": 2}'::jsonb AS bin`).rows[0];
    expect(row).toEqual({ id: 9007199254740991, total: 12.5, yes: 1, no: 0, doc: '{"a": [1]}', bin: '{"b": 2}' });
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

  it('gives each text with parameters a prepared statement of its own, parsed once per connection', () => {
    const text = 'SELECT name FROM contacts WHERE owner_id = $1 ORDER BY id';
    expect(db.query(text, [1]).rows).toEqual([{ name: 'Ada' }]);
    expect(db.query(text, [2]).rows).toEqual([{ name: 'Grace' }]);
    const prepared = db.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE statement = $1', [text]).rows;
    expect(prepared).toHaveLength(1);
    // Texts without parameters go unnamed: they may hold several statements.
    expect(db.query('SELECT 1 AS a; SELECT 2 AS b').rows).toEqual([{ b: 2 }]);
  });
});

describe.skipIf(missing !== null)('the bridge\'s own thread', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(() => cluster?.stop());

  it('never hands a statement the late answer of one that gave up waiting', async () => {
    const impatient = new PostgresBridge(cluster.url, { waitMs: 300 });
    try {
      // Connected first: starting its thread and connecting can take longer than 300 ms on a loaded machine.
      for (let attempt = 1; ; attempt++) {
        try {
          impatient.query('SELECT 1');
          break;
        } catch (err) {
          if (attempt === 20) throw err;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
      expect(() => impatient.query('SELECT pg_sleep(0.6) AS slept')).toThrow(/did not answer within 300 ms/);
      // The sleep's answer arrives meanwhile and waits on the port: the next statement must not take it for its own.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(impatient.query('SELECT $1::int AS mine', [8]).rows).toEqual([{ mine: 8 }]);
    } finally {
      await impatient.close();
    }
  });
});

/** Runs `body` with a connection of its own over `cluster` by `driver`, closed after. */
async function withBridge(cluster: PostgresCluster, driver: PostgresDriver, options: BridgeOptions, body: (bridge: PostgresConnection) => void | Promise<void>) {
  const bridge = openPostgresConnection(cluster.url, options, driver);
  try {
    await body(bridge);
  } finally {
    await bridge.close();
  }
}

/** The error `run` throws (it must throw). */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

/**
 * The first statement after a backend was terminated: it fails as unavailable if it
 * was sent before the worker heard of the loss, else it runs on a new connection.
 */
function afterTermination(bridge: PostgresConnection): void {
  try {
    bridge.query('SELECT 1');
  } catch (err) {
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    bridge.query('SELECT 1');
  }
}

describe.skipIf(missing !== null).each(drivers)('the connection when the database goes away (%s)', (driver) => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    cluster.sql('CREATE TABLE notes (id bigserial PRIMARY KEY, body text NOT NULL)');
  });
  afterAll(() => cluster?.stop());

  const terminate = (pid: unknown) => cluster.sql(`SELECT pg_terminate_backend(${Number(pid)})`);

  it('opens a new connection after its backend is terminated: at most one statement fails, as unavailable', async () => {
    await withBridge(cluster, driver, {}, (bridge) => {
      const pid = bridge.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0]!.pid;
      const first = bridge.connection;
      expect(terminate(pid)).toBe('t');
      let failures = 0;
      let next: number | undefined;
      for (let i = 0; i < 3; i++) {
        try {
          next = bridge.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0]!.pid;
        } catch (err) {
          expect(err).toBeInstanceOf(DatabaseUnavailableError);
          failures++;
        }
      }
      expect(failures).toBeLessThanOrEqual(1);
      expect(next).not.toBe(pid);
      expect(bridge.connection).toBe(first + 1);
    });
  });

  it('never runs the rest of a transaction on a new connection: it fails, and the next BEGIN starts afresh', async () => {
    await withBridge(cluster, driver, {}, (bridge) => {
      bridge.query('BEGIN');
      const connection = bridge.connection;
      bridge.query('INSERT INTO notes (body) VALUES ($1)', ['before'], connection);
      terminate(bridge.query<{ pid: number }>('SELECT pg_backend_pid() AS pid', [], connection).rows[0]!.pid);
      for (let i = 0; i < 2; i++) {
        const err = thrownBy(() => bridge.query('INSERT INTO notes (body) VALUES ($1)', ['after'], connection));
        expect(err).toBeInstanceOf(DatabaseUnavailableError);
      }
      // Nothing of the transaction was kept, and none of it ran outside it.
      expect(cluster.sql('SELECT count(*) FROM notes')).toBe('0');
      bridge.query('BEGIN');
      expect(bridge.connection).not.toBe(connection);
      bridge.query('INSERT INTO notes (body) VALUES ($1)', ['again'], bridge.connection);
      bridge.query('COMMIT', [], bridge.connection);
      expect(cluster.sql('SELECT body FROM notes')).toBe('again');
    });
  });

  it('sets the session timeouts on every connection, a new one too', async () => {
    await withBridge(cluster, driver, { statementTimeoutMs: 1500, lockTimeoutMs: 700, idleInTransactionTimeoutMs: 9000 }, (bridge) => {
      const show = () => bridge.query('SELECT current_setting($1) AS s, current_setting($2) AS l, current_setting($3) AS i', ['statement_timeout', 'lock_timeout', 'idle_in_transaction_session_timeout']).rows[0];
      expect(show()).toEqual({ s: '1500ms', l: '700ms', i: '9s' });
      const before = bridge.connection;
      terminate(bridge.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0]!.pid);
      afterTermination(bridge);
      expect(bridge.connection).toBe(before + 1);
      expect(show()).toEqual({ s: '1500ms', l: '700ms', i: '9s' });
    });
    await withBridge(cluster, driver, {}, (bridge) => {
      expect(bridge.query('SHOW statement_timeout').rows).toEqual([{ statement_timeout: '30s' }]);
      expect(bridge.query('SHOW lock_timeout').rows).toEqual([{ lock_timeout: '10s' }]);
      expect(bridge.query('SHOW idle_in_transaction_session_timeout').rows).toEqual([{ idle_in_transaction_session_timeout: '1min' }]);
    });
  });

  it('answers a statement cancelled by statement_timeout as unavailable, and keeps its connection', async () => {
    await withBridge(cluster, driver, { statementTimeoutMs: 200 }, (bridge) => {
      bridge.query('SELECT 1');
      const connection = bridge.connection;
      const err = thrownBy(() => bridge.query('SELECT pg_sleep(1)'));
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect((err as PostgresError).code).toBe('57014');
      expect(bridge.query('SELECT 2 AS two').rows).toEqual([{ two: 2 }]);
      expect(bridge.connection).toBe(connection);
    });
  });

  it('answers a statement that waited past lock_timeout as unavailable (55P03)', async () => {
    await withBridge(cluster, driver, { lockTimeoutMs: 200 }, async (bridge) => {
      const holder = openPostgresConnection(cluster.url, {}, driver);
      try {
        holder.query('BEGIN');
        holder.query('LOCK TABLE notes IN ACCESS EXCLUSIVE MODE', [], holder.connection);
        const err = thrownBy(() => bridge.query('SELECT count(*) FROM notes'));
        expect(err).toBeInstanceOf(DatabaseUnavailableError);
        expect((err as PostgresError).code).toBe('55P03');
        holder.query('ROLLBACK', [], holder.connection);
        expect(bridge.query('SELECT count(*)::int AS n FROM notes').rows).toEqual([{ n: 1 }]);
      } finally {
        await holder.close();
      }
    });
  });

  it('answers unavailable at once when no database listens, and connects once one does', async () => {
    const nowhere = openPostgresConnection('postgres://outpost@127.0.0.1:1/postgres', { connectTimeoutMs: 500 }, driver);
    try {
      const started = performance.now();
      const err = thrownBy(() => nowhere.query('SELECT 1'));
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect((err as PostgresError).code).toBe('ECONNREFUSED');
      expect(performance.now() - started).toBeLessThan(2000);
    } finally {
      await nowhere.close();
    }
  });

  it('prepares statements again on a new connection, and keeps at most its cap of them', async () => {
    await withBridge(cluster, driver, { maxNamedStatements: 2 }, (bridge) => {
      const prepared = () => bridge.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements WHERE statement LIKE $1 ORDER BY 1', ['SELECT $1::int + %']).rows.map((row) => row.statement);
      bridge.query('SELECT $1::int + 1 AS n', [1]);
      bridge.query('SELECT $1::int + 2 AS n', [1]);
      bridge.query('SELECT $1::int + 3 AS n', [1]);
      // Two kept (the third and the listing's own text): the others were deallocated as they were evicted.
      expect(prepared()).toEqual(['SELECT $1::int + 3 AS n']);
      bridge.query('SELECT $1::int + 1 AS n', [1]);
      expect(prepared()).toEqual(['SELECT $1::int + 1 AS n']);
      const before = bridge.connection;
      terminate(bridge.query<{ pid: number }>('SELECT pg_backend_pid() AS pid').rows[0]!.pid);
      afterTermination(bridge);
      expect(bridge.connection).toBe(before + 1);
      // The new connection has none until a text runs on it, and then prepares it again.
      expect(prepared()).toEqual([]);
      expect(bridge.query('SELECT $1::int + 1 AS n', [1]).rows).toEqual([{ n: 2 }]);
      expect(prepared()).toEqual(['SELECT $1::int + 1 AS n']);
    });
  });

  it('ends the engine\'s transaction cleanly when its connection is lost, and the next one works', async () => {
    const db = new PostgresDatabase(cluster.url, { driver });
    try {
      cluster.sql('TRUNCATE notes');
      const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
      const err = thrownBy(() => db.transaction(() => {
        insert.run('one');
        db.transaction(() => {
          terminate(db.query('SELECT pg_backend_pid() AS pid').rows[0]!.pid);
          insert.run('two');
        })();
      })());
      expect(err).toBeInstanceOf(DatabaseUnavailableError);
      expect(db.inTransaction).toBe(false);
      db.transaction(() => insert.run('three'))();
      expect(cluster.sql('SELECT string_agg(body, \',\') FROM notes')).toBe('three');
    } finally {
      await db.close();
    }
  });

  it('fails a group commit whose connection was lost, with nothing kept, and the next group commits', async () => {
    const db = new PostgresDatabase(cluster.url, { driver });
    try {
      cluster.sql('TRUNCATE notes');
      const commits = new CommitGroups(db);
      const insert = db.prepare('INSERT INTO notes (body) VALUES (?)');
      const lost = commits.run(() => insert.run('lost'));
      terminate(db.query('SELECT pg_backend_pid() AS pid').rows[0]!.pid);
      await expect(lost).rejects.toBeInstanceOf(CommitFailedError);
      expect(db.inTransaction).toBe(false);
      await commits.run(() => insert.run('kept'));
      expect(cluster.sql('SELECT string_agg(body, \',\') FROM notes')).toBe('kept');
    } finally {
      await db.close();
    }
  });
});
