import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { libpqAvailable } from '../../electron/engine/db/libpqConnection.js';
import { cleanUp, serve, stop, tempDir, type Served } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * A PostgreSQL hub node's engine workers (http/engineWorkers.ts): a real
 * `outpost serve --database-url … --workers 2` process. A request waiting on
 * a lock holds up only itself: with one engine per node (`--workers 0`) the
 * same test fails, the second request waiting behind the first.
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL engine worker tests skipped: ${missing}`);

let cluster: PostgresCluster;
let url: string;
let engine: Engine;
let token: string;
let contactId: number;
const folders: string[] = [];

/** A node, resolved once its workers are all ready. */
async function node(workers: number): Promise<Served> {
  const served = await serve(tempDir(), {}, ['--database-url', url, '--workers', String(workers)]);
  if (workers > 0) {
    while (!/Engine workers ready: (\d+)/.test(served.stdout())) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(/Engine workers ready: (\d+)/.exec(served.stdout())![1]).toBe(String(workers));
  }
  // Where native/pqsync was built, the node and every worker run on libpq (a worker that could not load it would not be ready).
  expect(served.stdout()).toContain(`driver ${libpqAvailable() ? 'libpq' : 'bridge'}`);
  return served;
}

function call(served: Served, method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return fetch(`${served.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify({ data: body }) })
    .then(async (answer) => ({ status: answer.status, body: await answer.json() }));
}

/** Holds an exclusive lock on contacts in a transaction of its own until `release` is called. */
async function lockContacts(): Promise<{ release(): Promise<void> }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query('BEGIN');
  await client.query('LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE');
  return {
    release: async () => {
      await client.query('COMMIT');
      await client.end();
    },
  };
}

/** Whether the promise settles within `ms`. */
const settlesWithin = (promise: Promise<unknown>, ms: number) =>
  Promise.race([promise.then(() => true, () => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), ms))]);

describe.skipIf(missing !== null)('the engine workers of a PostgreSQL hub node', () => {
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    cluster.sql('CREATE DATABASE workers');
    url = cluster.url.replace(/\/postgres$/, '/workers');
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-workers-'));
    folders.push(dataDir);
    engine = openEngine({ dataDir, databaseUrl: url, runSequences: false });
    const userId = await engine.users.create({ email: 'rep@example.com', password: 'rep-secret-1', name: 'Rita Rep', role: 'admin' });
    token = engine.tokens.createPersonal(userId, ['read', 'write', 'profile']);
    contactId = engine.contacts.create({ first_name: 'Lena', last_name: 'Locked' }, { userId, role: 'admin', scopes: new Set(['read', 'write']) });
  });
  afterAll(() => {
    cleanUp();
    engine?.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    cluster?.stop();
  });

  it('answer the API as the node itself does: reads, writes, errors in the envelope, and the node counts them in its metrics', async () => {
    const served = await node(2);
    const read = await call(served, 'GET', `/v2/contacts/${contactId}`);
    expect(read.status).toBe(200);
    expect(read.body.data.last_name).toBe('Locked');
    const written = await call(served, 'PUT', `/v2/contacts/${contactId}`, { title: 'Buyer' });
    expect(written.status).toBe(200);
    expect((await call(served, 'GET', `/v2/contacts/${contactId}`)).body.data.title).toBe('Buyer');
    const refused = await call(served, 'POST', '/v2/contacts', { email: 'no-name@example.com' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].error.code).toBe('missing');
    const anonymous = await fetch(`${served.url}/v2/contacts`);
    expect(anonymous.status).toBe(401);
    const metrics = await (await fetch(`${served.url}/metrics`, { headers: { Authorization: `Bearer ${token}` } })).text();
    expect(metrics).toMatch(/outpost_http_requests_total\{method="GET",route="\/v2\/contacts\/:id",status_code="200"\} 2/);
    expect(metrics).toMatch(/outpost_http_requests_total\{method="PUT",route="\/v2\/contacts\/:id",status_code="200"\} 1/);
    expect(await stop(served)).toBe(0);
  });

  it('run a create sent many times at once with one Idempotency-Key once, whichever worker takes each', async () => {
    const served = await node(2);
    const key = `raced-${Date.now()}`;
    const send = () => fetch(`${served.url}/v2/tasks`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'Idempotency-Key': key },
      body: JSON.stringify({ data: { content: 'Raced across workers' } }),
    }).then(async (answer) => ({ status: answer.status, replayed: answer.headers.get('idempotent-replayed'), text: await answer.text() }));
    const answers = await Promise.all(Array.from({ length: 12 }, send));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      const { rows } = await client.query("SELECT count(*)::int AS n FROM tasks WHERE content = 'Raced across workers'");
      expect(rows[0].n).toBe(1);
    } finally {
      await client.end();
    }
    const first = answers.find((answer) => answer.status === 200 && answer.replayed === null)!;
    for (const answer of answers) {
      if (answer.status === 409) expect(JSON.parse(answer.text).errors[0].error.code).toBe('conflict');
      else expect([answer.status, answer.text]).toEqual([200, first.text]);
    }
    expect(await stop(served)).toBe(0);
  });

  it('let a request waiting on a lock hold up only itself', async () => {
    const served = await node(2);
    const lock = await lockContacts();
    try {
      const waiting = call(served, 'PUT', `/v2/contacts/${contactId}`, { title: 'Waited' });
      expect(await settlesWithin(waiting, 300)).toBe(false);
      // Another worker answers meanwhile.
      const self = call(served, 'GET', '/v2/users/self');
      expect(await settlesWithin(self, 5_000)).toBe(true);
      expect((await self).status).toBe(200);
      expect(await settlesWithin(waiting, 100)).toBe(false);
      await lock.release();
      const answered = await waiting;
      expect(answered.status).toBe(200);
      expect(answered.body.data.title).toBe('Waited');
    } finally {
      await lock.release().catch(() => undefined);
    }
    expect(await stop(served)).toBe(0);
  });
});
