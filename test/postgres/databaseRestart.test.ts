import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, serve, tempDir, type Served } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';
import { hubDatabase } from '../support/postgresHubDatabase.js';

/**
 * PostgreSQL hub nodes while their database restarts: real `outpost serve`
 * processes (one per driver: the libpq binding and the node-postgres
 * bridge) over a real throwaway cluster, which the test stops and starts.
 * During the outage every answer is a 503 with Retry-After in the error
 * envelope (OAuth's shape on /oauth2), telling nothing of the server's
 * insides (no SQLSTATE, address, port, driver or stack); a POST whose
 * Idempotency-Key got such a 503 leaves no claim behind, so the client's
 * retry once the database is back creates the record exactly once, and the
 * same key replays that answer after.
 */
const missing = whyNoPostgres();
if (missing) console.log(`database restart tests skipped: ${missing}`);

interface Answer {
  status: number;
  text: string;
  body: any;
  retryAfter: string | null;
  replayed: string | null;
}

describe.skipIf(missing !== null)('PostgreSQL hub nodes while the database restarts', { timeout: 180_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  const nodes: Record<string, Served> = {};
  let token: string;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    ({ url, token } = await hubDatabase(cluster));
    const env = { OUTPOST_PG_CONNECT_TIMEOUT_MS: '1000' };
    // The rate limit on: its shared count is in the database too.
    nodes.libpq = await serve(tempDir(), { ...env, OUTPOST_PG_DRIVER: 'libpq' }, ['--database-url', url, '--rate-limit', '100000']);
    nodes.bridge = await serve(tempDir(), { ...env, OUTPOST_PG_DRIVER: 'bridge' }, ['--database-url', url, '--rate-limit', '100000']);
  });

  afterAll(() => {
    cleanUp();
    cluster?.stop();
  });

  async function call(node: Served, method: string, path: string, data?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const answer = await fetch(`${node.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(data === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: data === undefined ? undefined : JSON.stringify({ data }),
    });
    const text = await answer.text();
    let body: unknown = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = text;
    }
    return { status: answer.status, text, body, retryAfter: answer.headers.get('retry-after'), replayed: answer.headers.get('idempotent-replayed') };
  }

  /** Nothing of the server's insides: no SQLSTATE, address, port, driver or stack. */
  function expectNoInternals(answer: Answer, what: string): void {
    // The node's own links and the request's id are no internals (the links name the node's address).
    const told = answer.text.replace(/"(more_info|logref)":"[^"]*"/g, '');
    expect(told, what).not.toMatch(/\b[0-9][0-9A-Z]{4}\b/);
    expect(told, what).not.toContain('127.0.0.1');
    expect(told, what).not.toContain(String(cluster.port));
    expect(told, what).not.toMatch(/ECONNREFUSED|ECONNRESET|ETIMEDOUT|\bpg\b|libpq|postgres|SQLSTATE|socket|\bat \w+ \(|\.[cm]?[jt]s:\d+/i);
  }

  /** 503 temporarily_unavailable with Retry-After in the API's error envelope. */
  function expectUnavailable(answer: Answer, what: string): void {
    expect(answer.status, `${what}: ${answer.text}`).toBe(503);
    expect(Number(answer.retryAfter), `${what}: Retry-After`).toBeGreaterThan(0);
    expect(answer.body.errors, `${what}: ${answer.text}`).toHaveLength(1);
    expect(answer.body.errors[0].error.code).toBe('temporarily_unavailable');
    expect(answer.body.meta.http_status).toMatch(/^503/);
    expectNoInternals(answer, what);
  }



  /** Sends a request until it is answered otherwise than 503 (each 503 as the outage's), for at most 10 s after the database is back. */
  async function onceBack(send: () => Promise<Answer>, what: string): Promise<Answer> {
    const back = performance.now();
    let answer = await send();
    while (answer.status === 503 && performance.now() - back < 10_000) {
      expectUnavailable(answer, `${what} as the database comes back`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      answer = await send();
    }
    return answer;
  }

  /** Until a statement of a node waits for a lock (its write, behind the holder's). */
  async function untilWaitingOnLock(): Promise<void> {
    const watcher = new pg.Client({ connectionString: url });
    await watcher.connect();
    try {
      for (let tries = 0; tries < 200; tries++) {
        const waiting = await watcher.query(`SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'hub' AND wait_event_type = 'Lock'`);
        if (Number(waiting.rows[0].n) > 0) return;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const seen = await watcher.query(`SELECT pid, state, wait_event_type, wait_event, left(query, 120) AS query FROM pg_stat_activity WHERE datname = 'hub'`);
      throw new Error(`No write came to wait on the lock: ${JSON.stringify(seen.rows)}`);
    } finally {
      await watcher.end();
    }
  }

  async function count(where: string, values: unknown[]): Promise<number> {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return Number((await client.query(`SELECT count(*) AS n FROM contacts WHERE ${where}`, values)).rows[0].n);
    } finally {
      await client.end();
    }
  }
  const countNamed = (lastName: string) => count('last_name = $1', [lastName]);

  it('answers 503 in the envelope with nothing of its insides while the database is down, and a failed key runs exactly once after', async () => {
    const before: Record<string, number> = {};
    for (const [name, node] of Object.entries(nodes)) {
      const made = await call(node, 'POST', '/v2/contacts', { last_name: `Before ${name}` });
      expect(made.status, made.text).toBe(200);
      before[name] = made.body.data.id;
    }
    const start = cluster.pause();
    try {
      for (const [name, node] of Object.entries(nodes)) {
        // Twice each: the first finds the connection lost, the second finds no database to connect to.
        for (let round = 0; round < 2; round++) {
          const what = (request: string) => `${name}, round ${round}: ${request}`;
          expectUnavailable(await call(node, 'GET', `/v2/contacts/${before[name]}`), what('a read'));
          expectUnavailable(await call(node, 'GET', '/v2/contacts?per_page=5'), what('a list'));
          expectUnavailable(await call(node, 'PUT', `/v2/contacts/${before[name]}`, { first_name: 'Changed' }), what('an update'));
          expectUnavailable(await call(node, 'POST', '/v2/contacts', { last_name: `Keyed ${name}` }, { 'Idempotency-Key': `restart-${name}` }), what('a create with a key'));
          expectUnavailable(await call(node, 'POST', '/v2/contacts', { last_name: `Unkeyed ${name}` }), what('a create without a key'));
          // The custom-objects interface answers in its own shape.
          const support = await call(node, 'GET', '/api/v2/users/me');
          expect(support.status, what(`the custom-objects interface: ${support.text}`)).toBe(503);
          expect(Number(support.retryAfter)).toBeGreaterThan(0);
          expect(support.body).toMatchObject({ error: 'ServiceUnavailable' });
          expectNoInternals(support, what('the custom-objects interface'));
          const grant = await fetch(`${node.url}/oauth2/token`, {
            method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
            body: 'grant_type=password&client_id=outpost-web&username=boss%40example.com&password=boss-password-1',
          });
          const grantText = await grant.text();
          expect(grant.status, what(`a token grant: ${grantText}`)).toBe(503);
          expect(Number(grant.headers.get('retry-after')), what('a token grant: Retry-After')).toBeGreaterThan(0);
          expect(JSON.parse(grantText)).toMatchObject({ error: 'temporarily_unavailable' });
          expectNoInternals({ status: grant.status, text: grantText, body: null, retryAfter: null, replayed: null }, what('a token grant'));
        }
      }
    } finally {
      start();
    }

    for (const [name, node] of Object.entries(nodes)) {
      // Back within seconds; the key whose request failed was released, so the retry runs (once), never a 409.
      const created = await onceBack(() => call(node, 'POST', '/v2/contacts', { last_name: `Keyed ${name}` }, { 'Idempotency-Key': `restart-${name}` }), `${name}: a retry`);
      expect(created.status, `${name}: ${created.text}`).toBe(200);
      expect(created.replayed).toBeNull();
      const replay = await call(node, 'POST', '/v2/contacts', { last_name: `Keyed ${name}` }, { 'Idempotency-Key': `restart-${name}` });
      expect(replay.status, replay.text).toBe(200);
      expect(replay.replayed).toBe('true');
      expect(replay.body.data.id).toBe(created.body.data.id);
      expect(await countNamed(`Keyed ${name}`)).toBe(1);
      expect(await countNamed(`Unkeyed ${name}`)).toBe(0);
      expect(await count("id = $1 AND first_name = 'Changed'", [before[name]])).toBe(0);
    }
  });

  it('releases the key of a write that was waiting when the database went down, so its retry runs once, on the same node or another', async () => {
    const names = Object.keys(nodes);
    for (const [index, name] of names.entries()) {
      const node = nodes[name]!;
      const other = nodes[names[(index + 1) % names.length]!]!;
      const key = `in-flight-${name}`;
      const lastName = `In flight ${name}`;
      // Another session holds the contacts table: the keyed create claims its key, then waits on the lock.
      const holder = new pg.Client({ connectionString: url });
      holder.on('error', () => undefined);
      await holder.connect();
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE');
      const pending = call(node, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key });
      await untilWaitingOnLock().catch(async (err) => {
        await holder.end();
        throw err;
      });
      const start = cluster.pause();
      try {
        // Its session ended under it: the write rolled back, and the release of its key failed, the database being gone.
        expectUnavailable(await pending, `${name}: a create waiting when the database went down`);
        expectUnavailable(await call(node, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key }), `${name}: its retry while down`);
      } finally {
        start();
        await holder.end().catch(() => undefined);
      }
      // The same node releases the key first thing once the database answers: its retry runs, never a 409.
      const created = await onceBack(() => call(node, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key }), `${name}: a retry`);
      expect(created.status, `${name}: ${created.text}`).toBe(200);
      expect(created.replayed).toBeNull();
      // The other node replays it (its own connection lost in the restart may cost it one 503 first).
      const replay = await onceBack(() => call(other, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key }), `${name}: a replay on the other node`);
      expect(replay.status, replay.text).toBe(200);
      expect(replay.replayed).toBe('true');
      expect(replay.body.data.id).toBe(created.body.data.id);
      expect(await countNamed(lastName)).toBe(1);
    }
  });

  it('releases such a key for a retry sent to another node too, within seconds of the database\'s return', async () => {
    const [first, second] = [nodes.libpq!, nodes.bridge!];
    const key = 'in-flight-elsewhere';
    const lastName = 'In flight elsewhere';
    const holder = new pg.Client({ connectionString: url });
    holder.on('error', () => undefined);
    await holder.connect();
    await holder.query('BEGIN');
    await holder.query('LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE');
    const pending = call(first, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key });
    await untilWaitingOnLock().catch(async (err) => {
      await holder.end();
      throw err;
    });
    const start = cluster.pause();
    try {
      expectUnavailable(await pending, 'a create waiting when the database went down');
    } finally {
      start();
      await holder.end().catch(() => undefined);
    }
    // The first node is not asked again: its timer releases the key, and the other node's retry runs once.
    const back = performance.now();
    const seen: number[] = [];
    let created = await call(second, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key });
    while ((created.status === 503 || created.status === 409) && performance.now() - back < 10_000) {
      seen.push(created.status);
      expect(Number(created.retryAfter)).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 200));
      created = await call(second, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key });
    }
    console.log(`database restart: the other node's retry answered ${seen.join(', ') || 'nothing'} before 200, ${(performance.now() - back).toFixed(0)} ms after the database was back`);
    expect(created.status, created.text).toBe(200);
    expect(performance.now() - back).toBeLessThan(10_000);
    expect(await countNamed(lastName)).toBe(1);
    const replay = await onceBack(() => call(first, 'POST', '/v2/contacts', { last_name: lastName }, { 'Idempotency-Key': key }), 'a replay on the first node');
    expect(replay.replayed).toBe('true');
    expect(replay.body.data.id).toBe(created.body.data.id);
  });

  it('logs what the database said, which the answers leave out', () => {
    const logs = Object.values(nodes).map((node) => node.stdout() + node.stderr()).join('\n');
    expect(logs).toMatch(/"level":(40|50)/);
    expect(logs).toMatch(/ECONNREFUSED|Connection refused|terminat|57P01|08006|connection/i);
  });
});
