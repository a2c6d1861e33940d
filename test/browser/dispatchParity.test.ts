import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { createHttpApp } from '../../electron/engine/http/app.js';
import { ManualClock } from '../../electron/engine/clock.js';
import { Replica } from '../../electron/engine/replica/replica.js';
import { hubFetch } from '../../electron/engine/replica/hubFetch.js';
import { buildLocalApi, createDispatcher } from '../../electron/browser/dispatch.js';
import type { RouteHost } from '../../electron/browser/routeHost.js';
import { DESKTOP_API_HOST, toBridgeResponse, toInjectOptions } from '../../electron/desktop/bridgeRequest.js';
import { startTestHub, type TestHub } from '../support/testHub.js';
import type { ApiRequest } from '../../shared/bridge.js';

/**
 * The browser worker's route host (electron/browser/routeHost.ts) against Fastify's inject(), request by
 * request. Each side has its own engine on its own copy of one prepared SQLite file, on one manual clock,
 * so the same writes give the same ids and times: answers are compared whole (status, JSON body, the
 * headers a client reads), but for what must differ between two requests, by name: request ids.
 */

/** A request at the HTTP level, so that what the bridge never sends (no token, broken JSON) is asked too. */
interface Ask {
  method: string;
  url: string;
  token?: string | null;
  headers?: Record<string, string>;
  /** JSON-encoded unless `raw` is given. */
  json?: unknown;
  raw?: string | Uint8Array;
  contentType?: string;
}

interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  body: unknown;
}

/** The response headers clients read (the renderer, the replica, API clients); X-Request-Id only for being there. */
const COMPARED_HEADERS = ['content-type', 'content-disposition', 'content-language', 'www-authenticate', 'retry-after', 'idempotent-replayed', 'location', 'allow', 'cache-control', 'x-content-type-options', 'content-security-policy'];
/** Body fields that differ between two answers of the same request: the request id, and secrets drawn at random by a write. */
const PER_REQUEST_FIELDS = new Set(['logref', 'dropbox_email', 'invite_url']);

function withoutPerRequestFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutPerRequestFields);
  if (typeof value !== 'object' || value === null) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !PER_REQUEST_FIELDS.has(key)).map(([key, child]) => [key, withoutPerRequestFields(child)]));
}

function answerOf(status: number, headers: Record<string, unknown>, text: string): Answer {
  let body: unknown = text;
  if (String(headers['content-type'] ?? '').includes('json') && text !== '') body = JSON.parse(text);
  expect(typeof headers['x-request-id']).toBe('string');
  const compared = Object.fromEntries(COMPARED_HEADERS.map((name) => [name, headers[name] === undefined ? undefined : String(headers[name])]));
  return { status, headers: compared, body: withoutPerRequestFields(body) };
}

function requestOf(ask: Ask): { headers: Record<string, string>; payload?: string | Uint8Array } {
  const headers: Record<string, string> = { host: DESKTOP_API_HOST, accept: 'application/json', ...ask.headers };
  if (ask.token) headers.authorization = `Bearer ${ask.token}`;
  const payload = ask.raw ?? (ask.json === undefined ? undefined : JSON.stringify(ask.json));
  if (payload !== undefined) headers['content-type'] = ask.contentType ?? 'application/json';
  return { headers, payload };
}

async function viaFastify(app: FastifyInstance, ask: Ask): Promise<Answer> {
  const { headers, payload } = requestOf(ask);
  const response = await app.inject({ method: ask.method as 'GET', url: ask.url, headers, payload: payload instanceof Uint8Array ? Buffer.from(payload) : payload });
  return answerOf(response.statusCode, response.headers, response.body);
}

async function viaHost(host: RouteHost, ask: Ask): Promise<Answer> {
  const { headers, payload } = requestOf(ask);
  const response = await host.inject({ method: ask.method, url: ask.url, headers, body: payload });
  return answerOf(response.statusCode, response.headers, response.body);
}

/** One engine per side, both on copies of the prepared data folder. */
interface Pair {
  fastify: { engine: Engine; app: FastifyInstance };
  host: { engine: Engine; host: RouteHost };
  /** Asks both, expects the same answer, returns it. */
  ask(ask: Ask): Promise<Answer>;
}

function pairOf(fastify: Pair['fastify'], host: Pair['host']): Pair {
  return {
    fastify, host,
    async ask(ask) {
      const expected = await viaFastify(fastify.app, ask);
      const actual = await viaHost(host.host, ask);
      expect(actual, `${ask.method} ${ask.url}`).toEqual(expected);
      return expected;
    },
  };
}

const dataOf = (answer: Answer) => (answer.body as { data: Record<string, unknown> }).data;
const idOf = (answer: Answer) => dataOf(answer).id as number;

describe('a plain engine answers the same through the route host as through Fastify', () => {
  const folders: string[] = [];
  const engines: Engine[] = [];
  let pair: Pair;
  let adminToken: string;
  let agentToken: string;

  beforeAll(async () => {
    const prepared = mkdtempSync(join(tmpdir(), 'outpost-parity-'));
    folders.push(prepared);
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const setup = openEngine({ dataDir: prepared, clock });
    const adminId = await setup.users.create({ email: 'admin@example.com', password: 'admin-secret-1', name: 'Ada Admin', role: 'admin' });
    const agentId = await setup.users.create({ email: 'agent@example.com', password: 'agent-secret-1', name: 'Sam Agent', role: 'user' });
    adminToken = setup.tokens.createPersonal(adminId, ['read', 'write', 'profile']);
    agentToken = setup.tokens.createPersonal(agentId, ['read', 'write', 'profile']);
    setup.close();
    const copy = (name: string) => {
      const dataDir = join(prepared, '..', `${prepared.split('/').pop()}-${name}`);
      cpSync(prepared, dataDir, { recursive: true });
      folders.push(dataDir);
      const engine = openEngine({ dataDir, clock });
      engines.push(engine);
      return engine;
    };
    const fastifyEngine = copy('fastify');
    const hostEngine = copy('host');
    pair = pairOf({ engine: fastifyEngine, app: await createHttpApp(fastifyEngine, { rateLimitPerHour: 0 }) }, { engine: hostEngine, host: await buildLocalApi(hostEngine) });
  });

  afterAll(async () => {
    await pair?.fastify.app.close();
    await pair?.host.host.close();
    for (const engine of engines) engine.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  });

  it('authenticates: 401 without a token, with a bad one, on known and unknown paths', async () => {
    expect((await pair.ask({ method: 'GET', url: '/v2/contacts' })).status).toBe(401);
    expect((await pair.ask({ method: 'GET', url: '/v2/contacts', token: 'not-a-token' })).status).toBe(401);
    expect((await pair.ask({ method: 'GET', url: '/v2/no_such_thing' })).status).toBe(401);
    expect((await pair.ask({ method: 'GET', url: '/v2/no_such_thing', token: agentToken })).status).toBe(404);
    expect((await pair.ask({ method: 'GET', url: '/nowhere', token: agentToken })).status).toBe(404);
    expect((await pair.ask({ method: 'GET', url: '/v2/users/self', token: agentToken })).status).toBe(200);
  });

  it('answers contacts: create, list with filters, sort and pages, get, update, delete', async () => {
    const ada = await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, json: { data: { first_name: 'Ada', last_name: 'Löwe', email: 'ada@example.com', tags: ['fair'] } } });
    expect(ada.status).toBe(200);
    await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, json: { data: { first_name: 'Bo', last_name: 'Berg', tags: ['fair', 'gold'] } } });
    await pair.ask({ method: 'POST', url: '/v2/contacts', token: adminToken, json: { data: { name: 'Cisco', is_organization: true } } });
    for (const query of ['', '?sort_by=last_name', '?sort_by=last_name:desc&per_page=1&page=2', '?tags=gold', '?q=Ada+L%C3%B6we', '?per_page=1&per_page=2', '?email=ada@example.com', '?no_such_filter=1']) {
      await pair.ask({ method: 'GET', url: `/v2/contacts${query}`, token: agentToken });
    }
    // Fastify ignores a trailing slash (routerOptions.ignoreTrailingSlash).
    await pair.ask({ method: 'GET', url: '/v2/contacts/', token: agentToken });
    await pair.ask({ method: 'GET', url: `/v2/contacts/${idOf(ada)}`, token: agentToken });
    await pair.ask({ method: 'PUT', url: `/v2/contacts/${idOf(ada)}`, token: agentToken, json: { data: { title: 'Engineer' } } });
    expect((await pair.ask({ method: 'GET', url: '/v2/contacts/999999', token: agentToken })).status).toBe(404);
    expect((await pair.ask({ method: 'GET', url: '/v2/contacts/abc', token: agentToken })).status).toBe(404);
    const doomed = await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, json: { data: { last_name: 'Doomed' } } });
    await pair.ask({ method: 'DELETE', url: `/v2/contacts/${idOf(doomed)}`, token: agentToken });
    expect((await pair.ask({ method: 'GET', url: `/v2/contacts/${idOf(doomed)}`, token: agentToken })).status).toBe(404);
  });

  it('refuses bad requests in the envelope: 422 validation, 400 malformed JSON, 415, a bad URL', async () => {
    const invalid = await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, json: { data: {} } });
    expect(invalid.status).toBe(422);
    expect((await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, raw: '{"data": {' })).status).toBe(400);
    expect((await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, raw: '{"data": {"last_name": "\\u0000"}}' })).status).toBe(422);
    expect((await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, raw: 'last_name=x', contentType: 'text/plain' })).status).toBe(415);
    await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, raw: '   ' });
    await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, raw: 'x'.repeat(1024 * 1024 + 1) });
    await pair.ask({ method: 'GET', url: '/v2/contacts/%zz', token: agentToken });
    await pair.ask({ method: 'GET', url: '/v2/contacts?q=%zz', token: agentToken });
  });

  it('answers deals, notes, tasks and calls', async () => {
    const org = await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, json: { data: { name: 'Greenhouse Ltd', is_organization: true } } });
    const deal = await pair.ask({ method: 'POST', url: '/v2/deals', token: agentToken, json: { data: { name: 'Retrofit', contact_id: idOf(org), value: '1200' } } });
    expect(deal.status).toBe(200);
    await pair.ask({ method: 'GET', url: '/v2/deals?sort_by=value:desc', token: agentToken });
    await pair.ask({ method: 'PUT', url: `/v2/deals/${idOf(deal)}`, token: agentToken, json: { data: { value: '1500' } } });
    await pair.ask({ method: 'GET', url: `/v2/deals/${idOf(deal)}`, token: agentToken });
    const note = await pair.ask({ method: 'POST', url: '/v2/notes', token: agentToken, json: { data: { resource_type: 'deal', resource_id: idOf(deal), content: 'Met on site' } } });
    await pair.ask({ method: 'GET', url: `/v2/notes?resource_type=deal&resource_id=${idOf(deal)}`, token: agentToken });
    await pair.ask({ method: 'PUT', url: `/v2/notes/${idOf(note)}`, token: agentToken, json: { data: { content: 'Met on site, twice' } } });
    await pair.ask({ method: 'DELETE', url: `/v2/notes/${idOf(note)}`, token: agentToken });
    const task = await pair.ask({ method: 'POST', url: '/v2/tasks', token: agentToken, json: { data: { content: 'Send quote', resource_type: 'deal', resource_id: idOf(deal), due_date: '2026-03-05T09:00:00Z' } } });
    await pair.ask({ method: 'GET', url: '/v2/tasks?completed=false', token: agentToken });
    await pair.ask({ method: 'PUT', url: `/v2/tasks/${idOf(task)}`, token: agentToken, json: { data: { completed: true } } });
    await pair.ask({ method: 'GET', url: '/v2/tasks/counts', token: agentToken });
    await pair.ask({ method: 'POST', url: '/v2/calls', token: agentToken, json: { data: { phone_number: '+44 20 7946 0000', associated_deal_ids: [idOf(deal)], made_at: '2026-03-01T09:00:00Z', summary: 'Called' } } });
    await pair.ask({ method: 'GET', url: '/v2/calls', token: agentToken });
    await pair.ask({ method: 'DELETE', url: `/v2/deals/${idOf(deal)}`, token: agentToken });
  });

  it('forbids an agent what only an admin may do (403)', async () => {
    expect((await pair.ask({ method: 'POST', url: '/v2/users', token: agentToken, json: { data: { name: 'X', email: 'x@example.com', role: 'user' } } })).status).toBe(403);
    expect((await pair.ask({ method: 'POST', url: '/v2/users', token: adminToken, json: { data: { name: 'X', email: 'x@example.com', role: 'user' } } })).status).toBe(200);
  });

  it('replays an Idempotency-Key, and refuses it for another request', async () => {
    const headers = { 'idempotency-key': 'parity-1' };
    const first = await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, headers, json: { data: { last_name: 'Once' } } });
    const again = await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, headers, json: { data: { last_name: 'Once' } } });
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, headers, json: { data: { last_name: 'Twice' } } })).status).toBe(422);
    expect((await pair.ask({ method: 'POST', url: '/v2/contacts', token: agentToken, headers: { 'idempotency-key': '' }, json: { data: { last_name: 'Blank key' } } })).status).toBe(400);
  });

  it('answers bulk edits, record search, a report, an export, documents and their download', async () => {
    const listed = await pair.ask({ method: 'GET', url: '/v2/contacts?per_page=3', token: agentToken });
    const ids = (listed.body as { items: { data: { id: number } }[] }).items.map((item) => item.data.id);
    await pair.ask({ method: 'POST', url: '/v2/contacts/bulk', token: agentToken, json: { data: { ids, update: { tags_add: ['bulk'] } } } });
    await pair.ask({ method: 'GET', url: '/v2/search?q=ada&per_page=25', token: agentToken });
    await pair.ask({ method: 'GET', url: '/v2/reports/pipeline', token: agentToken });
    const csv = await pair.ask({ method: 'GET', url: '/v2/contacts/export.csv', token: adminToken });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    await pair.ask({ method: 'GET', url: '/v2/reports/pipeline/export.csv', token: agentToken });
    const uploaded = await pair.ask({ method: 'POST', url: `/v2/documents?resource_type=contact&resource_id=${ids[0]}&name=quote.txt`, token: agentToken, raw: new TextEncoder().encode('the quote'), contentType: 'text/plain' });
    expect(uploaded.status).toBe(200);
    await pair.ask({ method: 'GET', url: '/v2/documents', token: agentToken });
    const link = new URL(dataOf(uploaded).download_url as string);
    const download = await pair.ask({ method: 'GET', url: link.pathname + link.search });
    expect(download.body).toBe('the quote');
    expect((await pair.ask({ method: 'GET', url: `${link.pathname}?expires=1&signature=bad` })).status).toBe(403);
  });

  it('answers the custom-objects interface in its own style', async () => {
    await pair.ask({ method: 'GET', url: '/api/v2/custom_objects' });
    await pair.ask({ method: 'GET', url: '/api/v2/custom_objects.json', token: adminToken });
    await pair.ask({ method: 'GET', url: '/api/v2/no_such_endpoint', token: adminToken });
  });

  it('gives the renderer the same ApiResponse through the worker\'s dispatcher as through the desktop\'s bridge', async () => {
    const dispatcher = await createDispatcher(pair.host.engine, { accessToken: agentToken, host: DESKTOP_API_HOST });
    const requests: ApiRequest[] = [
      { method: 'GET', path: '/v2/contacts', query: { sort_by: 'last_name', per_page: 2, tags: ['fair', 'gold'] } },
      { method: 'POST', path: '/v2/contacts', body: { data: { last_name: 'Bridged' } } },
      { method: 'POST', path: '/v2/contacts', body: { data: {} } },
      { method: 'GET', path: '/v2/contacts/export.csv' },
      { method: 'GET', path: '/v2/nowhere' },
    ];
    for (const request of requests) {
      const expected = toBridgeResponse(await pair.fastify.app.inject(toInjectOptions(request, agentToken)!));
      const actual = await dispatcher.request(request);
      const { requestId: _expectedId, ...expectedRest } = expected;
      const { requestId, ...actualRest } = actual;
      expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
      expect(withoutPerRequestFields(actualRest), `${request.method} ${request.path}`).toEqual(withoutPerRequestFields(expectedRest));
    }
    expect(await dispatcher.request({ method: 'GET', path: '/v2/../etc' })).toEqual({ status: 400, body: null });
    await dispatcher.close();
  });
});

describe('a replica engine answers the same through the route host as through Fastify', () => {
  let hub: TestHub;
  const folders: string[] = [];
  const engines: Engine[] = [];
  const replicas: Replica[] = [];
  let pair: Pair;
  let token: string;
  let hubToken: string;

  beforeAll(async () => {
    hub = await startTestHub();
    hubToken = hub.tokenFor(hub.agentId, ['read', 'write', 'profile', 'sync']);
    await fetch(`${hub.url}/v2/contacts`, { method: 'POST', headers: { authorization: `Bearer ${hub.agentToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ data: { last_name: 'On the hub' } }) });
    const prepared = mkdtempSync(join(tmpdir(), 'outpost-parity-replica-'));
    folders.push(prepared);
    const setup = openEngine({ dataDir: prepared, clock: hub.clock, replica: true });
    const first = new Replica(setup, { hubUrl: hub.url, token: hubToken, fetch: hubFetch });
    expect((await first.sync()).state).toBe('up_to_date');
    token = setup.tokens.createPersonal(hub.agentId, ['read', 'write', 'profile']);
    await first.stop();
    setup.close();
    const copy = (name: string) => {
      const dataDir = `${prepared}-${name}`;
      cpSync(prepared, dataDir, { recursive: true });
      folders.push(dataDir);
      const engine = openEngine({ dataDir, clock: hub.clock, replica: true });
      const replica = new Replica(engine, { hubUrl: hub.url, token: hubToken, fetch: hubFetch });
      engines.push(engine);
      replicas.push(replica);
      return { engine, replica };
    };
    const viaFastify = copy('fastify');
    const viaHost = copy('host');
    pair = pairOf(
      { engine: viaFastify.engine, app: await createHttpApp(viaFastify.engine, { rateLimitPerHour: 0, replica: viaFastify.replica }) },
      { engine: viaHost.engine, host: await buildLocalApi(viaHost.engine, { replica: viaHost.replica }) },
    );
  });

  afterAll(async () => {
    await pair?.fastify.app.close();
    await pair?.host.host.close();
    for (const replica of replicas) await replica.stop();
    for (const engine of engines) engine.close();
    for (const folder of folders) rmSync(folder, { recursive: true, force: true });
    await hub?.close();
  });

  it('answers its own routes: status, ids, issues', async () => {
    expect((await pair.ask({ method: 'GET', url: '/v2/replica/status', token })).status).toBe(200);
    await pair.ask({ method: 'GET', url: '/v2/replica/status?x=1', token });
    await pair.ask({ method: 'GET', url: '/v2/replica/issues', token });
    await pair.ask({ method: 'GET', url: '/v2/replica/ids/contact/-1', token });
    expect((await pair.ask({ method: 'GET', url: '/v2/replica/status' })).status).toBe(401);
  });

  it('writes locally with temporary ids and lists what it holds', async () => {
    await pair.ask({ method: 'GET', url: '/v2/contacts', token });
    const made = await pair.ask({ method: 'POST', url: '/v2/contacts', token, json: { data: { last_name: 'Made offline' } } });
    expect(idOf(made)).toBeLessThan(0);
    await pair.ask({ method: 'POST', url: '/v2/notes', token, json: { data: { resource_type: 'contact', resource_id: idOf(made), content: 'A note' } } });
    await pair.ask({ method: 'PUT', url: `/v2/contacts/${idOf(made)}`, token, json: { data: { title: 'Buyer' } } });
    await pair.ask({ method: 'GET', url: `/v2/contacts/${idOf(made)}`, token });
    await pair.ask({ method: 'GET', url: '/v2/replica/status', token });
  });

  it('refuses the writes it cannot replay on the hub', async () => {
    const refused = await pair.ask({ method: 'POST', url: '/v2/contact/custom_fields', token, json: { data: { name: 'Segment', type: 'string' } } });
    expect(refused.status).toBe(409);
    expect((await pair.ask({ method: 'POST', url: '/v2/oauth_clients', token, json: { data: { name: 'App' } } })).status).toBe(409);
  });

  it('holds writes at its write gate while reads are answered', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    for (const replica of replicas) void replica.writes.holdWhile(held);
    const write: Ask = { method: 'POST', url: '/v2/contacts', token, json: { data: { last_name: 'Waited' } } };
    const answered: string[] = [];
    const fastifyWrite = viaFastify(pair.fastify.app, write).then((answer) => (answered.push('fastify'), answer));
    const hostWrite = viaHost(pair.host.host, write).then((answer) => (answered.push('host'), answer));
    // Reads go on meanwhile, and neither write has been answered once they are.
    await pair.ask({ method: 'GET', url: '/v2/contacts?sort_by=last_name', token });
    expect(answered).toEqual([]);
    release();
    const [expected, actual] = await Promise.all([fastifyWrite, hostWrite]);
    expect(actual).toEqual(expected);
    expect(expected.status).toBe(200);
  });

  it('sends custom objects on to the hub', async () => {
    await pair.ask({ method: 'GET', url: '/api/v2/custom_objects', token });
  });

  it('syncs now through its route: each copy pushes its writes to the hub and follows its records to their hub ids', async () => {
    const synced = await pair.ask({ method: 'POST', url: '/v2/replica/sync', token });
    expect(dataOf(synced).state).toBe('up_to_date');
    // The copies are two devices to the hub (each outbox entry has a key of its own): the offline contact arrives from each.
    const onHub = await fetch(`${hub.url}/v2/contacts?last_name=Made offline`, { headers: { authorization: `Bearer ${hub.agentToken}` } });
    const hubIds = ((await onHub.json()) as { items: { data: { id: number } }[] }).items.map((item) => item.data.id);
    expect(hubIds).toHaveLength(2);
    const followed = [await viaFastify(pair.fastify.app, { method: 'GET', url: '/v2/replica/ids/contact/-1', token }), await viaHost(pair.host.host, { method: 'GET', url: '/v2/replica/ids/contact/-1', token })];
    expect(followed.map((answer) => dataOf(answer).hub_id).sort()).toEqual(hubIds.sort());
  });
});
