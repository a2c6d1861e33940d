import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, codes, fields, startTestHub, type Answer, type TestHub } from '../support/testHub.js';
import { basic, supportCall } from '../support/supportApi.js';

let hub: TestHub;
beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

/** The documented error envelope, its logref the X-Request-Id header. */
function expectEnvelope(answer: { status: number; body: any; headers: Headers }, status: number, code: string) {
  expect(answer.status).toBe(status);
  expect(answer.body.errors[0].error.code).toBe(code);
  expect(answer.body.meta).toMatchObject({ type: 'errors', http_status: expect.stringMatching(new RegExp(`^${status} `)) });
  expect(answer.body.meta.logref).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer.headers.get('x-request-id')).toBe(answer.body.meta.logref);
}

/** Sends bytes on a raw socket and reads until the server closes it (or `until` sees enough). */
function rawExchange(text: string, until?: (received: string) => boolean): Promise<string> {
  const { port } = new URL(hub.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      received += chunk;
      if (until?.(received)) socket.end();
    });
    socket.on('close', () => resolve(received));
    socket.on('error', reject);
  });
}

/** One HTTP/1.1 response from raw text: status, headers (lower-case names) and its JSON body. */
function parseResponse(text: string) {
  const [head, body] = text.split('\r\n\r\n');
  const [statusLine, ...lines] = head.split('\r\n');
  const headers = new Headers(lines.map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()] as [string, string]));
  return { status: Number(statusLine.split(' ')[1]), headers, body: JSON.parse(body) };
}

const postContact = (raw: string | Buffer) =>
  fetch(`${hub.url}/v2/contacts`, { method: 'POST', headers: { Authorization: `Bearer ${hub.adminToken}`, 'Content-Type': 'application/json' }, body: typeof raw === 'string' ? raw : new Uint8Array(raw) })
    .then(async (response): Promise<Answer> => {
      const text = await response.text();
      return { status: response.status, headers: response.headers, body: JSON.parse(text), text };
    });

describe('errors before a route runs, in the envelope', () => {
  it('answers an id too long to name a record 404 not_found, as any other such id', async () => {
    for (const method of ['PUT', 'DELETE', 'GET']) {
      const answer = await call(hub, method, `/v2/contacts/${'9'.repeat(200)}`, { token: hub.adminToken, data: method === 'PUT' ? { last_name: 'X' } : undefined });
      expectEnvelope(answer, 404, 'not_found');
      expect(answer.body.errors[0].error.field).toBe('/id');
      expect(answer.body.errors[0].error.message.length).toBeLessThan(100);
    }
    expectEnvelope(await call(hub, 'DELETE', `/v2/contacts/${'x'.repeat(10_000)}`, { token: hub.adminToken }), 404, 'not_found');
  });

  it('answers a path that is not valid percent-encoding 400 malformed_request', async () => {
    for (const path of ['/v2/contacts/%ZZ', '/v2/con%ZZtacts', '/v2/contacts/%C0']) {
      expectEnvelope(await call(hub, 'GET', path, { token: hub.adminToken }), 400, 'malformed_request');
    }
  });

  it('answers a request line and headers over Node\'s limit 431 in the envelope, then closes the connection', async () => {
    for (const request of [
      `GET /v2/contacts?q=${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: hub\r\n\r\n`,
      `GET /v2/contacts HTTP/1.1\r\nHost: hub\r\nX-Big: ${'b'.repeat(20 * 1024)}\r\n\r\n`,
    ]) {
      const answer = parseResponse(await rawExchange(request));
      expectEnvelope(answer, 431, 'headers_too_large');
      expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(answer.headers.get('connection')).toBe('close');
    }
  });

  it('answers malformed HTTP 400 malformed_request in the envelope', async () => {
    for (const request of [
      'NOT HTTP AT ALL\r\n\r\n',
      'GET /v2/contacts HTTP/1.1\r\nHost: hub\r\nNo colon here\r\n\r\n',
      'POST /v2/contacts HTTP/1.1\r\nHost: hub\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\n',
      'POST /v2/contacts HTTP/1.1\r\nHost: hub\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\nab',
    ]) {
      expectEnvelope(parseResponse(await rawExchange(request)), 400, 'malformed_request');
    }
  });

  it('keeps the connection alive for well-formed requests', async () => {
    const get = `GET /v2/users/self HTTP/1.1\r\nHost: hub\r\nAuthorization: Bearer ${hub.adminToken}\r\n\r\n`;
    const text = await rawExchange(get + get, (received) => received.split('HTTP/1.1 200 OK').length === 3 && received.trimEnd().endsWith('}}'));
    expect(text.split('HTTP/1.1 200 OK')).toHaveLength(3);
  });
});

describe('text that is not sound', () => {
  it('refuses a lone surrogate, NUL and raw invalid UTF-8 with 422 at the field', async () => {
    for (const raw of [
      '{"data":{"last_name":"ab\\ud800cd"}}',
      '{"data":{"last_name":"ab\\udfffcd"}}',
      '{"data":{"last_name":"ab\\u0000cd"}}',
      Buffer.concat([Buffer.from('{"data":{"last_name":"ab'), Buffer.from([0xc3, 0x28, 0xff]), Buffer.from('cd"}}')]),
    ]) {
      const answer = await postContact(raw);
      expectEnvelope(answer, 422, 'incorrect_value');
      expect(fields(answer)).toEqual(['/last_name']);
    }
    expect((await call(hub, 'GET', '/v2/contacts?per_page=100', { token: hub.adminToken })).body.items).toEqual([]);
  });

  it('names every bad string, nested ones and names included, and only those', async () => {
    const bytes = Buffer.concat([
      Buffer.from('{"data":{"last_name":"Ok \\ufffd \uFFFD","first_name":"\\u0000","address":{"city":"R'), Buffer.from([0xe9]),
      Buffer.from('me"},"tags":["fine","\\ud83d"],"x\\u0000":1}}'),
    ]);
    const answer = await postContact(bytes);
    expect(answer.status).toBe(422);
    // Raw invalid bytes are named, not the U+FFFD the client wrote as an escape or as UTF-8.
    expect(fields(answer).sort()).toEqual(['/address/city', '/first_name', '/tags/1', '/x\u0000']);
    const wellFormed = await postContact(Buffer.from('{"data":{"last_name":"Ok \\ufffd \uFFFD","first_name":"\\u0000","tags":["fine","\\ud83d"],"x\\u0000":1}}'));
    expect(fields(wellFormed).sort()).toEqual(['/first_name', '/tags/1', '/x\u0000']);
  });

  it('keeps well-formed text as sent: pairs, U+FFFD, other control characters', async () => {
    const name = 'Ünïcödé 😀 \uFFFD \u0001 \u2028';
    const answer = await postContact(JSON.stringify({ data: { last_name: name } }));
    expect(answer.status).toBe(200);
    expect(answer.body.data.last_name).toBe(name);
  });

  it('refuses a body nested deeper than any route reads with 400 invalid_payload', async () => {
    const deep = `{"data":{"last_name":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    expectEnvelope(await postContact(deep), 400, 'invalid_payload');
  });

  it('answers the custom objects interface in its own style', async () => {
    const answer = await supportCall(hub, 'POST', '/api/v2/custom_objects', {
      auth: basic(ADMIN.email, ADMIN.password), raw: '{"custom_object":{"key":"car","title":"C\\u0000r","title_pluralized":"Cars"}}',
    });
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: 'RecordInvalid', details: { 'custom_object.title': [{ error: 'InvalidValue' }] } });
    const badPath = await supportCall(hub, 'GET', '/api/v2/custom_objects/%ZZ', { auth: basic(ADMIN.email, ADMIN.password) });
    expect([badPath.status, badPath.body]).toEqual([400, {
      error: 'InvalidPayload', description: 'The request path is not a valid URL: each % must start an escape of UTF-8 bytes, such as %20.',
    }]);
  });
});

describe('property names from the client', () => {
  it('keeps the value of a custom field named __proto__ or constructor (one was dropped without a word)', async () => {
    for (const name of ['__proto__', 'constructor']) {
      expect((await call(hub, 'POST', '/v2/lead/custom_fields', { token: hub.adminToken, data: { name, type: 'string' } })).status).toBe(200);
      const raw = `{"data":{"last_name":"Odd field","custom_fields":{${JSON.stringify(name)}:"kept"}}}`;
      const created = await call(hub, 'POST', '/v2/leads', { token: hub.adminToken, raw });
      expect(created.status).toBe(200);
      expect(Object.entries(created.body.data.custom_fields)).toEqual([[name, 'kept']]);
      const filtered = await call(hub, 'GET', `/v2/leads?custom_fields[${name}]=kept`, { token: hub.adminToken });
      expect(filtered.body.items.map((i: any) => i.data.id)).toEqual([created.body.data.id]);
    }
  });

  it('names __proto__ and constructor in a 422 of the custom objects interface like any other property (they were a 500)', async () => {
    const auth = basic(ADMIN.email, ADMIN.password);
    const unknown = await supportCall(hub, 'POST', '/api/v2/custom_objects', {
      auth, raw: '{"custom_object":{"key":"boat","title":"Boat","title_pluralized":"Boats","__proto__":1,"constructor":2}}',
    });
    expect(unknown.status).toBe(422);
    expect(Object.keys(unknown.body.details).sort()).toEqual(['__proto__', 'constructor']);
    const badText = await supportCall(hub, 'POST', '/api/v2/custom_objects', { auth, raw: '{"__proto__":"\\u0000"}' });
    expect(badText.status).toBe(422);
    expect(Object.keys(badText.body.details)).toEqual(['__proto__']);
  });
});

describe('content types', () => {
  const post = (raw: string, contentType?: string) =>
    fetch(`${hub.url}/v2/contacts`, { method: 'POST', headers: { Authorization: `Bearer ${hub.adminToken}`, ...(contentType ? { 'Content-Type': contentType } : {}) }, body: raw })
      .then(async (response) => ({ status: response.status, headers: response.headers, body: await response.json() }));

  it('parses JSON only when the Content-Type says JSON', async () => {
    expect((await post('{"data":{"last_name":"Json"}}', 'application/json; charset=utf-8')).status).toBe(200);
    expect((await post('{"data":{"last_name":"Vendor"}}', 'application/vnd.api+json')).status).toBe(200);
  });

  it('refuses any other non-empty body with 415, JSON-looking or not', async () => {
    for (const [raw, type] of [
      ['{"data":{"last_name":"Plain"}}', 'text/plain;charset=UTF-8'],
      ['data%5Blast_name%5D=Form', 'application/x-www-form-urlencoded'],
      ['<contact/>', 'application/xml'],
      ['{"data":{"last_name":"Untyped"}}', 'application/octet-stream'],
    ]) {
      const answer = await post(raw, type);
      expectEnvelope(answer, 415, 'unsupported_media_type');
      expect(codes(answer as Answer)).toEqual(['unsupported_media_type']);
    }
  });

  it('accepts empty bodies with a form content type, as the official clients send them', async () => {
    const created = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { last_name: 'Emptied' } });
    const form = { raw: '', contentType: 'application/x-www-form-urlencoded', token: hub.adminToken };
    expect((await call(hub, 'DELETE', `/v2/contacts/${created.body.data.id}`, form)).status).toBe(204);
    expect((await call(hub, 'POST', '/v2/users/self/calendar_feed', form)).status).toBe(201);
  });

  it('keeps form bodies on OAuth', async () => {
    const answer = await fetch(`${hub.url}/oauth2/token`, {
      method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded' }, body: 'grant_type=password&client_id=nobody',
    });
    expect(answer.status).toBe(401);
    expect(await answer.json()).toMatchObject({ error: 'invalid_client' });
  });
});
