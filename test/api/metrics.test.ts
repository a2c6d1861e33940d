import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica } from '../support/testReplica.js';

/**
 * `GET /metrics` (Prometheus text format) for admins only: request counts by
 * route pattern and status, latency, active sync sessions, a replica's
 * outbox. Real engines, real HTTP on 127.0.0.1.
 */
let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => hub.close());

async function scrape(target: { url: string }, token: string): Promise<string> {
  const answer = await call(target, 'GET', '/metrics', { token });
  expect(answer.status, answer.text).toBe(200);
  expect(answer.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.text;
}

/** The value of one sample, `name{labels}`, or undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics', () => {
  it('is for admins with the read scope; anyone else gets the /v2 error envelope', async () => {
    const anonymous = await call(hub, 'GET', '/metrics', { token: null });
    expect([anonymous.status, codes(anonymous)]).toEqual([401, ['unauthorized']]);
    expect(anonymous.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const agent = await call(hub, 'GET', '/metrics', { token: hub.agentToken });
    expect([agent.status, codes(agent)]).toEqual([403, ['forbidden']]);
    const profileOnly = await call(hub, 'GET', '/metrics', { token: hub.tokenFor(hub.adminId, ['profile']) });
    expect([profileOnly.status, codes(profileOnly)]).toEqual([403, ['insufficient_scope']]);
    expect(anonymous.body.meta.logref).toBe(anonymous.headers.get('x-request-id'));
  });

  it('counts requests by route pattern (never the raw URL) and status, with their latency and the process metrics', async () => {
    await call(hub, 'GET', '/v2/contacts/424242', { token: hub.adminToken });
    await call(hub, 'GET', '/v2/contacts/515151', { token: hub.adminToken });
    await call(hub, 'GET', '/no/such/path/77', { token: null });
    const text = await scrape(hub, hub.adminToken);
    expect(sample(text, 'outpost_http_requests_total{method="GET",route="/v2/contacts/:id",status_code="404"}')).toBe(2);
    expect(sample(text, 'outpost_http_request_duration_seconds_count{method="GET",route="/v2/contacts/:id"}')).toBe(2);
    expect(sample(text, 'outpost_http_request_duration_seconds_bucket{le="+Inf",method="GET",route="/v2/contacts/:id"}')).toBe(2);
    expect(sample(text, 'outpost_http_requests_total{method="GET",route="(no route)",status_code="404"}')).toBeGreaterThanOrEqual(1);
    expect(text).not.toMatch(/424242|515151|no\/such/);
    expect(text).toContain('# TYPE outpost_http_request_duration_seconds histogram');
    expect(sample(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
    expect(text).toContain('nodejs_eventloop_lag_seconds');
  });

  it('keeps each app\'s counts apart (one registry per app)', async () => {
    const other = await startTestHub();
    try {
      await call(other, 'GET', '/v2/tasks', { token: other.adminToken });
      expect(sample(await scrape(other, other.adminToken), 'outpost_http_requests_total{method="GET",route="/v2/tasks",status_code="200"}')).toBe(1);
      expect(sample(await scrape(hub, hub.adminToken), 'outpost_http_requests_total{method="GET",route="/v2/tasks",status_code="200"}')).toBeUndefined();
    } finally {
      await other.close();
    }
  });

  it('reports active sync sessions at scrape time: open and used within the idle window', async () => {
    const active = async () => sample(await scrape(hub, hub.adminToken), 'outpost_sync_sessions_active');
    expect(await active()).toBe(0);
    await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Synced' } });
    const syncToken = hub.tokenFor(hub.agentId, ['sync']);
    const started = await call(hub, 'POST', '/v2/sync/start', { token: syncToken, headers: { 'X-Service-Device-UUID': randomUUID() } });
    expect(started.status).toBe(201);
    expect(await active()).toBe(1);
    hub.clock.advance(11 * 60 * 1000);
    expect(await active()).toBe(0);
    expect(await scrape(hub, hub.adminToken)).not.toContain('outpost_replica_outbox_changes');
  });

  it('reports a replica\'s outbox: changes pending for the hub and rejected ones', async () => {
    const device = await startTestReplica(hub, hub.adminId);
    try {
      await device.replica.sync();
      const admin = device.engine.tokens.createPersonal(hub.adminId, ['read', 'write']);
      expect((await call(device.local, 'POST', '/v2/contacts', { token: admin, data: { last_name: 'Offline' } })).status).toBe(200);
      const text = await scrape(device.local, admin);
      expect(sample(text, 'outpost_replica_outbox_changes{state="pending"}')).toBe(1);
      expect(sample(text, 'outpost_replica_outbox_changes{state="rejected"}')).toBe(0);
    } finally {
      await device.close();
    }
  });
});
