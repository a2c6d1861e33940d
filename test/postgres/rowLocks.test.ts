import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, serve, tempDir, type Served } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';
import { hubDatabase } from '../support/postgresHubDatabase.js';

/**
 * A request waiting on a row lock delays only itself (docs/hub.md, "When a
 * record is locked"; docs/design/postgres-hub.md, "Row locks and the write
 * lock"). Two real `outpost serve` nodes on one throwaway cluster; another
 * session (as an operator's psql would) holds `SELECT … FOR UPDATE` on one
 * contact, and a PUT to that contact through node A waits. Meanwhile writes
 * to other contacts and reads, through both nodes, answer at once; the PUT
 * completes when the lock goes, its change kept once. A lock held past the
 * node's lock_timeout (OUTPOST_PG_LOCK_TIMEOUT_MS) ends the wait with 503 and
 * Retry-After in the error envelope, nothing written.
 *
 * Before the change, every write on either node queued on the hub's write
 * lock behind the waiting PUT (which held it while it waited), and with both
 * of a node's engine workers so stuck, its reads queued too: 5.6 s of a 6 s lock.
 */
const missing = whyNoPostgres();
if (missing) console.log(`Row lock PostgreSQL tests skipped: ${missing}`);

/** The nodes' lock_timeout: how long a request may wait for a lock in all (the limit of the second test). */
const LOCK_TIMEOUT_MS = 6_000;
/** How long the first test's lock is held: under the limit. */
const HELD_MS = 4_000;
/**
 * The issue's promise is an answer within 1 s while a request waits; on this 2-core machine shared with
 * PostgreSQL, two nodes and other engineers' test runs, each answer is allowed 1.5 s (the fault took 4–6 s).
 */
const PROMPT_MS = 1_500;

interface Answer {
  status: number;
  body: any;
  text: string;
  retryAfter: string | null;
  ms: number;
}

describe.skipIf(missing !== null)('a row lock held by another session on a two-node PostgreSQL hub', { timeout: 120_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  let nodes: Served[];
  let token: string;
  let locked: number;
  let others: number[];
  /** The test's own session, for looking at the database. */
  let probe: pg.Client;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    ({ url, token } = await hubDatabase(cluster));
    const env = { OUTPOST_PG_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS) };
    // Two engine workers each (as by default), ready before the tests: until then a node's main thread answers everything.
    nodes = await Promise.all([serve(tempDir(), env, ['--database-url', url, '--workers', '2']), serve(tempDir(), env, ['--database-url', url, '--workers', '2'])]);
    for (const node of nodes) {
      while (!/Engine workers ready: (\d+)/.test(node.stdout())) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(/Engine workers ready: (\d+)/.exec(node.stdout())![1]).toBe('2');
    }
    const ids: number[] = [];
    for (const name of ['Locked', 'Other A', 'Other B']) {
      const answer = await call(0, 'POST', '/v2/contacts', { last_name: name });
      expect(answer.status, answer.text).toBe(200);
      ids.push(answer.body.data.id);
    }
    [locked, ...others] = ids as [number, ...number[]];
    probe = new pg.Client({ connectionString: url });
    await probe.connect();
  }, 120_000);

  afterAll(async () => {
    await probe?.end();
    cleanUp();
    cluster?.stop();
  });

  async function call(node: number, method: string, path: string, data?: unknown): Promise<Answer> {
    const started = performance.now();
    const answer = await fetch(`${nodes[node]!.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(data === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: data === undefined ? undefined : JSON.stringify({ data }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : null, text, retryAfter: answer.headers.get('retry-after'), ms: performance.now() - started };
  }

  /** Another session's transaction holding the contact's row (FOR UPDATE), as an operator's psql would. */
  async function holdRow(id: number): Promise<pg.Client> {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('SELECT * FROM contacts WHERE id = $1 FOR UPDATE', [id]);
    return holder;
  }

  /** Whether a session of the hub's is waiting for a lock (the PUT, once it reached the locked row). */
  async function someoneWaits(): Promise<boolean> {
    for (let i = 0; i < 100; i++) {
      const { rows } = await probe.query(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = 'hub' AND wait_event_type = 'Lock'`);
      if (rows[0].n > 0) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return false;
  }

  async function updates(id: number): Promise<number> {
    const { rows } = await probe.query(`SELECT count(*)::int AS n FROM change_log WHERE resource_type = 'contact' AND resource_id = $1 AND event_type = 'updated'`, [id]);
    return rows[0].n as number;
  }

  /** Writes to other contacts and reads (the locked one too: a plain read takes no row lock), through both nodes, each timed. */
  async function othersAnswerPromptly(round: number, pending: () => boolean): Promise<number> {
    let answered = 0;
    for (const node of [0, 1]) {
      const steps: [string, () => Promise<Answer>][] = [
        ['PUT another contact', () => call(node, 'PUT', `/v2/contacts/${others[node]}`, { first_name: `Round ${round}` })],
        ['GET another contact', () => call(node, 'GET', `/v2/contacts/${others[node]}`)],
        ['GET the locked contact', () => call(node, 'GET', `/v2/contacts/${locked}`)],
        ['GET the list', () => call(node, 'GET', '/v2/contacts?per_page=10')],
        ['POST a new contact', () => call(node, 'POST', '/v2/contacts', { last_name: `New ${round}.${node}` })],
      ];
      for (const [what, step] of steps) {
        const answer = await step();
        expect(answer.status, `${what} through node ${node ? 'B' : 'A'}: ${answer.text}`).toBe(200);
        expect(answer.ms, `${what} through node ${node ? 'B' : 'A'} while a PUT waits on a row lock`).toBeLessThan(PROMPT_MS);
        if (pending()) answered++;
      }
    }
    return answered;
  }

  it('lets writes to other records and reads through both nodes answer at once, and completes the waiting PUT when the lock goes', async () => {
    const before = await updates(locked);
    const holder = await holdRow(locked);
    const heldAt = performance.now();
    let done = false;
    const waiting = call(0, 'PUT', `/v2/contacts/${locked}`, { first_name: 'Waited' }).finally(() => (done = true));
    try {
      expect(await someoneWaits()).toBe(true);
      let answeredWhileWaiting = 0;
      for (let round = 0; performance.now() - heldAt < HELD_MS - 1_000; round++) answeredWhileWaiting += await othersAnswerPromptly(round, () => !done);
      expect(done, 'the PUT answered while the row was still locked').toBe(false);
      expect(answeredWhileWaiting).toBeGreaterThanOrEqual(10);
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, HELD_MS - (performance.now() - heldAt))));
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const released = performance.now();
    const put = await waiting;
    expect(put.status, put.text).toBe(200);
    expect(put.body.data.first_name).toBe('Waited');
    // It goes on at once once the lock goes (within its next try).
    expect(performance.now() - released).toBeLessThan(PROMPT_MS);
    for (const node of [0, 1]) expect((await call(node, 'GET', `/v2/contacts/${locked}`)).body.data.first_name).toBe('Waited');
    expect(await updates(locked)).toBe(before + 1);
  });

  it('keeps answering reads and other writes through a node while more writes wait on the row than it has engine workers', async () => {
    const before = await updates(locked);
    const holder = await holdRow(locked);
    const heldAt = performance.now();
    let pending = 3;
    // Three waiting PUTs through node A, which has two engine workers: each worker's thread is free while its write pauses.
    const waiting = [1, 2, 3].map((n) => call(0, 'PUT', `/v2/contacts/${locked}`, { title: `Waiter ${n}` }).finally(() => pending--));
    try {
      expect(await someoneWaits()).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (let round = 200; performance.now() - heldAt < HELD_MS - 1_000; round++) await othersAnswerPromptly(round, () => pending === 3);
      expect(pending, 'a PUT answered while the row was still locked').toBe(3);
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    const puts = await Promise.all(waiting);
    for (const put of puts) expect(put.status, put.text).toBe(200);
    expect(await updates(locked)).toBe(before + 3);
  });

  it('answers a PUT whose row stays locked past lock_timeout 503 with Retry-After in the error envelope, nothing written', async () => {
    const before = await updates(locked);
    const holder = await holdRow(locked);
    let put: Answer;
    let done = false;
    const started = performance.now();
    try {
      const waiting = call(0, 'PUT', `/v2/contacts/${locked}`, { first_name: 'Never' }).finally(() => (done = true));
      expect(await someoneWaits()).toBe(true);
      // Others still answer meanwhile.
      for (let round = 100; !done && performance.now() - started < LOCK_TIMEOUT_MS + 5_000; round++) await othersAnswerPromptly(round, () => !done);
      put = await waiting;
    } finally {
      await holder.query('ROLLBACK');
      await holder.end();
    }
    expect(put.status, put.text).toBe(503);
    expect(put.ms).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 200);
    expect(Number(put.retryAfter)).toBeGreaterThan(0);
    expect(put.body.errors[0].error.code).toBe('temporarily_unavailable');
    expect(put.body.meta.http_status).toMatch(/^503/);
    // No SQLSTATE, driver text, database address or stack (the links name the hub's own address).
    expect(put.text).not.toMatch(new RegExp(`55P03|SQLSTATE|lock timeout|canceling statement|postgres|:${cluster.port}\\b|\\bat \\w+ \\(`, 'i'));
    expect((await call(1, 'GET', `/v2/contacts/${locked}`)).body.data.first_name).toBe('Waited');
    expect(await updates(locked)).toBe(before);
  });
});
