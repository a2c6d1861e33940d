import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HUB_WRITE_LOCK, PostgresDatabase } from '../../electron/engine/db/postgres/database.js';
import { DatabaseUnavailableError } from '../../electron/engine/db/postgresBridge.js';
import { CommitGroups } from '../../electron/engine/db/commitGroups.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * A transaction never waits for a row lock while it holds the hub's write
 * lock (docs/design/postgres-hub.md, "Row locks and the write lock"): on a
 * real cluster, another session holds a row and then, still holding it, takes
 * the write lock itself. Had the engine's transaction kept the write lock
 * while it waited for the row, the two would deadlock (PostgreSQL ends one,
 * 40P01); instead the transaction lets the write lock go between its tries,
 * the other session gets it, commits, and the transaction completes after.
 * Past the connection's lock_timeout it fails as unavailable (55P03), nothing
 * of it kept. Both for an outermost transaction (tried again by
 * PostgresDatabase) and for a write of the group commit (by CommitGroups).
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL row lock retry tests skipped: ${missing}`);

const LOCK_TIMEOUT_MS = 1_500;

describe.skipIf(missing !== null)('a transaction that finds a row locked', () => {
  let cluster: PostgresCluster;
  let db: PostgresDatabase;
  let other: pg.Client;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    db = new PostgresDatabase(cluster.url, { bridge: { lockTimeoutMs: LOCK_TIMEOUT_MS } });
    db.exec(`CREATE TABLE contacts (id bigint PRIMARY KEY, name text NOT NULL);
      INSERT INTO contacts VALUES (1, 'Ada'), (2, 'Grace')`);
    other = new pg.Client({ connectionString: cluster.url });
    await other.connect();
  });
  afterAll(async () => {
    await other?.end();
    await db?.close();
    cluster?.stop();
  });

  /**
   * The other session, in one message sent now and run by the server while this thread waits on the engine's
   * synchronous connection: hold contact 1, after `beforeWriteLockMs` take the write lock too, hold both `thenMs`, commit.
   */
  function holdRowThenWriteLock(beforeWriteLockMs: number, thenMs: number): Promise<unknown> {
    return other.query(`BEGIN; SELECT id FROM contacts WHERE id = 1 FOR UPDATE; SELECT pg_sleep(${beforeWriteLockMs / 1000});
      SELECT pg_advisory_xact_lock(${HUB_WRITE_LOCK}); SELECT pg_sleep(${thenMs / 1000}); UPDATE contacts SET name = name || ' (held)' WHERE id = 1; COMMIT`);
  }

  async function untilRowHeld(): Promise<void> {
    for (let i = 0; i < 200; i++) {
      const held = db.prepare("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'BEGIN; SELECT id FROM contacts%' AND pid <> pg_backend_pid()").pluck().get() as number;
      if (held > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    throw new Error('The other session never took the row.');
  }

  const nameOf = (id: number) => db.prepare('SELECT name FROM contacts WHERE id = ?').pluck().get(id);

  it('lets the write lock go while it waits, so another session may take it, and completes once the row is free', async () => {
    const holder = holdRowThenWriteLock(300, 300);
    await untilRowHeld();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    const rename = db.transaction((name: string) => db.prepare('UPDATE contacts SET name = ? WHERE id = 1').run(name).changes);
    expect(rename('Ada Lovelace')).toBe(1);
    expect(performance.now() - started).toBeGreaterThanOrEqual(400);
    await expect(holder).resolves.toBeDefined();
    // The other session committed first (its change is under this one), then this one.
    expect(nameOf(1)).toBe('Ada Lovelace');
  });

  it('does the same for a write of the group commit, the rest of its group committed meanwhile', async () => {
    const groups = new CommitGroups(db);
    const holder = holdRowThenWriteLock(300, 300);
    await untilRowHeld();
    await new Promise((resolve) => setTimeout(resolve, 50));
    // One group: a write to another row first, then the one that finds its row locked, whose try ends the group
    // (committing the first write at once) before it pauses.
    const beside = groups.run(() => db.prepare('UPDATE contacts SET name = ? WHERE id = 2').run('Grace Hopper').changes);
    const waiting = groups.run(() => db.prepare('UPDATE contacts SET name = ? WHERE id = 1').run('Ada, grouped').changes);
    expect(groups.pending()).toBeNull();
    expect(nameOf(2)).toBe('Grace Hopper');
    await expect(beside).resolves.toBe(1);
    await expect(waiting).resolves.toBe(1);
    await expect(holder).resolves.toBeDefined();
    expect(nameOf(1)).toBe('Ada, grouped');
    expect(nameOf(2)).toBe('Grace Hopper');
  });

  it('fails as unavailable (55P03) once lock_timeout has passed since its first try, nothing of it kept', async () => {
    const holder = other.query(`BEGIN; SELECT id FROM contacts WHERE id = 1 FOR UPDATE; SELECT pg_sleep(${(LOCK_TIMEOUT_MS + 1_500) / 1000}); COMMIT`);
    await untilRowHeld();
    await new Promise((resolve) => setTimeout(resolve, 50));
    const started = performance.now();
    let failure: unknown;
    try {
      db.transaction(() => {
        db.prepare("UPDATE contacts SET name = 'Grace, never' WHERE id = 2").run();
        db.prepare("UPDATE contacts SET name = 'Ada, never' WHERE id = 1").run();
      })();
    } catch (err) {
      failure = err;
    }
    const waited = performance.now() - started;
    expect(failure).toBeInstanceOf(DatabaseUnavailableError);
    expect((failure as DatabaseUnavailableError).code).toBe('55P03');
    expect(waited).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 50);
    expect(waited).toBeLessThan(LOCK_TIMEOUT_MS + 1_000);
    expect(db.inTransaction).toBe(false);
    await holder;
    expect(nameOf(1)).toBe('Ada, grouped');
    expect(nameOf(2)).toBe('Grace Hopper');
  });
});
