import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanUp, serve, tempDir, type Served } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';
import { BOSS, hubDatabase } from '../support/postgresHubDatabase.js';
import { FIRST_PARTY_CLIENT_ID } from '../../shared/oauth.js';

/**
 * The OAuth endpoints of a real `outpost serve` node while its PostgreSQL
 * cluster is stopped: 503 `temporarily_unavailable` in OAuth's shape (RFC
 * 6749), with Retry-After, never cached, nothing of the database in the
 * body; a body that cannot be parsed is still `invalid_request` (it is
 * refused before the database is asked); and once the cluster is back, the
 * same grant succeeds.
 */
const missing = whyNoPostgres();
if (missing) console.log(`OAuth outage tests skipped: ${missing}`);


describe.skipIf(missing !== null)('the OAuth endpoints while PostgreSQL is down', { timeout: 120_000 }, () => {
  let cluster: PostgresCluster;
  let node: Served;

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    const { url } = await hubDatabase(cluster);
    node = await serve(tempDir(), { OUTPOST_PG_CONNECT_TIMEOUT_MS: '1000' }, ['--database-url', url]);
  });

  afterAll(() => {
    cleanUp();
    cluster?.stop();
  });

  const basic = `Basic ${Buffer.from(`${FIRST_PARTY_CLIENT_ID}:`).toString('base64')}`;

  async function post(path: string, body: string, contentType = 'application/x-www-form-urlencoded') {
    const response = await fetch(`${node.url}${path}`, { method: 'POST', headers: { Authorization: basic, 'Content-Type': contentType }, body });
    const text = await response.text();
    return { status: response.status, headers: response.headers, text, body: JSON.parse(text) };
  }

  const grant = () => post('/oauth2/token', new URLSearchParams({ grant_type: 'password', username: BOSS.email, password: BOSS.password }).toString());

  function expectOAuth(answer: Awaited<ReturnType<typeof post>>, status: number, error: string): void {
    expect({ status: answer.status, body: answer.body }).toMatchObject({ status, body: { error, error_description: expect.any(String) } });
    expect(Object.keys(answer.body).sort()).toEqual(['error', 'error_description']);
    expect(answer.headers.get('content-type')).toMatch(/^application\/json\b/);
    expect(answer.headers.get('cache-control')).toBe('no-store');
    expect(answer.text).not.toMatch(/SQLSTATE|08006|57P0|ECONNREFUSED|127\.0\.0\.1|5432|postgres|libpq|\.[jt]s:\d+/i);
  }



  it('answer 503 temporarily_unavailable with Retry-After, then grant once the database is back', async () => {
    const before = await grant();
    expect(before.status, before.text).toBe(200);
    const start = cluster.pause();
    try {
      const token = await grant();
      expectOAuth(token, 503, 'temporarily_unavailable');
      expect(Number(token.headers.get('retry-after'))).toBeGreaterThan(0);
      const revoke = await post('/oauth2/revoke', new URLSearchParams({ token: before.body.access_token }).toString());
      expectOAuth(revoke, 503, 'temporarily_unavailable');
      expect(Number(revoke.headers.get('retry-after'))).toBeGreaterThan(0);
      // Refused before the database is asked: the client's own mistake, said as such.
      expectOAuth(await post('/oauth2/token', '{"grant_type": ', 'application/json'), 400, 'invalid_request');
    } finally {
      start();
    }
    let after = await grant();
    for (const began = performance.now(); after.status !== 200 && performance.now() - began < 10_000; after = await grant()) {
      expectOAuth(after, 503, 'temporarily_unavailable');
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(after.status, after.text).toBe(200);
    expect(after.body.token_type).toBe('bearer');
  });
});
