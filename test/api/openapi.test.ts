import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Validator } from '@seriousme/openapi-schema-validator';
import { ADMIN, call, codes, startTestHub, type TestHub } from '../support/testHub.js';
import { decide, openConsent } from '../support/consentForm.js';
import { FIRST_PARTY_CLIENT_ID } from '../../shared/oauth.js';
import { PLANS, PLAN_LIMITS } from '../../shared/resources/account.js';
import { bearer, supportCall } from '../support/supportApi.js';
import { OpenApiChecker, recordAnswerMismatches, stopRecordingAnswerMismatches, type Mismatch } from '../support/openapiCheck.js';
import { openApiDocument } from '../../electron/engine/openapi/document.js';
import { REFERENCE_PAGE_POLICY } from '../../electron/engine/openapi/page.js';

/**
 * The OpenAPI document: valid OpenAPI 3.1, describing every route
 * the hub registers, served publicly with a reference page, and agreeing with
 * the hub's real answers: a sweep over every resource records any answer the
 * document does not describe (test/support/openapiCheck.ts), and must record none.
 */
let hub: TestHub;
let webRoot: string;
let document: Record<string, any>;

beforeAll(async () => {
  // A web root (empty: no build) so the web UI's routes are registered too, as on a served hub.
  webRoot = mkdtempSync(join(tmpdir(), 'outpost-openapi-web-'));
  hub = await startTestHub({ webRoot });
  document = (await call(hub, 'GET', '/v2/openapi.json')).body;
});

afterAll(async () => {
  await hub?.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('the OpenAPI document', () => {
  it('is valid OpenAPI 3.1 (the specification\'s own schema) and each of its schemas compiles', async () => {
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const checker = new OpenApiChecker(document);
    // A known answer through every part of the checker: the schemas resolve.
    expect(checker.check({ method: 'GET', path: '/v2/contacts/1', status: 404, contentType: 'application/json', text: '{}', body: {} })).toMatch(/does not match/);
  });

  it('describes every route the hub registers (a route the generator cannot describe fails here)', () => {
    const { undescribed } = openApiDocument(hub.engine, hub.app.routeList, '2');
    expect(undescribed).toEqual([]);
    const operations = Object.values(document.paths).flatMap((item: any) => Object.keys(item));
    expect(operations.length).toBeGreaterThan(150);
    for (const path of ['/v2/contacts', '/v2/contacts/{id}', '/v2/sync/start', '/api/v2/custom_objects/{custom_object_key}/records/{id}', '/oauth2/token']) {
      expect(document.paths[path], path).toBeDefined();
    }
  });

  it('takes request bodies from the field tables: writable fields, zod\'s constraints, meta.base on updates', () => {
    const create = document.paths['/v2/contacts'].post.requestBody.content['application/json'].schema;
    const update = document.paths['/v2/contacts/{id}'].put.requestBody.content['application/json'].schema;
    const data = create.properties.data;
    expect(data.additionalProperties).toBe(false);
    expect(data.properties.customer_status.enum).toEqual(['none', 'current', 'past']);
    expect(data.properties.description.anyOf[0].maxLength).toBe(65535);
    expect(data.properties.id.readOnly).toBe(true);
    expect(Object.keys(create.properties.meta.anyOf[0].properties)).toEqual(['type', 'written_at']);
    expect(Object.keys(update.properties.meta.anyOf[0].properties)).toEqual(['type', 'written_at', 'base']);
    // is_organization is create-only.
    expect(update.properties.data.properties.is_organization).toBeUndefined();
    const list = document.paths['/v2/contacts'].get.parameters.map((p: any) => p.name ?? p.$ref);
    expect(list).toEqual(expect.arrayContaining(['per_page', 'sort_by', 'owner_id', 'is_organization']));
    expect(document.components.securitySchemes.oauth2.flows.authorizationCode.scopes).toHaveProperty('sync');
    expect(document.paths['/v2/sync/start'].post.security).toEqual([{ bearerToken: ['sync'] }, { oauth2: ['sync'] }]);
  });

  it('is public and read-only, with a reference page that needs no script and nothing from elsewhere', async () => {
    expect((await call(hub, 'GET', '/v2/openapi.json', { token: null })).status).toBe(200);
    expect((await call(hub, 'POST', '/v2/openapi.json', { token: null })).status).toBe(401);
    const page = await fetch(`${hub.url}/docs/api/reference`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toBe(REFERENCE_PAGE_POLICY);
    const html = await page.text();
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<link rel="stylesheet" href="/docs/api/reference.css">');
    expect(html).not.toMatch(/(src|href)="https?:/);
    expect(html).toContain('/v2/contacts/{id}');
    const css = await fetch(`${hub.url}/docs/api/reference.css`);
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
  });
});

describe('the hub\'s answers agree with the document', () => {
  let mismatches: Mismatch[];
  beforeAll(() => {
    mismatches = recordAnswerMismatches();
  });
  afterAll(() => stopRecordingAnswerMismatches());

  const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
  const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });

  /** Create, list, retrieve, update and delete one record; returns its id (kept when `keep`). */
  async function roundTrip(base: string, create: Record<string, unknown>, update: Record<string, unknown>, as = agent, keep = false): Promise<number> {
    const made = await as('POST', base, create);
    expect(made.status, `POST ${base}: ${made.text}`).toBe(200);
    const id = made.body.data.id as number;
    expect((await as('GET', `${base}?per_page=2&count=true`)).status).toBe(200);
    expect((await as('GET', `${base}/${id}`)).status).toBe(200);
    const changed = await as('PUT', `${base}/${id}`, update);
    expect(changed.status, `PUT ${base}: ${changed.text}`).toBe(200);
    if (!keep) expect((await as('DELETE', `${base}/${id}`)).status).toBe(204);
    return id;
  }

  it('sweeps every resource: create, list, retrieve, update, delete, and the errors', async () => {
    await admin('PUT', '/v2/accounts/self', { plan: 'elite', commerce_changes: 'enabled' });
    const contact = await roundTrip('/v2/contacts', { last_name: 'Lovelace', first_name: 'Ada', tags: ['vip'], address: { city: 'London' } }, { title: 'Countess' }, agent, true);
    const organization = await roundTrip('/v2/contacts', { is_organization: true, name: 'Analytical Engines' }, { website: 'https://example.com' }, agent, true);
    await roundTrip('/v2/leads', { last_name: 'Babbage', organization_name: 'Engines' }, { status: 'Working' });
    const deal = await roundTrip('/v2/deals', { name: 'Engine', contact_id: contact }, { hot: true, customized_win_likelihood: 40 }, agent, true);
    await roundTrip('/v2/tasks', { content: 'Call Ada', due_date: '2026-03-03T10:00:00+01:00', resource_type: 'contact', resource_id: contact }, { completed: true });
    await roundTrip('/v2/notes', { content: 'Met', resource_type: 'deal', resource_id: deal }, { is_important: true });
    await roundTrip('/v2/calls', { phone_number: '+44 1', summary: 'Talked', associated_deal_ids: [deal], made_at: '2026-03-01T09:00:00Z' }, { duration: 60 });
    await roundTrip('/v2/tags', { name: 'prospect', resource_type: 'contact' }, { name: 'prospects' });
    const pipeline = await roundTrip('/v2/pipelines', { name: 'Partners' }, { name: 'Partner deals' }, admin, true);
    await roundTrip('/v2/stages', { name: 'Talking', pipeline_id: pipeline, category: 'incoming', position: 1, likelihood: 10 }, { likelihood: 20 }, admin);
    for (const base of ['/v2/call_outcomes', '/v2/visit_outcomes', '/v2/loss_reasons', '/v2/deal_unqualified_reasons', '/v2/lead_unqualified_reasons']) {
      await roundTrip(base, { name: `Entry of ${base}` }, { name: `Changed entry of ${base}` }, admin);
    }
    for (const [base, kind] of [['/v2/lead_sources', undefined], ['/v2/deal_sources', undefined], ['/v2/sources', 'deal']] as const) {
      await roundTrip(base, { name: `Source of ${base}`, ...(kind ? { resource_type: kind } : {}) }, { name: `Changed source of ${base}` });
    }
    await roundTrip('/v2/email_templates', { name: 'Hello', subject: 'Hi', body: 'Hello {{first_name}}' }, { subject: 'Hello' }, admin);
    const sequence = (await admin('POST', '/v2/sequences', { name: 'Welcome' })).body.data.id;
    expect((await agent('GET', '/v2/sequences')).status).toBe(200);
    const enrollment = await agent('POST', '/v2/sequence_enrollments', { sequence_id: sequence, resource_type: 'contact', resource_id: contact });
    for (const path of ['/v2/sequence_enrollments', `/v2/sequences/${sequence}`]) await agent('GET', path);
    if (enrollment.status === 200) {
      await agent('GET', `/v2/sequence_enrollments/${enrollment.body.data.id}`);
      await agent('PUT', `/v2/sequence_enrollments/${enrollment.body.data.id}`, { state: 'paused' });
    }
    const collaboration = await admin('POST', '/v2/collaborations', { resource_type: 'contact', resource_id: contact, collaborator_id: hub.agentId });
    await admin('GET', `/v2/collaborations/${collaboration.body.data?.id ?? 1}`);
    expect((await admin('PUT', `/v2/collaborations/${collaboration.body.data?.id ?? 1}`, {})).status).toBe(405);
    const visit = await agent('POST', '/v2/visits', { resource_type: 'contact', resource_id: contact, summary: 'Visited' });
    expect(visit.status).toBe(200);
    await agent('GET', `/v2/visits/${visit.body.data.id}`);
    const associated = await agent('POST', `/v2/deals/${deal}/associated_contacts`, { contact_id: organization, role: 'involved' });
    expect(associated.status).toBe(200);
    await agent('GET', `/v2/deals/${deal}/associated_contacts`);
    await agent('GET', '/v2/associated_contacts');
    expect((await agent('DELETE', `/v2/deals/${deal}/associated_contacts/${organization}`)).status).toBe(204);
    const product = await roundTrip('/v2/products', { name: 'Gear', sku: 'G-1', prices: [{ amount: '10.00', currency: 'USD' }] }, { active: false }, admin, true);
    const order = await roundTrip('/v2/orders', { deal_id: deal }, { discount: '5' }, agent, true);
    const item = await agent('POST', `/v2/orders/${order}/line_items`, { product_id: product, quantity: 2 });
    for (const path of [`/v2/orders/${order}/line_items`, `/v2/orders/${order}/line_items/${item.body.data?.id ?? 1}`, '/v2/line_items']) await agent('GET', path);
    const lead = (await agent('POST', '/v2/leads', { first_name: 'Grace', last_name: 'Hopper', organization_name: 'Navy' })).body.data.id;
    expect((await agent('POST', '/v2/lead_conversions', { lead_id: lead })).status).toBe(200);
    await agent('GET', '/v2/lead_conversions');

    // Errors: no token, an unknown record, bad fields, an unknown filter, an unknown path, a bad body.
    expect((await call(hub, 'GET', '/v2/contacts')).status).toBe(401);
    expect((await agent('GET', '/v2/contacts/999999')).status).toBe(404);
    expect((await agent('POST', '/v2/contacts', { last_name: 5, nickname: 'x' })).status).toBe(422);
    expect((await agent('GET', '/v2/contacts?colour=red')).status).toBe(400);
    expect((await agent('GET', '/v2/no_such_things')).status).toBe(404);
    expect((await call(hub, 'POST', '/v2/notes', { token: hub.agentToken, raw: 'not json', contentType: 'text/plain' })).status).toBe(415);
    expect((await agent('DELETE', '/v2/pipelines/1')).status).toBe(403);

    // Every documented read without a path parameter, as an admin: whatever it answers must be documented.
    for (const [path, item] of Object.entries(document.paths) as [string, any][]) {
      if (!item.get || path.includes('{') || !path.startsWith('/v2/') || path === '/v2/sync/events') continue;
      await admin('GET', path);
    }
    expect(mismatches).toEqual([]);
  });

  it('sweeps the sync protocol: start, a queue page, acknowledge, nothing left', async () => {
    const token = hub.tokenFor(hub.agentId, ['read', 'write', 'sync']);
    const headers = { 'X-Service-Device-UUID': randomUUID() };
    await call(hub, 'POST', '/v2/contacts', { token, data: { last_name: 'Synced' } });
    const started = await call(hub, 'POST', '/v2/sync/start', { token, headers });
    expect(started.status).toBe(201);
    const queue = new URL(started.body.data.queues[0].meta.links.self).pathname;
    const page = await call(hub, 'GET', queue, { token, headers });
    expect(page.status).toBe(200);
    const keys = page.body.items.map((item: any) => item.meta.sync.ack_key);
    expect((await call(hub, 'POST', '/v2/sync/ack', { token, headers, data: { ack_keys: keys } })).status).toBe(202);
    expect((await call(hub, 'GET', queue, { token, headers })).status).toBe(204);
    expect((await call(hub, 'POST', '/v2/sync/start', { token })).status).toBe(400);
    expect((await call(hub, 'POST', '/v2/sync/start', { token: hub.agentToken, headers })).status).toBe(403);
    expect(mismatches).toEqual([]);
  });

  it('sweeps a custom object under /api/v2: object, field, records, and its errors', async () => {
    const auth = bearer(hub.adminToken);
    const api = (method: string, path: string, body?: unknown) => supportCall(hub, method, path, { auth, body });
    expect((await api('POST', '/api/v2/custom_objects', { custom_object: { key: 'vehicle', title: 'Vehicle', title_pluralized: 'Vehicles' } })).status).toBe(201);
    expect((await api('POST', '/api/v2/custom_objects/vehicle/fields', { custom_object_field: { key: 'plate', type: 'text', title: 'Plate' } })).status).toBe(201);
    const record = await api('POST', '/api/v2/custom_objects/vehicle/records', { custom_object_record: { name: 'Van', custom_object_fields: { plate: 'AB-123' } } });
    expect(record.status).toBe(201);
    const id = record.body.custom_object_record.id;
    for (const path of ['/api/v2/custom_objects', '/api/v2/custom_objects/vehicle.json', '/api/v2/custom_objects/vehicle/fields', '/api/v2/custom_objects/vehicle/fields/plate',
      '/api/v2/custom_objects/vehicle/limits/field_limit', '/api/v2/custom_objects/vehicle/records?page[size]=1', '/api/v2/custom_objects/vehicle/records/search?query=van',
      '/api/v2/custom_objects/vehicle/records/count', `/api/v2/custom_objects/vehicle/records/${id}`]) {
      expect((await api('GET', path)).status, path).toBe(200);
    }
    expect((await api('PATCH', `/api/v2/custom_objects/vehicle/records/${id}`, { custom_object_record: { name: 'Truck' } })).status).toBe(200);
    expect((await api('PATCH', '/api/v2/custom_objects/vehicle/fields/plate', { custom_object_field: { title: 'Number plate' } })).status).toBe(200);
    expect((await api('PATCH', '/api/v2/custom_objects/vehicle', { custom_object: { description: 'Fleet' } })).status).toBe(200);
    expect((await api('POST', '/api/v2/custom_objects/vehicle/records', { custom_object_record: { name: '' } })).status).toBe(422);
    expect((await api('GET', '/api/v2/custom_objects/boat')).status).toBe(404);
    expect((await api('DELETE', '/api/v2/custom_objects')).status).toBe(405);
    expect((await api('GET', '/api/v2/nowhere')).status).toBe(404);
    expect((await supportCall(hub, 'GET', '/api/v2/custom_objects', { auth: null })).status).toBe(401);
    expect((await api('DELETE', `/api/v2/custom_objects/vehicle/records/${id}`)).status).toBe(204);
    expect((await api('DELETE', '/api/v2/custom_objects/vehicle/fields/plate')).status).toBe(204);
    expect((await api('DELETE', '/api/v2/custom_objects/vehicle')).status).toBe(204);
    expect(mismatches).toEqual([]);
  });

  it('catches an answer the document does not describe', () => {
    const checker = new OpenApiChecker(document);
    const contact = { data: { id: 1, last_name: 7 }, meta: { type: 'contact' } };
    expect(checker.check({ method: 'GET', path: '/v2/contacts/1', status: 200, contentType: 'application/json', text: '{}', body: contact })).toMatch(/does not match/);
    expect(checker.check({ method: 'GET', path: '/v2/contacts/1', status: 201, contentType: 'application/json', text: '{}', body: {} })).toMatch(/not a documented answer/);
    expect(checker.check({ method: 'DELETE', path: '/v2/contacts/1', status: 204, contentType: null, text: 'x', body: 'x' })).toMatch(/without a body/);
  });
});

/**
 * Facts the document states that the generator cannot take from a table:
 * each is checked against what the hub really does, so the document and the
 * code cannot drift apart unnoticed.
 */
describe('the document\'s statements hold against the hub', () => {
  const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
  const paramOf = (p: any): any => (p.$ref ? document.components.parameters[String(p.$ref).split('/').pop()!] : p);
  const queryParams = (path: string): Record<string, any> =>
    Object.fromEntries((document.paths[path].get.parameters ?? []).map(paramOf).filter((p: any) => p.in === 'query').map((p: any) => [p.name, p]));

  it('gives every list its true page and per_page limits, and sort_by only where a sort is taken', async () => {
    const limits: Record<string, { page?: number; perPage: number }> = {};
    for (const [path, item] of Object.entries(document.paths) as [string, any][]) {
      if (!item.get || path.includes('{') || !path.startsWith('/v2/')) continue;
      const params = queryParams(path);
      if (!params.page || !params.per_page) continue;
      const page: number | undefined = params.page.schema.maximum;
      const perPage: number = params.per_page.schema.maximum;
      limits[path] = { page, perPage };
      // The parameters a list requires, with a value the document offers (documents: resource_type and resource_id).
      const required = Object.values(params).filter((p: any) => p.required).map((p: any) => `${p.name}=${p.schema.examples?.[0] ?? p.schema.enum?.[0] ?? 1}&`).join('');
      const get = async (query: string) => {
        const answer = await admin('GET', `${path}?${required}${query}`);
        return [answer.status, answer.status === 400 ? codes(answer) : []];
      };
      expect(await get(`per_page=${perPage}`), `${path} per_page=${perPage}`).toEqual([200, []]);
      expect(await get(`per_page=${perPage + 1}`), `${path} per_page=${perPage + 1}`).toEqual([400, ['invalid_param']]);
      if (page === undefined) {
        expect(await get('page=100000'), `${path}: no page limit`).toEqual([200, []]);
      } else {
        expect(await get(`page=${page}`), `${path} page=${page}`).toEqual([200, []]);
        expect(await get(`page=${page + 1}`), `${path} page=${page + 1}`).toEqual([400, ['invalid_param']]);
      }
      if (!params.sort_by) expect(await get('sort_by=id'), `${path}: no sort_by`).toEqual([400, ['invalid_param']]);
    }
    // The lists with their own limits are among those checked.
    expect(limits).toMatchObject({
      '/v2/calls': { page: 1000, perPage: 100 },
      '/v2/text_messages': { page: 1000, perPage: 100 },
      '/v2/visits': { page: 100, perPage: 100 },
      '/v2/lead_conversions': { page: 50, perPage: 200 },
      '/v2/orders': { page: undefined, perPage: 500 },
      '/v2/contacts': { page: undefined, perPage: 100 },
    });
    // A list's required parameters are documented as required: without them, 400.
    expect(codes(await admin('GET', '/v2/documents'))).toEqual(['invalid_param']);
    expect(Object.values(queryParams('/v2/documents')).filter((p: any) => p.required).map((p: any) => p.name).sort()).toEqual(['resource_id', 'resource_type']);
  });

  it('lead conversions: past the page limit by the cursor next_page carries', async () => {
    const params = queryParams('/v2/lead_conversions');
    expect(params.cursor?.schema).toEqual({ type: 'string' });
    expect(params.filters).toBeUndefined();
    for (const name of ['A', 'B']) {
      const lead = (await admin('POST', '/v2/leads', { last_name: `Cursor ${name}` })).body.data.id;
      expect((await admin('POST', '/v2/lead_conversions', { lead_id: lead })).status).toBe(200);
    }
    const first = await admin('GET', '/v2/lead_conversions?per_page=1');
    const next = new URL(first.body.meta.links.next_page);
    expect(next.searchParams.get('cursor')).toBeTruthy();
    const second = await admin('GET', `${next.pathname}${next.search}`);
    expect(second.status).toBe(200);
    expect(second.body.items[0].data.id).toBeLessThan(first.body.items[0].data.id);
    const cursor = next.searchParams.get('cursor')!;
    expect(codes(await admin('GET', `/v2/lead_conversions?cursor=${cursor}&page=2`))).toEqual(['invalid_param']);
    expect(codes(await admin('GET', '/v2/lead_conversions?cursor=not-ours'))).toEqual(['invalid_param']);
  });

  it('search: one page of at most per_page\'s maximum, no other parameter', async () => {
    const params = queryParams('/v2/search');
    expect(Object.keys(params).sort()).toEqual(['per_page', 'q']);
    const max: number = params.per_page.schema.maximum;
    expect((await admin('GET', `/v2/search?q=a&per_page=${max}`)).status).toBe(200);
    expect(codes(await admin('GET', `/v2/search?q=a&per_page=${max + 1}`))).toEqual(['invalid_param']);
    expect(codes(await admin('GET', '/v2/search?q=a&page=1'))).toEqual(['invalid_param']);
  });

  it('GET /oauth2/authorize: every documented response_type is taken (token by registered applications only), no other', async () => {
    const authorize = document.paths['/oauth2/authorize'];
    const responseTypes: string[] = authorize.get.parameters.find((p: any) => p.name === 'response_type').schema.enum;
    expect(responseTypes).toEqual(['code', 'token']);
    expect(document.components.securitySchemes.oauth2.flows.implicit.authorizationUrl).toBe('/oauth2/authorize');
    const redirect = 'https://addon.example/callback';
    const app = (await admin('POST', '/v2/oauth_clients', { name: 'Add-on', redirect_uri: redirect })).body.data;
    for (const responseType of responseTypes) {
      const page = await openConsent(hub.url, { response_type: responseType, client_id: app.client_id, redirect_uri: redirect });
      expect(page.response.status, responseType).toBe(200);
    }
    const refused = async (params: Record<string, string>) => {
      const { response } = await openConsent(hub.url, { client_id: app.client_id, redirect_uri: redirect, ...params });
      expect(response.status).toBe(302);
      const location = new URL(response.headers.get('location')!);
      return new URLSearchParams(location.hash.slice(1) || location.search).get('error');
    };
    expect(await refused({ response_type: 'id_token' })).toBe('unsupported_response_type');
    // The built-in app never gets the implicit grant, as the parameter's description says.
    expect(authorize.get.parameters.find((p: any) => p.name === 'response_type').description).toContain('unauthorized_client');
    const builtIn = await openConsent(hub.url, { response_type: 'token', client_id: FIRST_PARTY_CLIENT_ID, redirect_uri: 'http://127.0.0.1:4000/oauth/callback' });
    expect(builtIn.response.status).toBe(302);
    expect(new URLSearchParams(new URL(builtIn.response.headers.get('location')!).hash.slice(1)).get('error')).toBe('unauthorized_client');

    // The consent form comes back only with an error status: a wrong password is the documented 401, never a 200.
    const form = await openConsent(hub.url, { response_type: 'code', client_id: app.client_id, redirect_uri: redirect });
    const wrong = await decide(hub.url, form, 'approve', { email: ADMIN.email, password: 'not the password' });
    expect(wrong.response.status).toBe(401);
    expect(Object.keys(authorize.post.responses)).toContain('401');
    expect(Object.keys(authorize.post.responses)).not.toContain('200');
  });

  it('POST /v2/oauth_clients: the body the document gives is the one the route takes', async () => {
    const body = document.paths['/v2/oauth_clients'].post.requestBody.content['application/json'].schema.properties.data;
    expect(Object.keys(body.properties).sort()).toEqual(['name', 'public', 'redirect_uri']);
    expect(body.properties.public.type).toBe('boolean');
    expect(body.required).toEqual(['name', 'redirect_uri']);
    expect(body.additionalProperties).toBe(false);
    const post = (data: Record<string, unknown>) => admin('POST', '/v2/oauth_clients', data);
    const made = await post({ name: 'Native', redirect_uri: 'http://127.0.0.1/cb', public: true });
    expect(made.status).toBe(200);
    expect(made.body.data).toMatchObject({ public: true, client_secret: null });
    expect(codes(await post({ name: 'Native', redirect_uri: 'http://127.0.0.1/cb', public: 'yes' }))).toEqual(['invalid_type']);
    expect(codes(await post({ name: 'Native', redirect_uri: 'http://127.0.0.1/cb', secret: 'mine' }))).toEqual(['unknown']);
    expect(codes(await post({ redirect_uri: 'http://127.0.0.1/cb' }))).toEqual(['missing']);
  });

  it('bearerToken names the CLI command that really makes a personal access token, as the guide does', () => {
    const description: string = document.components.securitySchemes.bearerToken.description;
    const [, command, sub] = /`outpost (\w+) (\w+)`/.exec(description) ?? [];
    expect([command, sub]).toEqual(['tokens', 'create']);
    const cli = readFileSync(new URL('../../electron/engine/cli.ts', import.meta.url), 'utf8');
    expect(cli).toContain(`command === '${command}' && sub === '${sub}'`);
    expect(readFileSync(new URL('../../docs/api.md', import.meta.url), 'utf8')).toContain(`outpost ${command} ${sub}`);
  });

  it('products, orders and line items: the status and code the document names are the ones the hub answers', async () => {
    const commercePlans = PLANS.filter((p) => PLAN_LIMITS[p].commerce);
    const without = PLANS.find((p) => !PLAN_LIMITS[p].commerce)!;
    try {
      for (const path of ['/v2/products', '/v2/orders', '/v2/line_items', '/v2/orders/{order_id}/line_items']) {
        const description: string = document.paths[path].get.description;
        expect(description, path).not.toMatch(/`404`/);
        for (const plan of commercePlans) expect(description, path).toContain(`\`${plan}\``);
        const said = [...description.matchAll(/`(\d{3}) (\w+)`/g)].map(([, status, code]) => [Number(status), [code]]);
        expect(said.length, path).toBeGreaterThan(0);
        const real = path.replace('{order_id}', '1');
        expect((await admin('PUT', '/v2/accounts/self', { plan: without })).status).toBe(200);
        const off = await admin('GET', real);
        for (const stated of said) expect([off.status, codes(off)], `${path} on ${without}`).toEqual(stated);
        expect((await admin('PUT', '/v2/accounts/self', { plan: commercePlans[0], commerce_changes: 'disabled' })).status).toBe(200);
        expect((await admin('GET', real)).status, `${path} read while changes are off`).not.toBe(403);
        const write = await admin('POST', real, {});
        for (const stated of said) expect([write.status, codes(write)], `${path} written while changes are off`).toEqual(stated);
        expect((await admin('PUT', '/v2/accounts/self', { commerce_changes: 'enabled' })).status).toBe(200);
      }
    } finally {
      await admin('PUT', '/v2/accounts/self', { plan: 'elite', commerce_changes: 'enabled' });
    }
  });
});
