import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type Answer, type TestHub } from '../support/testHub.js';
import { startTestReplica, switchedCable, type TestReplica } from '../support/testReplica.js';
import { REPORT_NAMES } from '../../shared/resources/report.js';

/**
 * Reports on a desktop replica: computed by its own engine from its synced
 * tables, so with the hub stopped they answer exactly what the hub answered,
 * and they count what the rep records offline.
 */

let hub: TestHub;
let copies: { agent: TestReplica; admin: TestReplica };
let hubStopped = false;
const net = { online: true };
const RANGE = 'from=2026-01-01&to=2026-03-31';

/** Every report, as JSON and as CSV, with the parameters the screen uses. */
const paths = REPORT_NAMES.flatMap((name) => {
  const query = name === 'pipeline' ? '' : `?${RANGE}${name === 'won_lost' || name === 'activities' ? '&interval=week' : ''}`;
  return [`/v2/reports/${name}${query}`, `/v2/reports/${name}/export.csv${query}`];
});

async function seed(): Promise<void> {
  const as = (token: string) => (path: string, data: unknown) => call(hub, 'POST', path, { token, data }).then((a) => {
    expect(a.status, `${path}: ${a.text}`).toBe(200);
    return a.body.data;
  });
  const [agent, admin] = [as(hub.agentToken), as(hub.adminToken)];
  const stages = (await call(hub, 'GET', '/v2/stages', { token: hub.agentToken })).body.items.map((i: any) => i.data);
  const stage = (name: string) => stages.find((s: any) => s.name === name).id;
  const contact = await agent('/v2/contacts', { last_name: 'Buyer' });
  const reason = await admin('/v2/loss_reasons', { name: 'Went quiet' });
  const product = await admin('/v2/products', { name: 'Replica kit', sku: 'RK-1', prices: [{ amount: '10.50', currency: 'EUR' }] });
  for (const [token, name, at, value, currency, extra] of [
    [agent, 'Quote', '2026-02-01T10:00:00Z', '1200.50', 'USD', { customized_win_likelihood: 30 }],
    [agent, 'Won', '2026-01-31T23:30:00Z', '300', 'EUR', {}],
    [admin, 'Won', '2026-02-12T09:00:00Z', '99.99', 'USD', {}],
    [agent, 'Lost', '2026-02-20T09:00:00Z', '45', 'EUR', { loss_reason_id: reason.id }],
  ] as const) {
    hub.clock.set(at);
    const deal = await token('/v2/deals', { name: `${name} deal`, contact_id: contact.id, stage_id: stage(name), value, currency, ...extra });
    if (name === 'Won') {
      const order = await admin('/v2/orders', { deal_id: deal.id });
      await admin('/v2/line_items', { order_id: order.id, product_id: product.id, currency: 'EUR', quantity: 2 });
    }
  }
  hub.clock.set('2026-02-10T09:00:00Z');
  const source = await agent('/v2/lead_sources', { name: 'Fair' });
  const lead = await agent('/v2/leads', { last_name: 'Prospect', source_id: source.id });
  await agent('/v2/leads', { last_name: 'Walk-in' });
  await agent('/v2/lead_conversions', { lead_id: lead.id, create_deal: false });
  await agent('/v2/calls', { phone_number: '+1 555 0100', made_at: '2026-02-10T08:00:00Z' });
  await admin('/v2/calls', { phone_number: '+1 555 0101', made_at: '2026-02-11T08:00:00Z' });
  await agent('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Met' });
  await admin('/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: 'Admin only', type: 'restricted' });
  await agent('/v2/visits', { resource_type: 'contact', resource_id: contact.id, visited_at: '2026-02-10T11:00:00Z' });
  const task = await agent('/v2/tasks', { content: 'Follow up' });
  await call(hub, 'PUT', `/v2/tasks/${task.id}`, { token: hub.agentToken, data: { completed: true } });
  hub.clock.set('2026-03-02T10:00:00Z');
}

beforeAll(async () => {
  hub = await startTestHub();
  await call(hub, 'PUT', '/v2/accounts/self', { token: hub.adminToken, data: { timezone: 'UTC+01:00' } });
  // Totals in the account's currency need the rates on the replica too (they sync like records).
  expect((await call(hub, 'PUT', '/v2/exchange_rates/EUR', { token: hub.adminToken, data: { rate: '1.08' } })).status).toBe(200);
  await seed();
  copies = { agent: await startTestReplica(hub, hub.agentId, { fetch: switchedCable(net) }), admin: await startTestReplica(hub, hub.adminId, { fetch: switchedCable(net) }) };
  for (const copy of Object.values(copies)) expect(await copy.replica.sync()).toMatchObject({ state: 'up_to_date', pending: 0, issues: 0, last_error: null });
});
afterAll(async () => {
  for (const copy of Object.values(copies)) await copy.close();
  if (!hubStopped) await hub.close();
});

const comparable = (answer: Answer, origin: string) => ({ status: answer.status, text: answer.text.replaceAll(origin, 'ORIGIN') });

describe('reports on a replica', () => {
  it('answer what the hub answered, with the hub stopped', async () => {
    const users = [[copies.agent, hub.agentToken], [copies.admin, hub.adminToken]] as const;
    const onHub = new Map<string, ReturnType<typeof comparable>>();
    for (const [copy, token] of users) {
      for (const path of paths) onHub.set(`${copy.token} ${path}`, comparable(await call(hub, 'GET', path, { token }), hub.url));
    }
    expect(JSON.parse(onHub.get(`${copies.admin.token} ${paths[0]}`)!.text).items.length).toBe(7);
    net.online = false;
    await hub.close();
    hubStopped = true;
    for (const [copy] of users) {
      for (const path of paths) {
        const answer = comparable(await call(copy.local, 'GET', path, { token: copy.token }), copy.local.url);
        expect(answer.status, path).toBe(200);
        expect(answer, path).toEqual(onHub.get(`${copy.token} ${path}`));
      }
    }
    // What the hub had: the admin's team pipeline holds the agent's quote, weighted by its own 30 %.
    const pipeline = await call(copies.admin.local, 'GET', '/v2/reports/pipeline', { token: copies.admin.token });
    expect(pipeline.body.items.find((i: any) => i.data.stage_name === 'Quote').data).toMatchObject({ deals_count: 1, values: { USD: '1200.50' }, weighted_values: { USD: '360.15' } });
    // The euros won, converted offline at the synced rate: 300 EUR × 1.08 + 99.99 USD.
    expect(pipeline.body.items.find((i: any) => i.data.stage_name === 'Won').data.converted_value).toEqual({ currency: 'USD', amount: '423.99', unconverted: {} });
  });

  it('count what the rep records offline', async () => {
    const local = (method: string, path: string, data?: unknown) => call(copies.agent.local, method, path, { token: copies.agent.token, data });
    const visits = async () => (await local('GET', `/v2/reports/activities?from=2026-03-01&to=2026-03-31`)).body.items[0].data.visits;
    expect(await visits()).toBe(0);
    const contact = (await local('GET', '/v2/contacts')).body.items[0].data.id;
    expect((await local('POST', '/v2/visits', { resource_type: 'contact', resource_id: contact, visited_at: '2026-03-02T09:00:00Z' })).status).toBe(200);
    expect(await visits()).toBe(1);
  });
});
