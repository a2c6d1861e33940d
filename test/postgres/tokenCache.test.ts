import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * Each PostgreSQL hub node keeps token rows in memory (auth/tokens.ts) and
 * forgets them at once on the notice any node's change sends
 * (db/postgres/noticeListener.ts, the triggers of clusterTables.ts). Two
 * engines on one database stand for two nodes. That the cache is used is
 * shown by a revocation made with the notice's trigger off: the node that
 * cached the token still takes it (so the test fails if nothing is cached),
 * and the same revocation with the trigger on is refused at once (so it
 * fails if the cache outlives a change).
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL token cache tests skipped: ${missing}`);

let cluster: PostgresCluster;
let url: string;
const engines: Engine[] = [];
const folders: string[] = [];

function node(): Engine {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-token-cache-'));
  folders.push(dataDir);
  const engine = openEngine({ dataDir, databaseUrl: url, runSequences: false });
  engines.push(engine);
  return engine;
}

async function sql(text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Lets this thread's event loop take in what arrived (a notice is a few hundred µs behind its commit). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 100));
/** Waits for a notice to take effect: usually within a few ms, but a loaded CI machine can hold it for seconds. */
const arrives = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });

describe.skipIf(missing !== null)('the token cache of PostgreSQL hub nodes', () => {
  let a: Engine;
  let b: Engine;
  let userId: number;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    cluster.sql('CREATE DATABASE token_cache');
    url = cluster.url.replace(/\/postgres$/, '/token_cache');
    a = node();
    b = node();
    expect(await a.authChanges!.ready()).toBe(true);
    expect(await b.authChanges!.ready()).toBe(true);
    userId = await a.users.create({ email: 'rep@example.com', password: 'rep-secret-1', name: 'Rita Rep', role: 'admin' });
  });
  afterAll(() => {
    for (const engine of engines) engine.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    cluster?.stop();
  });

  it('keeps a token it has seen (a revocation nobody announced is not seen), and forgets it when another node revokes it', async () => {
    const token = a.tokens.createPersonal(userId, ['read']);
    expect(a.tokens.authenticate(token)?.userId).toBe(userId);
    await sql('ALTER TABLE access_tokens DISABLE TRIGGER access_tokens_auth_changed');
    await sql("UPDATE access_tokens SET revoked_at = '2026-01-01T00:00:00Z' WHERE user_id = $1", [userId]);
    await sql('ALTER TABLE access_tokens ENABLE TRIGGER access_tokens_auth_changed');
    await settle();
    expect(a.tokens.authenticate(token)?.userId).toBe(userId);
    expect(b.tokens.authenticate(token)).toBeNull();

    const second = a.tokens.createPersonal(userId, ['read']);
    expect(a.tokens.authenticate(second)?.userId).toBe(userId);
    expect(b.tokens.revokePersonal(second)).toBe(true);
    await arrives(() => expect(a.tokens.authenticate(second)).toBeNull());
    expect(a.tokens.authenticate(token)).toBeNull();
  });

  it("follows a user's role and status changed on another node", async () => {
    const token = a.tokens.createPersonal(userId, ['read']);
    expect(a.tokens.authenticate(token)?.role).toBe('admin');
    b.db.prepare("UPDATE users SET role = 'user' WHERE id = ?").run(userId);
    await arrives(() => expect(a.tokens.authenticate(token)?.role).toBe('user'));
    b.db.prepare("UPDATE users SET status = 'inactive' WHERE id = ?").run(userId);
    await arrives(() => expect(a.tokens.authenticate(token)).toBeNull());
    b.db.prepare("UPDATE users SET status = 'active', role = 'admin' WHERE id = ?").run(userId);
  });

  it('trusts nothing it kept while its listening connection is lost, and listens again', async () => {
    const token = a.tokens.createPersonal(userId, ['read']);
    expect(a.tokens.authenticate(token)?.userId).toBe(userId);
    await sql('ALTER TABLE access_tokens DISABLE TRIGGER access_tokens_auth_changed');
    await sql("UPDATE access_tokens SET revoked_at = '2026-01-01T00:00:00Z' WHERE token_hash = encode(sha256($1::bytea), 'hex')", [token]);
    await sql('ALTER TABLE access_tokens ENABLE TRIGGER access_tokens_auth_changed');
    await sql("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name LIKE 'outpost-listen-%'");
    await arrives(() => expect(a.tokens.authenticate(token)).toBeNull());
    expect(await a.authChanges!.ready()).toBe(true);
    expect(a.authChanges!.listening).toBe(true);
  });
});
