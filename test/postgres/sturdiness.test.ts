import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanUp, outpost, serve, startServing, stop, tempDir, type Served } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';
import { hubDatabase } from '../support/postgresHubDatabase.js';
import { openPostgres } from '../../electron/engine/db/postgres/open.js';
import { ManualClock, systemClock } from '../../electron/engine/clock.js';
import { openEngine } from '../../electron/engine/engine.js';
import { Scheduler, SENDER_LOCK } from '../../electron/engine/sequences/scheduler.js';
import type { Actor } from '../../electron/engine/context.js';
import { startTestHub } from '../support/testHub.js';
import { startCabledReplica } from '../support/testReplica.js';

/**
 * A PostgreSQL hub node that survives its database restarting: a
 * real `outpost serve` process over a real throwaway cluster, which the tests
 * stop and start again (as a failover or a restart does), whose backend they
 * terminate, and whose tables they lock. Meanwhile the node answers 503
 * temporarily_unavailable (never 500), and within a few seconds of the
 * database's return it answers 200 again, with its data intact.
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL sturdiness tests skipped: ${missing}`);

/** The node's lock_timeout in these tests, short so a blocked request is answered soon. */
const LOCK_TIMEOUT_MS = 500;

interface Answer {
  status: number;
  body: any;
  retryAfter: string | null;
}

describe.skipIf(missing !== null)('a PostgreSQL hub node when its database goes away', { timeout: 120_000 }, () => {
  let cluster: PostgresCluster;
  let url: string;
  let node: Served;
  let token: string;
  let contactId: number;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    ({ url, token } = await hubDatabase(cluster));
    node = await serve(tempDir(), { OUTPOST_PG_LOCK_TIMEOUT_MS: String(LOCK_TIMEOUT_MS), OUTPOST_PG_CONNECT_TIMEOUT_MS: '1000' }, ['--database-url', url]);
    const contact = await call('POST', '/v2/contacts', { last_name: 'Kept through restarts' });
    expect(contact.status, JSON.stringify(contact.body)).toBe(200);
    contactId = contact.body.data.id;
  });

  afterAll(() => {
    cleanUp();
    cluster?.stop();
  });

  async function call(method: string, path: string, data?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
    const answer = await fetch(`${node.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, Accept: 'application/json', ...(data === undefined ? {} : { 'Content-Type': 'application/json' }), ...headers },
      body: data === undefined ? undefined : JSON.stringify({ data }),
    });
    const text = await answer.text();
    return { status: answer.status, body: text ? JSON.parse(text) : null, retryAfter: answer.headers.get('retry-after') };
  }

  const readContact = () => call('GET', `/v2/contacts/${contactId}`);

  /** A 503 in the API's envelope, code temporarily_unavailable, with Retry-After. */
  function expectUnavailable(answer: Answer, what: string): void {
    expect(answer.status, `${what}: ${JSON.stringify(answer.body)}`).toBe(503);
    expect(answer.body.errors[0].error.code).toBe('temporarily_unavailable');
    expect(answer.body.meta.http_status).toMatch(/^503/);
    expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  }



  it('says on /health that it and its database are up, never cached', async () => {
    const answer = await fetch(`${node.url}/health`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(await answer.json()).toEqual({ status: 'ok', checks: { database: 'ok' } });
  });

  it('answers 503 temporarily_unavailable while the database is down, never 500, and 200 within seconds of its return', async () => {
    const start = cluster.pause();
    const statuses: number[] = [];
    const downUntil = performance.now() + 2500;
    while (performance.now() < downUntil) {
      const answer = await readContact();
      statuses.push(answer.status);
      expectUnavailable(answer, 'a read while the database is down');
    }
    expectUnavailable(await call('POST', '/v2/contacts', { last_name: 'Written while down' }), 'a write while the database is down');
    const health = await fetch(`${node.url}/health`);
    expect(health.status).toBe(503);
    expect(await health.json()).toMatchObject({ status: 'unavailable', checks: { database: 'unavailable' } });
    // The OAuth endpoints answer in OAuth's shape (RFC 6749's temporarily_unavailable).
    const grant = await fetch(`${node.url}/oauth2/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&client_id=outpost-web&username=boss%40example.com&password=boss-password-1',
    });
    expect(grant.status).toBe(503);
    expect(await grant.json()).toMatchObject({ error: 'temporarily_unavailable' });

    start();
    const back = performance.now();
    let answer = await readContact();
    while (answer.status !== 200 && performance.now() - back < 10_000) {
      statuses.push(answer.status);
      expectUnavailable(answer, 'a read as the database comes back');
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await readContact();
    }
    const recoveredMs = performance.now() - back;
    console.log(`sturdiness: ${statuses.length} answers while down, all 503; 200 again ${recoveredMs.toFixed(0)} ms after the database was back`);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(recoveredMs).toBeLessThan(5000);
    expect(statuses).not.toContain(500);
    expect(answer.body.data.last_name).toBe('Kept through restarts');
    // Writes work again, and nothing of the refused one was kept.
    expect((await call('POST', '/v2/contacts', { last_name: 'Written after' })).status).toBe(200);
    const search = await call('GET', '/v2/contacts?per_page=100');
    expect(search.body.items.map((item: any) => item.data.last_name).sort()).toEqual(['Kept through restarts', 'Written after']);
    expect((await fetch(`${node.url}/health`)).status).toBe(200);
  });

  it('goes on after its backend is terminated, with at most one 503', async () => {
    const terminated = cluster.sql(`SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE datname = 'hub' AND backend_type = 'client backend' AND pid <> pg_backend_pid()`);
    expect(Number(terminated)).toBeGreaterThan(0);
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const answer = await readContact();
      statuses.push(answer.status);
      if (answer.status !== 200) expectUnavailable(answer, 'a read after the backend was terminated');
    }
    expect(statuses.filter((status) => status !== 200).length).toBeLessThanOrEqual(1);
    expect(statuses[statuses.length - 1]).toBe(200);
  });

  it('answers a request blocked by another session\'s lock with 503 after lock_timeout, and works after', async () => {
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    try {
      await holder.query('BEGIN');
      await holder.query('LOCK TABLE contacts IN ACCESS EXCLUSIVE MODE');
      const started = performance.now();
      const blocked = await readContact();
      const waited = performance.now() - started;
      expectUnavailable(blocked, 'a read blocked by a lock');
      expect(waited).toBeGreaterThanOrEqual(LOCK_TIMEOUT_MS - 50);
      expect(waited).toBeLessThan(LOCK_TIMEOUT_MS + 3000);
      await holder.query('ROLLBACK');
    } finally {
      await holder.end();
    }
    expect((await readContact()).status).toBe(200);
  });

  it('sets statement_timeout, lock_timeout and idle_in_transaction_session_timeout on the engine\'s connection, from the environment', async () => {
    const before = { ...process.env };
    Object.assign(process.env, { OUTPOST_PG_STATEMENT_TIMEOUT_MS: '12000', OUTPOST_PG_LOCK_TIMEOUT_MS: '3000', OUTPOST_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS: '45000' });
    let db;
    try {
      db = openPostgres(url, systemClock);
    } finally {
      for (const name of ['OUTPOST_PG_STATEMENT_TIMEOUT_MS', 'OUTPOST_PG_LOCK_TIMEOUT_MS', 'OUTPOST_PG_IDLE_IN_TRANSACTION_TIMEOUT_MS']) {
        if (before[name] === undefined) delete process.env[name];
        else process.env[name] = before[name];
      }
    }
    try {
      expect(db.prepare('SHOW statement_timeout').pluck().get()).toBe('12s');
      expect(db.prepare('SHOW lock_timeout').pluck().get()).toBe('3s');
      expect(db.prepare('SHOW idle_in_transaction_session_timeout').pluck().get()).toBe('45s');
    } finally {
      await db.close();
    }
  });

  it('starts while its database is down, waits for it, and comes up with it', async () => {
    const start = cluster.pause();
    const { stdout, listening } = startServing(tempDir(), { OUTPOST_PG_CONNECT_TIMEOUT_MS: '1000' }, ['--database-url', url]);
    let settled = false;
    void listening.then(() => (settled = true), () => (settled = true));
    // Until it has tried the database and said it waits: a loaded machine can take seconds just to load the engine.
    await vi.waitFor(() => expect(stdout()).toMatch(/Waiting for PostgreSQL/), { timeout: 30_000, interval: 100 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    // Neither listening nor gone while there is no database.
    expect(settled).toBe(false);
    start();
    const late = await listening;
    expect(late.stdout()).toMatch(/Waiting for PostgreSQL at postgres:\/\/\S+\/hub \(up to 60 s\)/);
    expect((await fetch(`${late.url}/health`)).status).toBe(200);
    const contact = await fetch(`${late.url}/v2/contacts/${contactId}`, { headers: { Authorization: `Bearer ${token}` } });
    expect(contact.status).toBe(200);
    expect(await stop(late)).toBe(0);
  });

  it('does not wait for a database that does not exist: it says so and exits', async () => {
    const result = await outpost(['serve', '--port', '0', '--data-dir', tempDir(), '--database-url', url.replace(/\/hub$/, '/nowhere')]);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toMatch(/database "nowhere" does not exist/);
    expect(result.stdout).not.toMatch(/Waiting for PostgreSQL/);
  });

  it('refuses a timeout that is not a whole number of milliseconds, naming it', () => {
    process.env.OUTPOST_PG_STATEMENT_TIMEOUT_MS = '30s';
    try {
      expect(() => openPostgres(url, systemClock)).toThrow(/OUTPOST_PG_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds, not '30s'/);
    } finally {
      delete process.env.OUTPOST_PG_STATEMENT_TIMEOUT_MS;
    }
  });
});

describe('a desktop replica\'s /health', () => {
  it('says its hub is unreachable while offline, and stays ok: it still serves its own data', async () => {
    const hub = await startTestHub();
    const device = await startCabledReplica(hub, hub.agentId);
    try {
      const health = async () => {
        const answer = await fetch(`${device.local.url}/health`);
        return { status: answer.status, body: await answer.json() };
      };
      expect(await health()).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', hub: 'ok' } } });
      device.net.online = false;
      expect((await device.replica.sync()).state).toBe('offline');
      expect(await health()).toEqual({ status: 200, body: { status: 'ok', checks: { database: 'ok', hub: 'unreachable' } } });
      device.net.online = true;
      expect((await device.replica.sync()).state).toBe('up_to_date');
      expect((await health()).body.checks.hub).toBe('ok');
    } finally {
      await device.close();
      await hub.close();
    }
  });
});

describe.skipIf(missing !== null)('the sequence sender when its connection is lost', () => {
  let cluster: PostgresCluster;
  let dataDir: string;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    dataDir = tempDir();
  });
  afterAll(() => {
    cleanUp();
    cluster?.stop();
  });

  it('stops sending once its connection (and the session lock with it) was lost, and lets the node now holding the lock send', async () => {
    cluster.sql('CREATE DATABASE sender');
    const url = cluster.url.replace(/\/postgres$/, '/sender');
    const clock = new ManualClock('2026-03-02T09:00:00Z');
    const engine = openEngine({ dataDir, databaseUrl: url, clock, runSequences: false });
    const otherNode = new pg.Client({ connectionString: url });
    await otherNode.connect();
    try {
      const userId = await engine.users.create({ email: 'rep@example.com', password: 'rep-secret-1', name: 'Rita Rep', role: 'admin' });
      const actor: Actor = { userId, role: 'admin', scopes: new Set(['read', 'write']) };
      engine.accounts.update({ smtp_url: 'smtp://mailer:secret@127.0.0.1:1' }, actor);
      const templateId = engine.emailTemplates.create({ name: 'Hello', subject: 'Hi', body: 'Body' }, actor);
      const email = { delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: templateId, is_reply: false } };
      const sequenceId = engine.sequences.create({ name: 'One email', steps: [email] }, actor);
      for (const address of ['first@example.com', 'second@example.com']) {
        const contactId = engine.contacts.create({ first_name: 'Kim', last_name: address, email: address }, actor);
        engine.enrollments.create({ sequence_id: sequenceId, resource_type: 'contact', resource_id: contactId }, actor);
      }
      const sent: string[] = [];
      // While the first email goes out, the database drops this node's connection and another node takes the sender lock.
      const mailer = {
        async send(_smtpUrl: string, message: { to: string }) {
          sent.push(message.to);
          if (sent.length > 1) return;
          await otherNode.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = 'sender' AND pid <> pg_backend_pid()`);
          await otherNode.query('SELECT pg_advisory_lock($1)', [SENDER_LOCK]);
        },
        close() {},
      };
      const scheduler = new Scheduler(engine.ctx, {
        enrollments: engine.enrollments, accounts: engine.accounts, templates: () => engine.emailTemplates,
        createTask: (data, by) => engine.tasks.create(data, by), recordJson: (_type, id) => JSON.parse(engine.contacts.json(id)), mailer,
      });
      await scheduler.tick();
      // The second is left for the node holding the lock now: two senders at once is what the lock prevents.
      expect(sent).toHaveLength(1);
      await scheduler.tick();
      expect(sent).toHaveLength(1);
      await otherNode.query('SELECT pg_advisory_unlock($1)', [SENDER_LOCK]);
      await scheduler.tick();
      expect(sent).toHaveLength(2);
      expect(new Set(sent).size).toBe(2);
      scheduler.stop();
    } finally {
      await otherNode.end();
      engine.close();
    }
  });
});
