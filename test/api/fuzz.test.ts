import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type Answer, type TestHub } from '../support/testHub.js';
import { SCOPES } from '../../shared/oauth.js';

/**
 * Hostile input on every write route the app registers: no answer may be a
 * 5xx, every refusal is in its interface's error format with the request
 * id, and the hub still serves afterwards. Replay a run with
 * FUZZ_SEED=<the printed seed> (FUZZ_RUNS=<n> for a longer one).
 */
const SEED = Number(process.env.FUZZ_SEED ?? 20260302);
const RUNS_PER_ROUTE = Number(process.env.FUZZ_RUNS ?? 24);
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const DEVICE = randomUUID();

/** Names the resources read, so values reach their validators rather than stopping at `unknown`. */
const FIELD_NAMES = [
  'name', 'first_name', 'last_name', 'organization_name', 'title', 'description', 'email', 'phone', 'mobile', 'website', 'industry',
  'is_organization', 'contact_id', 'parent_organization_id', 'owner_id', 'address', 'billing_address', 'shipping_address', 'customer_status',
  'prospect_status', 'status', 'source_id', 'unqualified_reason_id', 'tags', 'custom_fields', 'value', 'currency', 'hot', 'stage_id',
  'organization_id', 'loss_reason_id', 'estimated_close_date', 'customized_win_likelihood', 'added_on', 'pipeline_id', 'category', 'position',
  'likelihood', 'active', 'disabled', 'content', 'due_date', 'remind_at', 'completed', 'resource_type', 'resource_id', 'is_important',
  'phone_number', 'duration', 'incoming', 'missed', 'outcome_id', 'made_at', 'summary', 'visited_at', 'subject', 'body', 'steps',
  'action_type', 'action_properties', 'delay_from_previous_step', 'sequence_id', 'user_id', 'collaborator_id', 'deal_id', 'lead_id',
  'role', 'product_id', 'quantity', 'variation', 'prices', 'price', 'sku', 'max_discount', 'max_markup', 'cost', 'cost_currency', 'order_id',
  'discount', 'type', 'choices', 'ack_keys', 'redirect_uri', 'public', 'delay_from_previous_step_unit', 'unsubscribe_settings', 'email_template_id', 'csv', 'vcard', 'mapping', 'create_deal', 'associated_deal_ids', 'timezone',
  'time_format', 'key', 'title_pluralized', 'properties', 'field_keys',
];

/** JSON texts a well-behaved client never sends (as text, so 1e309 and -0 reach the server as written). */
const NASTY_JSON = [
  '1e309', '-1e309', '-0', '1e-400', '123456789012345678901234567890', '-1', '0', '2147483648', '9007199254740993', '0.1', '-0.0000001',
  'true', 'false', 'null', '[]', '{}', '[null]', '[{}]', '[[]]', '"NaN"', '"Infinity"', '"-0"', '"1e309"', '"-1"', '"0x10"', '"1.5"', '""', '" "',
  '"2026-02-30"', '"2026-03-02T25:61:00Z"', '"9999-12-31T23:59:59Z"', '"0000-01-01"', '"+275760-09-13T00:00:00Z"', '"2026-03-02T10:00:00+99:99"',
  '"\\ud800"', '"ab\\udc00"', '"\\u0000"', '"\\ufeff"', '"\\u202e\\u0301"', '"🏳️‍🌈"', '"İı"', '"%s%n"', '"\'; DROP TABLE contacts; --"', '"* OR 1=1"',
  '{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"toString":1,"hasOwnProperty":2}', '["__proto__"]',
  `"${'x'.repeat(300_000)}"`, `"${'é'.repeat(70_000)}"`, `[${Array(20_000).fill('1').join(',')}]`, `${'['.repeat(40)}${']'.repeat(40)}`,
  `${'{"a":'.repeat(2_000)}1${'}'.repeat(2_000)}`, '[1,"a",null,{},[]]', '{"line1":{"x":1},"city":[]}', '{"":""}',
];

const NASTY_IDS = [
  '0', '-1', '-0', '-999999999999999', '999999999999999', '9007199254740993', '1e309', 'NaN', '1.5', '0x10', '%201',
  '%00', '%F0%9F%98%80', '__proto__', 'constructor', 'prototype', '..', '%2E%2E', 'a%2Fb', '9'.repeat(200), 'x'.repeat(5_000), '%ED%A0%80',
];

/** Records to aim at: a write of each kind, made before the routes are fuzzed (what GET then answers is each route's base body). */
const SEEDS: [string, (ids: Record<string, number>) => Record<string, unknown>][] = [
  ['/v2/contacts', () => ({ is_organization: true, name: 'Seed Org', tags: ['seed'], address: { city: 'Rome' } })],
  ['/v2/contacts', (ids) => ({ last_name: 'Seed', email: 'seed@example.com', contact_id: ids.contacts })],
  ['/v2/leads', () => ({ last_name: 'Seed', organization_name: 'Seed Co', tags: ['seed'] })],
  ['/v2/deals', (ids) => ({ name: 'Seed', contact_id: ids.contacts, value: '10.50' })],
  ['/v2/tasks', (ids) => ({ content: 'Seed', resource_type: 'contact', resource_id: ids.contacts, due_date: '2026-03-03T10:00:00Z' })],
  ['/v2/notes', (ids) => ({ content: 'Seed', resource_type: 'deal', resource_id: ids.deals })],
  ['/v2/calls', (ids) => ({ phone_number: '+1 555 0100', resource_type: 'contact', resource_id: ids.contacts })],
  ['/v2/visits', (ids) => ({ resource_type: 'contact', resource_id: ids.contacts, summary: 'Seed' })],
  ['/v2/tags', () => ({ name: 'seeded', resource_type: 'deal' })],
  ['/v2/sources', () => ({ name: 'Seed source' })],
  ['/v2/products', () => ({ name: 'Seed', prices: [{ amount: '10.00', currency: 'USD' }] })],
  ['/v2/orders', (ids) => ({ deal_id: ids.deals })],
  ['/v2/line_items', (ids) => ({ order_id: ids.orders, product_id: ids.products, quantity: 2, currency: 'USD' })],
  ['/v2/email_templates', () => ({ name: 'Seed', subject: 'Hello', body: 'Hi {{contact.first_name}}' })],
  ['/v2/sequences', (ids) => ({
    name: 'Seed',
    steps: [
      { delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: ids.email_templates, is_reply: false } },
      { delay_from_previous_step: 2, delay_from_previous_step_unit: 'weekdays', action_type: 'task', action_properties: { task_content: 'Call' } },
    ],
  })],
  ['/v2/sequence_enrollments', (ids) => ({ sequence_id: ids.sequences, resource_type: 'contact', resource_id: ids.contacts })],
  ['/v2/collaborations', (ids) => ({ resource_type: 'deal', resource_id: ids.deals, collaborator_id: ids.agent })],
  ['/v2/associated_contacts', (ids) => ({ deal_id: ids.deals, contact_id: ids.contacts, role: 'involved' })],
  ['/v2/contact/custom_fields', () => ({ name: 'Segment', type: 'string' })],
  ['/v2/deal/custom_fields', () => ({ name: 'Region', type: 'list', choices: ['North', 'South'] })],
  ['/v2/oauth_clients', () => ({ name: 'Seed app', redirect_uri: 'https://example.com/callback' })],
];

/** The custom-objects interface's records to aim at, created the same way (its bodies have wrappers of their own). */
const SUPPORT_SEEDS: [string, string, Record<string, unknown>][] = [
  ['/api/v2/custom_objects', 'custom_object', { key: 'car', title: 'Car', title_pluralized: 'Cars' }],
  ['/api/v2/custom_objects/car/fields', 'custom_object_field', { key: 'plate', type: 'text', title: 'Plate' }],
  ['/api/v2/custom_objects/car/fields', 'custom_object_field', { key: 'doors', type: 'integer', title: 'Doors' }],
  ['/api/v2/custom_objects/car/records', 'custom_object_record', { name: 'Van', custom_object_fields: { plate: 'AB-123', doors: 4 } }],
];

/** Mostly sound text, so values reach the resources' validators; sometimes lone surrogates and NUL, which the body parser refuses. */
const text = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme' }) },
  fc.string({ unit: fc.oneof(fc.constantFrom('\ud800', '\udfff', '\0', '\u2028', '\ufffd'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })) }),
);

/** A value as JSON text. */
const value: fc.Arbitrary<string> = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom(...NASTY_JSON),
    fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
    text.map((s) => JSON.stringify(s)),
    fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(',')}]`),
    fc.dictionary(fc.oneof(fc.constantFrom(...FIELD_NAMES), text), tie('value'), { maxKeys: 4 }).map(objectText),
  ),
})).value;

const key = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...FIELD_NAMES) }, fc.constantFrom('__proto__', 'constructor', 'prototype', '', 'id', 'meta'), text);

function objectText(entries: Record<string, string>): string {
  return `{${Object.entries(entries).map(([k, v]) => `${JSON.stringify(k)}:${v}`).join(',')}}`;
}

const wrapped = (wrapper: string, inner: string) => objectText({ [wrapper]: inner });

/**
 * A body: the route's valid record with a few fields made hostile (reaching
 * the code after validation), hostile fields alone, a hostile wrapper, or
 * something that is no object at all.
 */
function body(wrappers: string[], base: Record<string, unknown> | null): fc.Arbitrary<string> {
  const baseText = Object.fromEntries(Object.entries(base ?? {}).map(([k, v]) => [k, JSON.stringify(v)]));
  const baseKeys = Object.keys(baseText);
  const mutatedKey = baseKeys.length > 0 ? fc.oneof(fc.constantFrom(...baseKeys), key) : key;
  return fc.oneof(
    { weight: base ? 6 : 0, arbitrary: fc.dictionary(mutatedKey, value, { minKeys: 1, maxKeys: 3 }).map((hostile) => wrapped(wrappers[0], objectText({ ...baseText, ...hostile }))) },
    { weight: 4, arbitrary: fc.tuple(fc.constantFrom(...wrappers), fc.dictionary(key, value, { maxKeys: 6 })).map(([w, fields]) => wrapped(w, objectText(fields))) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...wrappers), value).map(([w, v]) => wrapped(w, v)) },
    { weight: 1, arbitrary: value },
  );
}

/** The route's URL with each parameter (and a wildcard) filled in: often a real record's, else something hostile. */
function pathOf(url: string, params: Record<string, string>): fc.Arbitrary<string> {
  const hostile = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...NASTY_IDS) }, fc.string({ unit: 'grapheme', minLength: 1 }).map(encodeURIComponent));
  const segment = (known: string | undefined) => (known === undefined ? hostile : fc.oneof({ weight: 2, arbitrary: fc.constant(known) }, hostile));
  const parts = url.split('/').map((part) => (part.startsWith(':') || part === '*' ? segment(params[part.replace(/^:/, '')]) : fc.constant(part)));
  return fc.tuple(...parts).map((filled) => filled.join('/'));
}

let hub: TestHub;
let token: string;
/** Path parameters that name seeded records (`deal_id`, `custom_object_key`, …). */
const seeded: Record<string, string> = {};

/** What a route's requests aim at: its wrapper, a record as GET answers it (the base body), and path parameters naming real records. */
interface Target {
  wrapper: string;
  base: Record<string, unknown> | null;
  params: Record<string, string>;
}

async function targetOf(url: string): Promise<Target> {
  if (url.startsWith('/api/v2')) return supportTarget(url);
  const collection = url.split('/:')[0];
  const list = await call(hub, 'GET', `${collection}?per_page=1`, { token });
  const first = list.status === 200 ? list.body?.items?.[0]?.data : undefined;
  return { wrapper: 'data', base: first ?? null, params: first ? { ...seeded, id: String(first.id) } : seeded };
}

async function supportTarget(url: string): Promise<Target> {
  const [kind, path] = url.includes('/records') ? ['custom_object_record', '/api/v2/custom_objects/car/records']
    : url.includes('/fields') ? ['custom_object_field', '/api/v2/custom_objects/car/fields/plate']
      : ['custom_object', '/api/v2/custom_objects/car'];
  const answer = await send('GET', path, '');
  const base = answer?.body?.[kind] ?? answer?.body?.custom_object_records?.[0] ?? null;
  return { wrapper: kind, base, params: { ...seeded, ...(kind === 'custom_object_record' && base ? { id: String(base.id) } : {}) } };
}

/** A write as the clients send it; null when the hub does not answer in time (a hang is a failure too). */
async function send(method: string, path: string, raw: string): Promise<Answer | null> {
  const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', 'X-Service-Device-UUID': DEVICE };
  try {
    const response = await fetch(`${hub.url}${path}`, { method, headers, body: method === 'GET' ? undefined : raw, signal: AbortSignal.timeout(10_000) });
    const text = await response.text();
    let body: unknown = null;
    try {
      body = JSON.parse(text);
    } catch {
      body = text;
    }
    return { status: response.status, headers: response.headers, body, text };
  } catch (err) {
    if ((err as Error).name === 'TimeoutError') return null;
    throw err;
  }
}

/** What is wrong with an answer, if anything. */
function wrongAnswer(answer: Answer, support: boolean): string | null {
  const requestId = answer.headers.get('x-request-id');
  if (answer.status >= 500) return '5xx';
  if (!requestId) return 'no X-Request-Id';
  if (answer.status < 300) return null;
  if (support) return typeof answer.body?.error === 'string' && typeof answer.body?.description === 'string' ? null : 'not in the /api/v2 error format';
  return answer.body?.meta?.logref === requestId && Array.isArray(answer.body?.errors) ? null : 'not in the envelope with logref';
}

beforeAll(async () => {
  hub = await startTestHub();
  token = hub.tokenFor(hub.adminId, [...SCOPES]);
  const ids: Record<string, number> = { agent: hub.agentId };
  for (const [path, data] of SEEDS) {
    const created = await call(hub, 'POST', path, { token, data: data(ids) });
    // A seed the API refuses would leave its routes fuzzed without a record to aim at.
    expect(created.status, `${path} ${created.text}`).toBe(200);
    ids[path.split('/').pop()!] ??= created.body.data.id;
  }
  for (const [path, wrapper, data] of SUPPORT_SEEDS) {
    const created = await send('POST', path, JSON.stringify({ [wrapper]: data }));
    expect(created?.status, `${path} ${created?.text}`).toBe(201);
  }
  const client = await call(hub, 'GET', '/v2/oauth_clients', { token });
  Object.assign(seeded, {
    deal_id: String(ids.deals), order_id: String(ids.orders), contact_id: String(ids.contacts),
    client_id: client.body.items.at(-1).data.client_id, custom_object_key: 'car', field: 'plate',
  });
  console.log(`fuzz seed ${SEED} (replay: FUZZ_SEED=${SEED} npx vitest run test/api/fuzz.test.ts)`);
});
afterAll(() => hub.close());

describe('hostile input on every write route', () => {
  it('never answers 5xx, refuses in the error format with the request id, and keeps serving', async () => {
    // Deletes last: the records they remove are the ones the other routes aim at.
    const routes = hub.app.routeList.filter((r) => WRITES.has(r.method) && (r.url.startsWith('/v2/') || r.url.startsWith('/api/v2')))
      .sort((a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'));
    expect(routes.length).toBeGreaterThan(100);
    // Every failing case is kept (not only the first), so one run shows them all.
    const failures: string[] = [];
    for (const [i, route] of routes.entries()) {
      const target = await targetOf(route.url);
      const wrappers = [target.wrapper, ...(target.wrapper === 'data' ? [] : ['data'])];
      await fc.assert(
        fc.asyncProperty(pathOf(route.url, target.params), body(wrappers, target.base), async (path, raw) => {
          const answer = await send(route.method, path, raw);
          // fetch resolves `..` segments: the error style is that of the path the hub saw.
          const problem = answer ? wrongAnswer(answer, new URL(`${hub.url}${path}`).pathname.startsWith('/api/v2')) : 'no answer in 10 s';
          if (!problem) return;
          failures.push(`${problem}: ${route.method} ${path.slice(0, 120)} ${raw.slice(0, 400)} → ${answer?.status} ${answer?.text.slice(0, 300)}`);
          console.log(failures.at(-1));
        }),
        { seed: SEED + i, numRuns: RUNS_PER_ROUTE },
      );
    }
    expect(failures).toEqual([]);
    const after = await call(hub, 'GET', '/v2/users/self', { token });
    expect(after.status).toBe(200);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  }, Math.max(120_000, RUNS_PER_ROUTE * 5_000));
});
