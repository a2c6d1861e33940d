import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';

/** `GET /health`: for load balancers, no token; 503 once the database stops answering. Real engine, real HTTP. */
let hub: TestHub;
afterEach(async () => hub.close());

describe('GET /health', () => {
  it('answers 200 {"status":"ok"} with its checks without a token while the database answers', async () => {
    hub = await startTestHub();
    const answer = await call(hub, 'GET', '/health', { token: null });
    expect([answer.status, answer.text]).toEqual([200, '{"status":"ok","checks":{"database":"ok"}}']);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(answer.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 with the reason and a logref once the database does not answer', async () => {
    hub = await startTestHub();
    hub.engine.db.close();
    const answer = await call(hub, 'GET', '/health', { token: null });
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({ status: 'unavailable', checks: { database: 'unavailable' }, reason: 'The database does not answer.', logref: answer.headers.get('x-request-id') });
  });
});
