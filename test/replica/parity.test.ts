import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { call, startTestHub, type Answer, type TestHub } from '../support/testHub.js';
import { startTestReplica, type TestReplica } from '../support/testReplica.js';
import { sql as customFieldSync } from '../../electron/engine/db/migrations/0022_custom_field_sync.js';
import { newRecordId } from '../../electron/engine/context.js';
import { REPORT_NAMES } from '../../shared/resources/report.js';

/**
 * A replica answers every read as its hub does. The hub is seeded with a
 * record of every resource listable under /v2; a replica of an agent and one
 * of an admin sync; then every GET route under /v2 without a path parameter,
 * taken from the apps' own route lists (so a resource added later is compared
 * too, and must be seeded here), is asked of the hub and of the replica as the
 * same user, and the answers must be the same. Real engines on real SQLite
 * files, real HTTP on 127.0.0.1.
 */

/** Routes a replica legitimately answers differently from its hub, each with the reason. */
const NOT_COMPARED: RegExp[] = [
  // The replica's own endpoints (its sync status and its events, its sync issues): a hub has none of them.
  /^\/v2\/replica\//,
  // The sync protocol and its change stream: between a device and its hub, not records a replica serves.
  /^\/v2\/sync\//,
  // OAuth applications are registered on the hub and not synced: a replica lists its own (and refuses to register one).
  /^\/v2\/oauth_clients$/,
  // The calendar feed is served by the hub, with a secret of the hub's: a replica answers 409 (set it up on the hub).
  /^\/v2\/users\/self\/calendar_feed$/,
  // The OpenAPI document describes the hub's interface: a replica does not serve it (docs/api.md).
  /^\/v2\/openapi\.json$/,
];

/** Query strings of routes that need parameters to answer at all; other collections are asked for `per_page=100`. */
const QUERY: Record<string, (seed: Seeded) => string> = {
  // Documents are listed per record: both parameters are required.
  '/v2/documents': (seed) => `resource_type=contact,lead,deal&resource_id=${[seed.contact.id, seed.lead.id, seed.deal.id].join(',')}`,
  // Exchange rates are one list of every rate (at most one per currency), with no paging parameters.
  '/v2/exchange_rates': () => '',
  // Search needs the text to look for; it answers one page of the best matches, with no per_page=100.
  '/v2/search': () => 'q=Parity',
  // Reports take no paging: the default pipeline, and a range around the seeded records (made on the test clock's 2 March 2026).
  ...Object.fromEntries(REPORT_NAMES.map((name) => [`/v2/reports/${name}`, () => (name === 'pipeline' ? '' : 'from=2026-01-01&to=2026-03-31')])),
};

interface Seeded {
  contact: { id: number };
  organization: { id: number };
  lead: { id: number };
  deal: { id: number };
}

let hub: TestHub;
let seeded: Seeded;
const copies: TestReplica[] = [];

beforeAll(async () => {
  hub = await startTestHub();
  seeded = await seedEverything();
});
afterAll(async () => {
  for (const copy of copies) await copy.close();
  await hub.close();
});

/** Syncs the copy; the pull must have applied everything (a pull that fails leaves only `last_error`). */
async function sync(copy: TestReplica): Promise<void> {
  expect(await copy.replica.sync()).toMatchObject({ state: 'up_to_date', pending: 0, issues: 0, last_error: null });
}

/** A replica of the user, synced. */
async function syncedCopy(userId: number): Promise<TestReplica> {
  const copy = await startTestReplica(hub, userId);
  copies.push(copy);
  await sync(copy);
  return copy;
}

/** POST on the hub; the created record. */
async function created(path: string, data: unknown, token = hub.adminToken): Promise<any> {
  const answer = await call(hub, 'POST', path, { token, data });
  expect(answer.status, `POST ${path}: ${answer.text}`).toBe(200);
  return answer.body.data;
}

async function upload(resource: string, id: number, name: string): Promise<void> {
  const response = await fetch(`${hub.url}/v2/documents?resource_type=${resource}&resource_id=${id}&name=${name}`, {
    method: 'POST', headers: { Authorization: `Bearer ${hub.agentToken}`, 'Content-Type': 'text/plain' }, body: `${name} content`,
  });
  expect(response.status).toBe(200);
}

/** At least one record of every resource, records carrying custom field values among them. */
async function seedEverything(): Promise<Seeded> {
  const agent = hub.agentToken;
  // The SMTP URL holds a password and is never served: a replica still shows that one is set.
  expect((await call(hub, 'PUT', '/v2/accounts/self', { token: hub.adminToken, data: { smtp_url: 'smtp://mailer:secret@mail.example:587' } })).status).toBe(200);
  hub.engine.users.setStatus(await hub.engine.users.create({ email: 'left@example.com', name: 'Left Company', password: 'left-company-1', role: 'user' }), 'inactive');
  expect((await call(hub, 'PUT', '/v2/exchange_rates/EUR', { token: hub.adminToken, data: { rate: '1.0870' } })).status).toBe(200);
  await created('/v2/contact/custom_fields', { name: 'Segment', type: 'list', choices: ['SMB', 'Enterprise'] });
  await created('/v2/contact/custom_fields', { name: 'Interests', type: 'multi_select_list', choices: ['Boats', 'Bikes'], for_organization: false });
  await created('/v2/contact/custom_fields', { name: 'Employees', type: 'number', for_contact: false, filterable: false });
  await created('/v2/lead/custom_fields', { name: 'Budget', type: 'number' });
  await created('/v2/deal/custom_fields', { name: 'Region', type: 'string' });

  const organization = await created('/v2/contacts', { is_organization: true, name: 'Parity Ltd', tags: ['vip'], custom_fields: { Segment: 'SMB', Employees: 40 } }, agent);
  const contact = await created('/v2/contacts', {
    first_name: 'Pat', last_name: 'Parity', email: 'pat@parity.example', contact_id: organization.id,
    custom_fields: { Segment: 'Enterprise', Interests: ['Boats'] }, address: { city: 'Lyon' },
  }, agent);
  const leadSource = await created('/v2/lead_sources', { name: 'Parity fair' }, agent);
  const dealSource = await created('/v2/deal_sources', { name: 'Parity referral' }, agent);
  await created('/v2/sources', { name: 'Parity any', resource_type: 'lead' }, agent);
  const lead = await created('/v2/leads', { last_name: 'Parity Lead', source_id: leadSource.id, tags: ['fair'], custom_fields: { Budget: 5000 } }, agent);
  // Likely duplicates, so /v2/{contacts|leads}/duplicates have groups to compare.
  await created('/v2/contacts', { first_name: 'Pat', last_name: 'Parity', email: 'PAT@parity.example', contact_id: organization.id }, agent);
  await created('/v2/leads', { last_name: 'Parity Lead' }, agent);
  const converted = await created('/v2/leads', { last_name: 'Parity Converted', organization_name: 'Converted Parity Co' }, agent);
  await created('/v2/lead_conversions', { lead_id: converted.id }, agent);

  const pipeline = await created('/v2/pipelines', { name: 'Parity pipeline' });
  const stage = await created('/v2/stages', { name: 'Parity stage', category: 'incoming', pipeline_id: pipeline.id });
  const deal = await created('/v2/deals', {
    name: 'Parity deal', contact_id: contact.id, stage_id: stage.id, source_id: dealSource.id, value: '1200.50', tags: ['hot'], custom_fields: { Region: 'North' },
  }, agent);
  await created(`/v2/deals/${deal.id}/associated_contacts`, { contact_id: organization.id, role: 'payer' }, agent);

  await created('/v2/call_outcomes', { name: 'Parity outcome' });
  await created('/v2/visit_outcomes', { name: 'Parity visit outcome' });
  const lossReason = await created('/v2/loss_reasons', { name: 'Parity loss' });
  await created('/v2/deal_unqualified_reasons', { name: 'Parity unqualified deal' });
  await created('/v2/lead_unqualified_reasons', { name: 'Parity unqualified lead' });
  await created('/v2/tags', { name: 'standalone', resource_type: 'contact' }, agent);

  await created('/v2/tasks', { content: 'Call Pat about Parity', resource_type: 'contact', resource_id: contact.id, due_date: '2026-03-05T09:00:00Z' }, agent);
  await created('/v2/notes', { resource_type: 'deal', resource_id: deal.id, content: 'Parity note' }, agent);
  // Only its author, the admin, may see it: the agent's copy must not hold it either.
  await created('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Admin-only remark', type: 'restricted' });
  await created('/v2/calls', { phone_number: '+1 555 0100', summary: 'Parity call', resource_type: 'contact', resource_id: contact.id, associated_deal_ids: [deal.id] }, agent);
  await created('/v2/visits', { resource_type: 'contact', resource_id: contact.id, summary: 'Parity visit' }, agent);
  // Text messages have no POST (they are imported): made through the engine.
  const agentActor = { userId: hub.agentId, role: 'user' as const, scopes: new Set(['write'] as const) };
  hub.engine.textMessages.create({ content: 'On my way', resource_type: 'contact', resource_id: contact.id }, agentActor);
  await created('/v2/collaborations', { resource_type: 'sales_account', resource_id: organization.id, collaborator_id: hub.adminId }, agent);
  for (const [type, id] of [['contact', contact.id], ['lead', lead.id], ['deal', deal.id]] as const) await upload(type, id, `${type}.txt`);

  const product = await created('/v2/products', { name: 'Parity kit', prices: [{ amount: '99.90', currency: 'USD' }], max_discount: 5, max_markup: 5 });
  const order = await created('/v2/orders', { deal_id: deal.id, discount: 5 }, agent);
  await created(`/v2/orders/${order.id}/line_items`, { product_id: product.id, currency: 'USD', quantity: 2 }, agent);
  // For the reports: a deal won, with an order, and one lost with a reason (made in their stages: they entered them now).
  const stages = (await call(hub, 'GET', '/v2/stages?per_page=100', { token: agent })).body.items.map((i: any) => i.data);
  const stageOf = (category: string) => stages.find((s: any) => s.category === category).id;
  const won = await created('/v2/deals', { name: 'Parity won', contact_id: contact.id, stage_id: stageOf('won'), value: '300', currency: 'EUR' }, agent);
  await created('/v2/deals', { name: 'Parity lost', contact_id: contact.id, stage_id: stageOf('lost'), value: '80', loss_reason_id: lossReason.id }, agent);
  const wonOrder = await created('/v2/orders', { deal_id: won.id }, agent);
  await created(`/v2/orders/${wonOrder.id}/line_items`, { product_id: product.id, currency: 'USD', quantity: 3 }, agent);
  const template = await created('/v2/email_templates', { name: 'Parity intro', subject: 'Hello {{contact.first_name}}', body: 'Hi' });
  const sequence = await created('/v2/sequences', {
    name: 'Parity cadence',
    steps: [{ delay_from_previous_step: 2, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: template.id } }],
  });
  await created('/v2/sequence_enrollments', { sequence_id: sequence.id, resource_type: 'contact', resource_id: contact.id }, agent);
  // Smart lists: the agent's own, a shared one of the admin's, and the admin's private one (never on the agent's copy).
  await created('/v2/smart_lists', { name: 'Parity segment', resource_type: 'contact', filters: { 'custom_fields[Segment]': 'SMB', tag: 'vip' }, sort_by: 'name:desc', columns: ['Name'] }, agent);
  await created('/v2/smart_lists', { name: 'Parity deals', resource_type: 'deal', filters: { 'custom_fields[Region]': 'North' }, shared: true });
  await created('/v2/smart_lists', { name: 'Admin tasks', resource_type: 'task', filters: { completed: 'false' } });
  return { contact, organization, lead, deal };
}

/** GET routes under /v2 without path parameters, from the apps' own route lists, less the ones not compared. */
function comparedRoutes(...apps: FastifyInstance[]): string[] {
  const urls = apps.flatMap((app) => app.routeList)
    .filter((route) => route.method === 'GET' && route.url.startsWith('/v2/') && !/[:*]/.test(route.url))
    .map((route) => route.url);
  return [...new Set(urls)].filter((url) => !NOT_COMPARED.some((route) => route.test(url))).sort();
}

/**
 * An answer in a form both servers give alike:
 * - each server's own origin becomes `ORIGIN` (links, download URLs and the
 *   collection's `meta.links` name the server that answered);
 * - a download link's signature is dropped: each server signs its links with
 *   its own secret key (the rest of the link, expiry included, must match);
 * - collection items are sorted by id (lists may order ties differently).
 */
function normalized(answer: Answer, origin: string): unknown {
  const text = answer.text.replaceAll(origin, 'ORIGIN').replace(/signature=[0-9a-f]+/g, 'signature=…');
  if (!answer.headers.get('content-type')?.includes('json')) return { status: answer.status, text };
  const body = JSON.parse(text);
  body.items?.sort((a: any, b: any) => a.data.id - b.data.id);
  return { status: answer.status, body };
}

/** The query a route is asked with: its own when it needs one, `per_page=100` for collections, none otherwise. */
async function queryFor(route: string, token: string): Promise<string> {
  if (QUERY[route]) return `?${QUERY[route](seeded)}`;
  const plain = await call(hub, 'GET', route, { token });
  return Array.isArray(plain.body?.items) ? '?per_page=100' : '';
}

/** Asks the hub and the copy, as the copy's user, and expects the same answer (softly: the test goes on); returns the hub's. */
async function expectSameRead(copy: TestReplica, hubToken: string, path: string, soft = false): Promise<Answer> {
  const onHub = await call(hub, 'GET', path, { token: hubToken });
  const onCopy = await call(copy.local, 'GET', path, { token: copy.token });
  (soft ? expect.soft : expect)(normalized(onCopy, copy.local.url), path).toEqual(normalized(onHub, hub.url));
  return onHub;
}

/** Every compared route; soft expectations, so one run lists every difference. */
async function expectSameAnswers(copy: TestReplica, hubToken: string): Promise<void> {
  const routes = comparedRoutes(hub.app, copy.app);
  expect(routes).toContain('/v2/contact/custom_fields');
  for (const route of routes) {
    const path = `${route}${await queryFor(route, hubToken)}`;
    const onHub = await expectSameRead(copy, hubToken, path, true);
    expect.soft(onHub.status, `${path} on the hub: ${onHub.text.slice(0, 300)}`).toBe(200);
    // An empty list compares nothing: seed a record of each new resource in seedEverything.
    if (Array.isArray(onHub.body?.items)) expect.soft(onHub.body.items.length, `${path} is empty on the hub: seed it`).toBeGreaterThan(0);
  }
}

describe('a replica answers every read as its hub does', () => {
  it('for an agent', async () => {
    await expectSameAnswers(await syncedCopy(hub.agentId), hub.agentToken);
  });

  it('for an admin', async () => {
    await expectSameAnswers(await syncedCopy(hub.adminId), hub.adminToken);
  });
});

const fieldsOf = (type: string) => `/v2/${type}/custom_fields`;

describe('custom field definitions on a replica', () => {
  it('follow the hub after the first sync: created, renamed (a name passed from one field to another) and deleted', async () => {
    const copy = await syncedCopy(hub.agentId);
    const first = await created(fieldsOf('lead'), { name: 'Channel', type: 'list', choices: ['Web', 'Phone'] });
    const second = await created(fieldsOf('lead'), { name: 'Campaign', type: 'string' });
    const doomed = await created(fieldsOf('deal'), { name: 'Short-lived', type: 'number' });
    const lead = await created('/v2/leads', { last_name: 'Lifecycle', custom_fields: { Channel: 'Web', Campaign: 'Spring' } }, hub.agentToken);
    const deal = await created('/v2/deals', { name: 'Lifecycle deal', contact_id: seeded.contact.id, custom_fields: { 'Short-lived': 3 } }, hub.agentToken);
    await sync(copy);
    for (const path of [fieldsOf('lead'), fieldsOf('deal'), `/v2/leads/${lead.id}`]) await expectSameRead(copy, hub.agentToken, path);

    // The second field takes the first one's name, and the first is renamed once more after that: the queue
    // serves each field once, at its latest revision, so the second arrives before the first gives the name up.
    const rename = (id: number, name: string) => call(hub, 'PUT', `${fieldsOf('lead')}/${id}`, { token: hub.adminToken, data: { name } });
    for (const [id, name] of [[first.id, 'Swapping'], [second.id, 'Channel'], [first.id, 'Campaign'], [first.id, 'Source campaign']] as const) {
      expect((await rename(id, name)).status).toBe(200);
    }
    expect((await call(hub, 'DELETE', `${fieldsOf('deal')}/${doomed.id}`, { token: hub.adminToken })).status).toBe(204);
    await sync(copy);
    for (const path of [fieldsOf('lead'), fieldsOf('deal'), `/v2/leads/${lead.id}`, `/v2/deals/${deal.id}`]) await expectSameRead(copy, hub.agentToken, path);
    expect((await call(copy.local, 'GET', `/v2/leads/${lead.id}`, { token: copy.token })).body.data.custom_fields).toEqual({ Channel: 'Spring', 'Source campaign': 'Web' });
    expect((await call(copy.local, 'GET', `${fieldsOf('deal')}/${doomed.id}`, { token: copy.token })).status).toBe(404);
    expect(copy.engine.db.prepare('SELECT COUNT(*) FROM custom_field_definitions WHERE id = ?').pluck().get(doomed.id)).toBe(0);
  });

  it('let a replica save records carrying custom field values, and the edits reach the hub', async () => {
    const copy = await syncedCopy(hub.agentId);
    const edits = [
      [`/v2/contacts/${seeded.contact.id}`, { title: 'Buyer', custom_fields: { Segment: 'SMB', Interests: ['Boats', 'Bikes'] } }],
      [`/v2/leads/${seeded.lead.id}`, { title: 'Founder', custom_fields: { Budget: 7500 } }],
      [`/v2/deals/${seeded.deal.id}`, { name: 'Parity deal, edited', custom_fields: { Region: 'South' } }],
    ] as const;
    for (const [path, data] of edits) {
      const saved = await call(copy.local, 'PUT', path, { token: copy.token, data });
      expect(saved.status, `PUT ${path}: ${saved.text}`).toBe(200);
    }
    await sync(copy);
    for (const [path, data] of edits) {
      expect((await call(hub, 'GET', path, { token: hub.agentToken })).body.data, path).toMatchObject(data);
      await expectSameRead(copy, hub.agentToken, path);
    }
  });

  it('made before their writes were logged reach replicas that synced before, through migration 22 (with the account)', async () => {
    const copy = await syncedCopy(hub.agentId);
    // As on a replica from before: it dropped whether the hub has an SMTP server.
    copy.engine.db.prepare('UPDATE account SET smtp_url = NULL').run();
    // As on a hub from before: a definition with no change-log entry, which no device ever received.
    const id = newRecordId(hub.engine.ctx, 'custom_field_definitions', 'custom_field');
    hub.engine.db.prepare(`INSERT INTO custom_field_definitions (id, resource_type, name, type, created_at, updated_at)
      VALUES (?, 'contact', 'Legacy', 'string', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`).run(id);
    await sync(copy);
    expect((await call(copy.local, 'GET', `${fieldsOf('contact')}/${id}`, { token: copy.token })).status).toBe(404);

    hub.engine.db.exec(customFieldSync);
    await sync(copy);
    await expectSameRead(copy, hub.agentToken, fieldsOf('contact'));
    await expectSameRead(copy, hub.agentToken, '/v2/accounts/self');
    const saved = await call(copy.local, 'PUT', `/v2/contacts/${seeded.organization.id}`, { token: copy.token, data: { custom_fields: { Legacy: 'kept' } } });
    expect(saved.status, saved.text).toBe(200);
  });
});
