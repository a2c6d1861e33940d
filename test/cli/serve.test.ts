import { afterAll, describe, expect, it } from 'vitest';
import { connect, type Socket } from 'node:net';
import { accessToken, cleanUp, outpost, serve, stop, tempDir, type Served } from '../support/cliProcess.js';

/**
 * `outpost serve` as an administrator runs it: JSON logs on stderr (stdout
 * keeps its plain lines), and a clean stop on SIGTERM that lets a request
 * in flight finish. Real child processes over real HTTP on 127.0.0.1.
 */
afterAll(cleanUp);

const ADMIN = { OUTPOST_ADMIN_EMAIL: 'boss@example.com', OUTPOST_ADMIN_PASSWORD: 'boss-password-1' };

const adminToken = (dataDir: string) => accessToken(dataDir, ADMIN.OUTPOST_ADMIN_EMAIL);

const logLines = (served: Served) => served.stderr().split('\n').filter((line) => line.startsWith('{')).map((line) => JSON.parse(line));

async function eventually(check: () => boolean): Promise<void> {
  for (let i = 0; i < 50 && !check(); i++) await new Promise((resolve) => setTimeout(resolve, 100));
}

describe('outpost serve logs', { timeout: 60_000 }, () => {
  it('writes one JSON line per request on stderr (method, route, status, duration, logref), never a token or a password', async () => {
    const dir = tempDir();
    const hub = await serve(dir, ADMIN);
    const token = await adminToken(dir);
    const self = await fetch(`${hub.url}/v2/users/self`, { headers: { Authorization: `Bearer ${token}` } });
    const missing = await fetch(`${hub.url}/v2/contacts/12345?secret=in-the-url`, { headers: { Authorization: `Bearer ${token}` } });
    const signIn = await fetch(`${hub.url}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('outpost-app:').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'password', username: ADMIN.OUTPOST_ADMIN_EMAIL, password: ADMIN.OUTPOST_ADMIN_PASSWORD }),
    });
    const issued = (await signIn.json()).access_token as string;
    await eventually(() => logLines(hub).filter((line) => line.msg === 'request').length >= 3);
    expect(await stop(hub)).toBe(0);

    const requests = logLines(hub).filter((line) => line.msg === 'request');
    expect(requests).toEqual([
      expect.objectContaining({ level: 30, method: 'GET', route: '/v2/users/self', status: 200, logref: self.headers.get('x-request-id') }),
      expect.objectContaining({ method: 'GET', route: '/v2/contacts/:id', status: 404, logref: missing.headers.get('x-request-id') }),
      expect.objectContaining({ method: 'POST', route: '/oauth2/token', status: 200, logref: signIn.headers.get('x-request-id') }),
    ]);
    for (const line of requests) expect(line.duration_ms).toBeGreaterThanOrEqual(0);
    for (const secret of [token, issued, ADMIN.OUTPOST_ADMIN_PASSWORD, 'in-the-url']) expect(hub.stderr()).not.toContain(secret);
    // stdout keeps its plain lines, which scripts read.
    expect(hub.stdout().split('\n').filter(Boolean)).toEqual([
      'Created the first admin boss@example.com.',
      expect.stringMatching(/^Outpost hub listening on http:\/\/127\.0\.0\.1:\d+ \(data: .+\)$/),
    ]);
  });

  it('takes its level from --log-level, else OUTPOST_LOG_LEVEL, and refuses a level it does not know', async () => {
    const dir = tempDir();
    const quiet = await serve(dir, { ...ADMIN, OUTPOST_LOG_LEVEL: 'warn' });
    await fetch(`${quiet.url}/health`);
    expect(await stop(quiet)).toBe(0);
    expect(logLines(quiet).filter((line) => line.level < 40)).toEqual([]);

    const chatty = await serve(dir, { OUTPOST_LOG_LEVEL: 'warn' }, ['--log-level', 'info']);
    await fetch(`${chatty.url}/health`);
    await eventually(() => logLines(chatty).some((line) => line.route === '/health'));
    expect(await stop(chatty)).toBe(0);
    expect(logLines(chatty).some((line) => line.route === '/health')).toBe(true);

    for (const [args, env] of [[['--log-level', 'loud'], {}], [[], { OUTPOST_LOG_LEVEL: 'verbose' }]] as const) {
      const refused = await outpost(['serve', '--port', '0', '--data-dir', dir, ...args], env);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(/^outpost: --log-level \(or OUTPOST_LOG_LEVEL\) must be one of: fatal, error, warn, info, debug, trace, silent/);
      expect(refused.stderr.split('\n')).toHaveLength(1);
    }
  });

  it('refuses --trust-proxy values that are not addresses, and --workers on SQLite', async () => {
    const dir = tempDir();
    for (const value of ['everyone', '10.0.0.5,', 'true']) {
      const refused = await outpost(['serve', '--port', '0', '--data-dir', dir, '--trust-proxy', value]);
      expect(refused.code, value).toBe(2);
      expect(refused.stderr).toMatch(/--trust-proxy must be the proxies' addresses or CIDR ranges/);
    }
    const workers = await outpost(['serve', '--port', '0', '--data-dir', dir, '--workers', '2']);
    expect(workers.code).toBe(2);
    expect(workers.stderr).toMatch(/--workers is for a hub on PostgreSQL/);
  });
});

/**
 * A socket that has sent a request's headers, with `Expect: 100-continue`,
 * and collects the final answer. It resolves once the server says
 * `100 Continue`, which Node sends as it hands the request to its handler:
 * from then on the request is in flight, its body still to come.
 */
function startRequest(url: string, head: string): Promise<{ socket: Socket; answer: Promise<string> }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(`${head}Expect: 100-continue\r\n\r\n`));
    let text = '';
    const answer = new Promise<string>((done) => socket.on('close', () => done(text.replace(/^HTTP\/1\.1 100 Continue\r\n\r\n/, ''))));
    socket.on('data', (chunk) => {
      text += chunk.toString();
      if (text.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) resolve({ socket, answer });
    });
    socket.on('error', reject);
  });
}

/** Resolves once the port refuses new connections (the server has stopped accepting). */
async function refusesConnections(url: string): Promise<boolean> {
  const { hostname, port } = new URL(url);
  for (let i = 0; i < 50; i++) {
    const refused = await new Promise<boolean>((resolve) => {
      const probe = connect(Number(port), hostname, () => {
        probe.destroy();
        resolve(false);
      });
      probe.on('error', () => resolve(true));
    });
    if (refused) return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

describe('outpost serve on SIGTERM', { timeout: 60_000 }, () => {
  it('stops accepting, lets a request whose body is still arriving finish with its normal answer, then exits 0', async () => {
    const dir = tempDir();
    const hub = await serve(dir, ADMIN);
    const token = await adminToken(dir);
    const body = JSON.stringify({ data: { last_name: 'Sent while stopping' } });
    const head = `POST /v2/contacts HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n`;
    const half = Math.floor(body.length / 2);
    const request = await startRequest(hub.url, head);
    request.socket.write(body.slice(0, half));

    hub.child.kill('SIGTERM');
    expect(await refusesConnections(hub.url)).toBe(true);
    expect(hub.child.exitCode).toBeNull();
    request.socket.write(body.slice(half));

    const answer = await request.answer;
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)).data).toMatchObject({ last_name: 'Sent while stopping' });
    expect(await hub.exited).toBe(0);
    expect(logLines(hub).map((line) => line.msg)).toContain('stopping: no new connections; requests in flight finish first');

    // It was kept: the folder serves it again.
    const again = await serve(dir);
    const list = await fetch(`${again.url}/v2/contacts`, { headers: { Authorization: `Bearer ${token}` } }).then((r) => r.json());
    expect(list.items.map((item: any) => item.data.last_name)).toEqual(['Sent while stopping']);
    expect(await stop(again)).toBe(0);
  });
});
