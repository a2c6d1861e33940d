import { afterEach, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';

/**
 * The app's JSON logs (pino through Fastify) as `serve` writes them, caught
 * in memory: one line per request, errors under the logref their answer
 * names, no credentials. Real engine, real HTTP on 127.0.0.1.
 */
let hub: TestHub;
afterEach(async () => hub.close());

async function loggingHub(): Promise<{ lines: () => any[] }> {
  const written: string[] = [];
  hub = await startTestHub({ logger: { level: 'info', stream: { write: (line: string) => written.push(line) } } });
  return { lines: () => written.map((line) => JSON.parse(line)) };
}

describe('the app\'s logs', () => {
  it('log a failure with its error and the logref its answer names, and never the token', async () => {
    const log = await loggingHub();
    hub.engine.db.close();
    const failed = await call(hub, 'GET', '/v2/users/self', { token: hub.adminToken });
    expect(failed.status).toBe(500);
    const logref = failed.body.meta.logref;
    expect(logref).toBe(failed.headers.get('x-request-id'));
    const lines = log.lines().filter((line) => line.logref === logref);
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, msg: 'unhandled error', err: expect.objectContaining({ message: 'The database connection is not open' }) }),
      expect.objectContaining({ level: 30, msg: 'request', method: 'GET', route: '/v2/users/self', status: 500 }),
    ]);
    expect(JSON.stringify(log.lines())).not.toContain(hub.adminToken);
  });

  it('redact credentials wherever they appear in a logged object', async () => {
    const log = await loggingHub();
    hub.app.log.warn({ headers: { authorization: `Bearer ${hub.adminToken}` }, body: { password: 'hunter2-secret', client_secret: 'abc123' } }, 'careless');
    const line = log.lines().find((l) => l.msg === 'careless');
    expect(line).toMatchObject({ headers: { authorization: '[redacted]' }, body: { password: '[redacted]', client_secret: '[redacted]' } });
  });
});
