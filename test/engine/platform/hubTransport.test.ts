import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as nodeSide from '../../../electron/engine/platform/hubTransport.js';
import * as webSide from '../../../electron/engine/platform/hubTransport.web.js';

// Both sides against one real HTTP server (the browser's runs here on Node's fetch): they must answer the replica alike.
const BYTES = Uint8Array.from([0, 1, 2, 250, 255]);
/** "é" is two bytes in UTF-8: the stream sends them in two chunks. */
const E_ACUTE = Buffer.from('é');
const SILENCE_MS = 300;

let server: Server;
let base: string;
let refusedUrl: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/echo') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => {
        response.writeHead(201, { 'Content-Type': 'application/json', 'X-Seen-Method': request.method ?? '' });
        response.end(JSON.stringify({ body, auth: request.headers.authorization ?? null }));
      });
    } else if (request.url === '/bytes') {
      response.writeHead(200, { 'Content-Type': 'application/octet-stream' });
      response.end(BYTES);
    } else if (request.url === '/events') {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write(Buffer.concat([Buffer.from('event: ready\ndata: caf'), E_ACUTE.subarray(0, 1)]));
      setTimeout(() => response.end(Buffer.concat([E_ACUTE.subarray(1), Buffer.from('\n\n')])), 50);
    } else if (request.url === '/silent') {
      response.writeHead(200, { 'Content-Type': 'text/event-stream' });
      response.write('event: ready\ndata: x\n\n');
      // …and nothing more, the connection held open.
    } else {
      response.writeHead(404).end('none');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  refusedUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/`;
  await new Promise((resolve) => closed.close(resolve));
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function collected(stream: nodeSide.HubStream): Promise<string> {
  let text = '';
  for await (const chunk of stream.text) text += chunk;
  return text;
}

describe.each([['Node', nodeSide], ['browser', webSide]] as const)('the hub transport, %s side', (_name, side) => {
  it('sends the method, headers and body, and reads status, headers and JSON', async () => {
    const answer = await side.hubRequest(`${base}/echo`, { method: 'POST', headers: { Authorization: 'Bearer t' }, body: 'a=1' });
    expect([answer.status, answer.ok, answer.headers.get('X-Seen-Method')]).toEqual([201, true, 'POST']);
    expect(await answer.json()).toEqual({ body: 'a=1', auth: 'Bearer t' });
  });

  it('gives a body\'s bytes as they came, and a refusal\'s status', async () => {
    expect(new Uint8Array(await (await side.hubRequest(`${base}/bytes`)).bytes())).toEqual(BYTES);
    const missing = await side.hubRequest(`${base}/nothing`);
    expect([missing.status, missing.ok, await missing.text()]).toEqual([404, false, 'none']);
  });

  it('rejects with an error it counts as "not reached" when the connection is refused', async () => {
    const refused = await side.hubRequest(refusedUrl).catch((err: unknown) => err);
    expect(side.isTransportError(refused)).toBe(true);
    expect(side.isTransportError(new Error('a bug'))).toBe(false);
  });

  it('streams text as it comes, keeping a character split between chunks whole', async () => {
    const stream = await side.openHubStream(`${base}/events`, { Accept: 'text/event-stream' }, new AbortController().signal, SILENCE_MS);
    expect(stream.status).toBe(200);
    expect(await collected(stream)).toBe('event: ready\ndata: café\n\n');
  });

  it('ends a stream in error when the hub falls silent', async () => {
    const stream = await side.openHubStream(`${base}/silent`, {}, new AbortController().signal, SILENCE_MS);
    await expect(collected(stream)).rejects.toThrow();
  });

  it('ends a stream in error when it is aborted', async () => {
    const abort = new AbortController();
    const stream = await side.openHubStream(`${base}/silent`, {}, abort.signal, 60_000);
    const reading = collected(stream);
    abort.abort();
    await expect(reading).rejects.toThrow();
  });
});
