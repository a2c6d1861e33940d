import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { ManualClock } from '../../electron/engine/clock.js';
import { SENDER_LOCK } from '../../electron/engine/sequences/scheduler.js';
import type { Actor } from '../../electron/engine/context.js';
import { cleanUp, serve, stop, tempDir, type Served } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtpServer.js';

/**
 * What the nodes of one PostgreSQL hub share: one sequence
 * sender, documents kept in the database, rate limits counted together.
 * Where "across nodes" is the point, two real `outpost serve --database-url`
 * processes on one database, each with a data folder of its own; an engine
 * in this process (no scheduler) sets the data up and reads it back.
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL node tests skipped: ${missing}`);

let cluster: PostgresCluster;
const engines: Engine[] = [];
const folders: string[] = [];

/** A new empty database in the run's cluster, and its URL. */
function database(name: string): string {
  cluster.sql(`CREATE DATABASE ${name}`);
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

/** An engine in this process on that database (no scheduler unless a clock is given: tests then tick it themselves). */
function engineOn(url: string, clock?: ManualClock): Engine {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-nodes-'));
  folders.push(dataDir);
  const engine = openEngine({ dataDir, databaseUrl: url, ...(clock ? { clock } : { runSequences: false }) });
  engines.push(engine);
  return engine;
}

/** A hub node: `outpost serve` on the database, its own empty data folder. */
function node(url: string, env: Record<string, string> = {}, extra: string[] = []): Promise<Served> {
  return serve(tempDir(), env, ['--database-url', url, ...extra]);
}

async function adminOf(engine: Engine): Promise<{ actor: Actor; token: string }> {
  const userId = await engine.users.create({ email: 'rep@example.com', password: 'rep-secret-1', name: 'Rita Rep', role: 'admin' });
  return { actor: { userId, role: 'admin', scopes: new Set(['read', 'write']) }, token: engine.tokens.createPersonal(userId, ['read', 'write', 'profile']) };
}

/** Waits for real processes to get somewhere (checked every 50 ms; the test's timeout bounds it). */
async function until(done: () => boolean | Promise<boolean>): Promise<void> {
  for (;;) {
    if (await done()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

function rows(url: string, sql: string, values: unknown[] = []): Promise<Record<string, unknown>[]> {
  return withClient(url, async (client) => (await client.query(sql, values)).rows);
}

async function withClient<T>(url: string, run: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await run(client);
  } finally {
    await client.end();
  }
}

describe.skipIf(missing !== null)('the nodes of a PostgreSQL hub', () => {
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(async () => {
    cleanUp();
    for (const engine of engines) engine.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    cluster?.stop();
  });

  describe('one sequence sender', () => {
    let smtp: TestSmtpServer;
    beforeAll(async () => {
      smtp = await startSmtpServer();
    });
    afterAll(() => smtp?.close());

    /** A template and a sequence of `steps` emails (no delay between them) for the admin. */
    function emailSequence(engine: Engine, actor: Actor, steps: number): number {
      engine.accounts.update({ smtp_url: smtp.url }, actor);
      const templateId = engine.emailTemplates.create({ name: 'Hello', subject: 'Hi {{contact.first_name}}', body: 'Body' }, actor);
      const email = { delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: templateId, is_reply: false } };
      return engine.sequences.create({ name: `Sequence of ${steps}`, steps: Array.from({ length: steps }, () => email) }, actor);
    }

    it('runs only on the node holding the sender lock; the others skip the round and leave its unsettled emails alone', async () => {
      const url = database('sender_lock');
      const clock = new ManualClock('2026-03-02T09:00:00Z');
      const engine = engineOn(url, clock);
      const { actor } = await adminOf(engine);
      const sequenceId = emailSequence(engine, actor, 1);
      const enroll = (email: string) => {
        const contactId = engine.contacts.create({ first_name: 'Kim', last_name: email, email }, actor);
        return engine.enrollments.create({ sequence_id: sequenceId, resource_type: 'contact', resource_id: contactId }, actor);
      };
      const due = enroll('due@example.com');
      // As a node lost in the middle of sending leaves an email: claimed, its fate unknown.
      const interrupted = enroll('interrupted@example.com');
      const interruptedStep = engine.enrollments.steps(interrupted)[0]!;
      expect(engine.enrollments.startStep(interruptedStep.id, { attempt_key: 'lost-attempt', executed_at: '2026-03-02T09:00:00Z' })).toBe(true);
      const status = (enrollment: number) => engine.enrollments.steps(enrollment)[0]!.status;

      await withClient(url, async (otherNode) => {
        await otherNode.query('SELECT pg_advisory_lock($1)', [SENDER_LOCK]);
        await engine.scheduler!.tick();
        expect(smtp.messages).toHaveLength(0);
        expect(status(due)).toBe('scheduled');
        // Another node may be sending it right now: neither a skipped round nor a node starting blocks it.
        expect(status(interrupted)).toBe('in_progress');
        engineOn(url, clock);
        expect(status(interrupted)).toBe('in_progress');
        await otherNode.query('SELECT pg_advisory_unlock($1)', [SENDER_LOCK]);
      });

      await engine.scheduler!.tick();
      expect(smtp.messages.map((m) => m.to)).toEqual([['due@example.com']]);
      expect(status(due)).toBe('completed');
      // The run that got the lock knows no one else is sending: the lost email is blocked for a person to check, never resent blindly.
      expect(status(interrupted)).toBe('blocked');
      expect(engine.db.prepare('SELECT failure_reason FROM enrollment_steps WHERE id = ?').pluck().get(interruptedStep.id)).toBe('unknown');
      // The run let the lock go, even though it ran on this engine's one connection.
      const lockFree = async () => rows(url, 'SELECT pg_try_advisory_lock($1) AS taken, pg_advisory_unlock($1) AS released', [SENDER_LOCK]);
      expect(await lockFree()).toEqual([{ taken: true, released: true }]);
      // A run that fails half-way (its table gone for a moment) lets it go too, and says why.
      await rows(url, 'ALTER TABLE enrollment_steps RENAME TO enrollment_steps_away');
      const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
      try {
        await engine.scheduler!.tick();
        expect(logged).toHaveBeenCalledWith('sequence scheduler run failed', expect.objectContaining({ message: expect.stringMatching(/enrollment_steps/) }));
      } finally {
        logged.mockRestore();
      }
      expect(await lockFree()).toEqual([{ taken: true, released: true }]);
      await rows(url, 'ALTER TABLE enrollment_steps_away RENAME TO enrollment_steps');
      smtp.messages.length = 0;
    });

    // Two node processes started and 24 emails sent: close to the default 20 s on a loaded 2-core machine.
    it('sends each email exactly once with two hub nodes running their schedulers on one database', { timeout: 60_000 }, async () => {
      const url = database('sender_nodes');
      const engine = engineOn(url);
      const { actor } = await adminOf(engine);
      const sequenceId = emailSequence(engine, actor, 2);
      const fast = { OUTPOST_SCHEDULER_INTERVAL_MS: '100' };
      const nodes = await Promise.all([node(url, fast), node(url, fast)]);
      // Enrolled once both nodes are ticking: every step is due on both at once.
      const recipients = Array.from({ length: 12 }, (_, i) => `person${i}@example.com`);
      for (const email of recipients) {
        const contactId = engine.contacts.create({ first_name: 'P', last_name: email, email }, actor);
        engine.enrollments.create({ sequence_id: sequenceId, resource_type: 'contact', resource_id: contactId }, actor);
      }
      const open = () => engine.db.prepare("SELECT COUNT(*) FROM sequence_enrollments WHERE state <> 'finished'").pluck().get() as number;
      await until(() => open() === 0);

      const steps = engine.db.prepare('SELECT status, COUNT(*) AS n FROM enrollment_steps GROUP BY status').all();
      expect(steps).toEqual([{ status: 'completed', n: 2 * recipients.length }]);
      expect(smtp.messages).toHaveLength(2 * recipients.length);
      expect(new Set(smtp.messages.map((m) => m.messageId)).size).toBe(2 * recipients.length);
      const perRecipient = new Map<string, number>();
      for (const message of smtp.messages) for (const to of message.to) perRecipient.set(to, (perRecipient.get(to) ?? 0) + 1);
      expect(Object.fromEntries(perRecipient)).toEqual(Object.fromEntries(recipients.map((r) => [r, 2])));
      for (const served of nodes) expect(await stop(served)).toBe(0);
    });

    it('refuses an interval that is not a whole number of milliseconds, at least 100', async () => {
      const url = database('sender_interval');
      engineOn(url);
      await expect(node(url, { OUTPOST_SCHEDULER_INTERVAL_MS: '10' })).rejects.toThrow(/OUTPOST_SCHEDULER_INTERVAL_MS must be a whole number of milliseconds, at least 100 \(given: 10\)/);
    });
  });

  describe('rate limits', () => {
    it('count the requests of both nodes together: the 11th of a limit of 10 is refused on either', async () => {
      const url = database('limits');
      const engine = engineOn(url);
      const { token } = await adminOf(engine);
      const secondId = await engine.users.create({ email: 'second@example.com', password: 'second-secret-1', name: 'Sam Second', role: 'admin' });
      const other = engine.tokens.createPersonal(secondId, ['read']);
      // A window that ended long ago: the first request on each node sweeps such windows away.
      engine.db.exec("INSERT INTO rate_limit_hits (key, window_start, window_end, hits) VALUES ('old', 0, 1, 5)");
      await pastWindowEdge(url);
      const [a, b] = await Promise.all([node(url, {}, ['--rate-limit', '10']), node(url, {}, ['--rate-limit', '10'])]);
      const get = (served: Served, bearer = token) => fetch(`${served.url}/v2/users/self`, { headers: { Authorization: `Bearer ${bearer}` } });

      const remaining: number[] = [];
      for (let i = 0; i < 10; i++) {
        const answer = await get(i % 2 === 0 ? a : b);
        expect(answer.status, `request ${i + 1}`).toBe(200);
        remaining.push(Number(answer.headers.get('x-ratelimit-remaining')));
      }
      // Below half the limit each node counts in memory first (it may not have heard the other's last hits yet); from half on, exactly.
      remaining.forEach((left, i) => expect(left, `request ${i + 1}`).toBeGreaterThanOrEqual(9 - i));
      expect(remaining.at(-1)).toBe(0);
      for (const served of [a, b]) {
        const refused = await get(served);
        expect(refused.status).toBe(429);
        const body = (await refused.json()) as { errors: { error: { code: string; message: string } }[] };
        expect(body.errors[0]!.error.code).toBe('rate_limit_exceeded');
        expect(body.errors[0]!.error.message).toMatch(/^Rate limit of 10 requests per hour exceeded; retry in \d+ seconds\.$/);
      }
      // Counted per caller: another token has its own 10.
      expect((await get(b, other)).status).toBe(200);

      const stored = await rows(url, 'SELECT key, hits FROM rate_limit_hits ORDER BY hits DESC');
      expect(stored.map((row) => row.hits)).toEqual([12, 1]);
      // Only hashes: no token, and the window that had ended is gone.
      for (const row of stored) expect(row.key).toMatch(/^[0-9a-f]{64}$/);
      for (const served of [a, b]) expect(await stop(served)).toBe(0);
    });

    it('far below the limit are counted in memory and added to the table in batches, not one statement per request', async () => {
      const url = database('limits_batched');
      const engine = engineOn(url);
      const { token } = await adminOf(engine);
      // Counts the statements that write the table (the test's own trigger, in this database only).
      engine.db.exec(`CREATE TABLE hit_statements (n integer);
        CREATE FUNCTION count_hit_statement() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN INSERT INTO hit_statements VALUES (1); RETURN NULL; END $$;
        CREATE TRIGGER count_hit_statements AFTER INSERT OR UPDATE ON rate_limit_hits FOR EACH STATEMENT EXECUTE FUNCTION count_hit_statement();`);
      await pastWindowEdge(url);
      const served = await node(url, {}, ['--rate-limit', '1000']);
      for (let i = 0; i < 40; i++) {
        const answer = await fetch(`${served.url}/v2/users/self`, { headers: { Authorization: `Bearer ${token}` } });
        expect(answer.status).toBe(200);
      }
      // Every hit reaches the table within a flush (250 ms).
      await until(async () => (await rows(url, 'SELECT hits FROM rate_limit_hits'))[0]?.hits === 40);
      const statements = Number((await rows(url, 'SELECT count(*) AS n FROM hit_statements'))[0]!.n);
      expect(statements).toBeGreaterThanOrEqual(2);
      expect(statements).toBeLessThan(40);
      expect(await stop(served)).toBe(0);
    });
  });

  describe('documents', () => {
    it('are stored in the database: uploaded on one node, downloaded byte for byte on the other, deleted with their record', async () => {
      const url = database('documents');
      const engine = engineOn(url);
      const { token } = await adminOf(engine);
      const [a, b] = await Promise.all([node(url), node(url)]);
      const call = async (served: Served, method: string, path: string, body?: unknown) => {
        const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
        if (body !== undefined) headers['Content-Type'] = 'application/json';
        const answer = await fetch(`${served.url}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify({ data: body }) });
        const text = await answer.text();
        return { status: answer.status, body: (text ? JSON.parse(text) : null) as any };
      };
      const contactId = (await call(a, 'POST', '/v2/contacts', { last_name: 'Filed' })).body.data.id as number;
      // Every byte value, and enough of them to be more than one network packet and one PostgreSQL page.
      const content = Buffer.concat([Buffer.from(Array.from({ length: 256 }, (_, i) => i)), randomBytes(3 * 1024 * 1024)]);
      const uploaded = await fetch(`${a.url}/v2/documents?resource_type=contact&resource_id=${contactId}&name=scan.pdf`, {
        method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/pdf' }, body: new Uint8Array(content),
      });
      expect(uploaded.status).toBe(200);
      const documentId = ((await uploaded.json()) as any).data.id as number;

      const onB = await call(b, 'GET', `/v2/documents/${documentId}`);
      expect(onB.body.data).toMatchObject({ name: 'scan.pdf', size: content.length });
      expect(onB.body.data.download_url.startsWith(`${b.url}/downloads/documents/${documentId}?`)).toBe(true);
      const download = await fetch(onB.body.data.download_url);
      expect(download.status).toBe(200);
      expect(download.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
      expect(await rows(url, 'SELECT octet_length(bytes) AS size FROM document_contents WHERE id = $1', [documentId])).toEqual([{ size: content.length }]);

      expect((await call(b, 'DELETE', `/v2/contacts/${contactId}`)).status).toBe(204);
      expect((await call(a, 'GET', `/v2/documents/${documentId}`)).status).toBe(404);
      expect(await rows(url, 'SELECT id FROM document_contents')).toEqual([]);
      expect((await fetch(onB.body.data.download_url.replace(b.url, a.url))).status).toBe(404);
      for (const served of [a, b]) expect(await stop(served)).toBe(0);
    });
  });
});

/** Rate-limit windows are whole hours on the database's clock: a test close to the end of one waits for the next. */
async function pastWindowEdge(url: string): Promise<void> {
  const [{ left }] = (await rows(url, "SELECT 3600 - extract(epoch FROM clock_timestamp())::bigint % 3600 AS left")) as { left: string }[];
  if (Number(left) < 30) await new Promise((resolve) => setTimeout(resolve, (Number(left) + 1) * 1000));
}
