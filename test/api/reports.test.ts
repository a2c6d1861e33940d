import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { toHundredths } from '../../electron/engine/resources/decimal.js';
import { moneyText } from '../../electron/engine/reports/money.js';

let hub: TestHub;
let stages: Record<string, number>;
let contactId: number;
let tooExpensive: number;
let productId: number;
const deals: Record<string, number> = {};

const as = (token: string) => ({
  get: (path: string) => call(hub, 'GET', path, { token }),
  post: (path: string, data: unknown) => call(hub, 'POST', path, { token, data }),
  put: (path: string, data: unknown) => call(hub, 'PUT', path, { token, data }),
});
const admin = () => as(hub.adminToken);
const agent = () => as(hub.agentToken);
const rows = (answer: { body: any }) => answer.body.items.map((i: any) => i.data);

/** A deal of `token`'s user in `stage`, moved there at `at` (the hub's clock) so last_stage_change_at is known. */
async function deal(token: string, name: string, stage: string, value: string, currency: string, at?: string, extra: Record<string, unknown> = {}) {
  const created = await as(token).post('/v2/deals', { name, contact_id: contactId, value, currency, stage_id: stages.Incoming, ...extra });
  expect(created.status).toBe(200);
  if (stage !== 'Incoming') {
    if (at) hub.clock.set(at);
    expect((await as(token).put(`/v2/deals/${created.body.data.id}`, { stage_id: stages[stage] })).status).toBe(200);
    hub.clock.set('2026-03-02T10:00:00Z');
  }
  deals[name] = created.body.data.id;
  return created.body.data.id as number;
}

beforeAll(async () => {
  hub = await startTestHub();
  expect((await admin().put('/v2/accounts/self', { timezone: 'UTC+01:00' })).status).toBe(200);
  stages = Object.fromEntries(rows(await admin().get('/v2/stages')).map((s: any) => [s.name, s.id]));
  contactId = (await agent().post('/v2/contacts', { last_name: 'Buyer' })).body.data.id;
  tooExpensive = (await admin().post('/v2/loss_reasons', { name: '=Too expensive' })).body.data.id;
  // Open deals (the pipeline report): two currencies, a customized likelihood.
  await deal(hub.agentToken, 'A1', 'Incoming', '1000.25', 'USD');
  await deal(hub.agentToken, 'A2', 'Incoming', '0.75', 'USD');
  await deal(hub.agentToken, 'A3', 'Quote', '300', 'EUR', undefined, { customized_win_likelihood: 20 });
  await deal(hub.agentToken, 'A4', 'Quote', '50.5', 'EUR');
  await deal(hub.adminToken, 'B1', 'Quote', '100', 'USD');
  // Closed deals: won at 23:30 UTC on 31 January is 1 February at UTC+01:00.
  await deal(hub.agentToken, 'Won late', 'Won', '200', 'USD', '2026-01-31T23:30:00Z');
  await deal(hub.agentToken, 'Lost in January', 'Lost', '80', 'EUR', '2026-01-15T10:00:00Z', { loss_reason_id: tooExpensive });
  await deal(hub.adminToken, 'Won in February', 'Won', '500', 'USD', '2026-02-10T10:00:00Z');
  await deal(hub.adminToken, 'Lost in February', 'Lost', '40', 'USD', '2026-02-11T10:00:00Z');
});
afterAll(() => hub.close());

/** Every deal of the list for a stage (and owner), paged through: what a client adds up. */
async function listed(stageId: number, ownerId?: number): Promise<{ count: number; values: Record<string, string> }> {
  const sums = new Map<string, bigint>();
  let count = 0;
  for (let page = 1; ; page++) {
    const answer = await admin().get(`/v2/deals?stage_id=${stageId}${ownerId ? `&owner_id=${ownerId}` : ''}&per_page=2&page=${page}`);
    for (const d of rows(answer)) {
      count++;
      sums.set(d.currency, (sums.get(d.currency) ?? 0n) + toHundredths(d.value));
    }
    if (!answer.body.meta.links.next_page) break;
  }
  return { count, values: Object.fromEntries([...sums].sort(([a], [b]) => a.localeCompare(b)).map(([c, v]) => [c, moneyText(v)])) };
}

/** A converted amount as the reports answer it, in the account's currency (USD here). */
const usd = (amount: string, unconverted: Record<string, string> = {}) => ({ currency: 'USD', amount, unconverted });

describe('pipeline report', () => {
  it('answers one row per stage in order, whose numbers are what the deals list adds up to', async () => {
    for (const [token, ownerId] of [[hub.adminToken, undefined], [hub.adminToken, hub.agentId], [hub.agentToken, hub.agentId]] as const) {
      const answer = await as(token).get(`/v2/reports/pipeline${ownerId && token === hub.adminToken ? `?owner_id=${ownerId}` : ''}`);
      expect(answer.status).toBe(200);
      expect(answer.body.meta).toMatchObject({ type: 'collection', count: 7 });
      expect(answer.body.items[0].meta).toEqual({ type: 'pipeline_report_row' });
      const report = rows(answer);
      expect(report.map((r: any) => r.stage_name)).toEqual(['Incoming', 'Qualified', 'Quote', 'Closure', 'Won', 'Lost', 'Unqualified']);
      for (const row of report) {
        const list = await listed(row.stage_id, ownerId);
        expect({ count: row.deals_count, values: row.values }).toEqual(list);
      }
    }
  });

  it('weighs each deal by its own likelihood, else its stage\'s, rounded to cents after summing', async () => {
    const report = rows(await agent().get('/v2/reports/pipeline'));
    const byName = Object.fromEntries(report.map((r: any) => [r.stage_name, r]));
    expect(byName.Incoming).toEqual({
      stage_id: stages.Incoming, stage_name: 'Incoming', position: 1, category: 'incoming', likelihood: 10,
      deals_count: 2, values: { USD: '1001.00' }, weighted_values: { USD: '100.10' },
      converted_value: usd('1001.00'), converted_weighted_value: usd('100.10'),
    });
    // 300 × 20 % + 50.50 × 50 % = 60 + 25.25.
    expect(byName.Quote).toMatchObject({ deals_count: 2, values: { EUR: '350.50' }, weighted_values: { EUR: '85.25' } });
    // The account is in USD and has no rate for EUR: the euros are answered apart, never counted at 1.
    expect(byName.Quote).toMatchObject({ converted_value: usd('0.00', { EUR: '350.50' }), converted_weighted_value: usd('0.00', { EUR: '85.25' }) });
    expect(byName.Won).toMatchObject({ deals_count: 1, values: { USD: '200.00' }, weighted_values: { USD: '200.00' } });
    expect(byName.Qualified).toMatchObject({ deals_count: 0, values: {}, weighted_values: {} });
  });

  it('weighs a won deal at 100 %, whatever likelihood it or its stage kept from when it was open', async () => {
    const wonStage = (await admin().get(`/v2/stages/${stages.Won}`)).body.data;
    const wonDeal = await deal(hub.agentToken, 'Won with an old forecast', 'Won', '300', 'USD', undefined, { customized_win_likelihood: 30 });
    expect((await admin().put(`/v2/stages/${stages.Won}`, { likelihood: 90 })).status).toBe(200);
    try {
      const won = rows(await agent().get('/v2/reports/pipeline')).find((r: any) => r.stage_name === 'Won');
      expect(won).toMatchObject({ likelihood: 100, deals_count: 2, values: { USD: '500.00' }, weighted_values: { USD: '500.00' }, converted_weighted_value: usd('500.00') });
    } finally {
      await call(hub, 'DELETE', `/v2/deals/${wonDeal}`, { token: hub.agentToken });
      await admin().put(`/v2/stages/${stages.Won}`, { likelihood: wonStage.likelihood });
    }
  });
});

describe('won and lost', () => {
  it('counts deals in the period they entered their won or lost stage, in the account\'s time zone, with the win rate', async () => {
    const report = rows(await admin().get('/v2/reports/won_lost?from=2026-01-01&to=2026-02-28'));
    expect(report).toEqual([
      {
        period_start: '2026-01-01', period_end: '2026-01-31', won_count: 0, won_values: {}, lost_count: 1, lost_values: { EUR: '80.00' }, win_rate: '0.00',
        converted_won_value: usd('0.00'), converted_lost_value: usd('0.00', { EUR: '80.00' }),
      },
      {
        period_start: '2026-02-01', period_end: '2026-02-28', won_count: 2, won_values: { USD: '700.00' }, lost_count: 1, lost_values: { USD: '40.00' }, win_rate: '0.67',
        converted_won_value: usd('700.00'), converted_lost_value: usd('40.00'),
      },
    ]);
    const own = rows(await agent().get('/v2/reports/won_lost?from=2026-01-01&to=2026-02-28'));
    expect(own.map((r: any) => [r.won_count, r.lost_count, r.win_rate])).toEqual([[0, 1, '0.00'], [1, 0, '1.00']]);
  });

  it('puts a deal won at 23:30 UTC on the next day at UTC+01:00, and on the same day at UTC+00:00', async () => {
    const weeks = rows(await agent().get('/v2/reports/won_lost?from=2026-01-31&to=2026-02-01&interval=week'));
    // 31 January 2026 is a Saturday: its ISO week ends on Sunday 1 February.
    expect(weeks).toEqual([expect.objectContaining({ period_start: '2026-01-31', period_end: '2026-02-01', won_count: 1 })]);
    const days = async () => rows(await agent().get('/v2/reports/won_lost?from=2026-01-01&to=2026-02-28')).map((r: any) => r.won_count);
    expect(await days()).toEqual([0, 1]);
    await admin().put('/v2/accounts/self', { timezone: 'UTC+00:00' });
    expect(await days()).toEqual([1, 0]);
    await admin().put('/v2/accounts/self', { timezone: 'UTC+01:00' });
  });

  it('has every period of the range, empty ones included: 12 months by default, ISO weeks on Mondays', async () => {
    const months = rows(await admin().get('/v2/reports/won_lost'));
    expect(months).toHaveLength(12);
    expect(months[0]).toMatchObject({ period_start: '2025-04-01', period_end: '2025-04-30', won_count: 0, win_rate: null });
    expect(months[11]).toMatchObject({ period_start: '2026-03-01', period_end: '2026-03-02' });
    const weeks = rows(await admin().get('/v2/reports/won_lost?from=2026-02-01&to=2026-02-14&interval=week'));
    expect(weeks.map((w: any) => [w.period_start, w.period_end, w.won_count])).toEqual([
      ['2026-02-01', '2026-02-01', 1], ['2026-02-02', '2026-02-08', 0], ['2026-02-09', '2026-02-14', 1],
    ]);
    expect(rows(await admin().get(`/v2/reports/won_lost?from=2026-01-01&to=2026-02-28&pipeline_id=${(await admin().get('/v2/pipelines')).body.items[0].data.id}`))
      .map((r: any) => r.won_count)).toEqual([0, 2]);
  });
});

describe('loss reasons', () => {
  it('groups the deals lost in the range by reason, most first, "No reason given" for none', async () => {
    const report = rows(await admin().get('/v2/reports/loss_reasons?from=2026-01-01&to=2026-02-28'));
    expect(report).toEqual([
      { loss_reason_id: tooExpensive, name: '=Too expensive', deals_count: 1, values: { EUR: '80.00' }, converted_value: usd('0.00', { EUR: '80.00' }) },
      { loss_reason_id: null, name: 'No reason given', deals_count: 1, values: { USD: '40.00' }, converted_value: usd('40.00') },
    ]);
    expect(rows(await admin().get('/v2/reports/loss_reasons?from=2026-02-01&to=2026-02-28'))).toHaveLength(1);
  });
});

describe('activities', () => {
  beforeAll(async () => {
    const leadId = (await agent().post('/v2/leads', { last_name: 'Prospect' })).body.data.id;
    const at = (time: string) => hub.clock.set(time);
    await agent().post('/v2/calls', { phone_number: '+1 555 0100', made_at: '2026-02-03T09:00:00Z' });
    await agent().post('/v2/calls', { phone_number: '+1 555 0101', made_at: '2026-02-28T23:10:00Z' }); // 1 March at UTC+01:00
    await admin().post('/v2/calls', { phone_number: '+1 555 0102', made_at: '2026-02-04T09:00:00Z' });
    at('2026-02-05T12:00:00Z');
    await agent().post('/v2/notes', { resource_type: 'lead', resource_id: leadId, content: 'Met at the fair' });
    await admin().post('/v2/notes', { resource_type: 'lead', resource_id: leadId, content: 'Called back' });
    await agent().post('/v2/notes', { resource_type: 'lead', resource_id: leadId, content: 'Private', type: 'restricted' });
    const task = (await agent().post('/v2/tasks', { content: 'Send the quote' })).body.data.id;
    at('2026-03-01T08:00:00Z');
    await agent().put(`/v2/tasks/${task}`, { completed: true });
    await agent().post('/v2/visits', { resource_type: 'lead', resource_id: leadId, visited_at: '2026-03-01T09:00:00Z' });
    hub.clock.set('2026-03-02T10:00:00Z');
    // An email step the scheduler completed (sending needs SMTP, which this test does not run).
    const db = hub.engine.db;
    db.prepare(`INSERT INTO sequence_enrollments (id, sequence_id, actor_id, resource_type, resource_id, state, sequence_json, created_at, updated_at)
      VALUES (900001, 1, ?, 'lead', ?, 'active', '{}', '2026-02-01T10:00:00Z', '2026-02-01T10:00:00Z')`).run(hub.agentId, leadId);
    db.prepare(`INSERT INTO enrollment_steps (enrollment_id, position, delay_from_previous_step, delay_from_previous_step_unit, action_type, status, executed_at)
      VALUES (900001, 0, 0, 'hours', 'automated_email', 'completed', '2026-02-06T10:00:00Z'),
             (900001, 1, 0, 'hours', 'automated_email', 'scheduled', NULL)`).run();
  });

  it('counts each user\'s calls, notes, tasks done, visits and emails sent per period, zeros included', async () => {
    const report = rows(await admin().get('/v2/reports/activities?from=2026-02-01&to=2026-03-31'));
    const counts = (r: any) => [r.user_name, r.period_start, r.calls, r.notes, r.tasks_completed, r.visits, r.emails_sent];
    expect(report.map(counts)).toEqual([
      ['Ada Admin', '2026-02-01', 1, 1, 0, 0, 0],
      ['Ada Admin', '2026-03-01', 0, 0, 0, 0, 0],
      ['Sam Agent', '2026-02-01', 1, 1, 0, 0, 1],
      ['Sam Agent', '2026-03-01', 1, 0, 1, 1, 0],
    ]);
    expect(report[3]).toMatchObject({ user_id: hub.agentId, period_end: '2026-03-31' });
  });

  it('gives an agent their own rows; restricted notes count only for who may read them, as the notes list has it', async () => {
    const own = rows(await agent().get('/v2/reports/activities?from=2026-02-01&to=2026-03-31'));
    expect(own.map((r: any) => [r.user_name, r.notes])).toEqual([['Sam Agent', 2], ['Sam Agent', 0]]);
    const listed = await agent().get('/v2/notes?per_page=100');
    expect(rows(listed).filter((n: any) => n.creator_id === hub.agentId)).toHaveLength(2);
  });
});

describe('lead conversion', () => {
  it('counts the leads created in the range per source and how many were converted', async () => {
    const web = (await agent().post('/v2/lead_sources', { name: 'Web' })).body.data.id;
    const leads = [];
    for (const source of [web, web, null]) leads.push((await agent().post('/v2/leads', { last_name: 'Lead', source_id: source })).body.data.id);
    expect((await agent().post('/v2/lead_conversions', { lead_id: leads[0], create_deal: false })).status).toBe(200);
    const report = rows(await agent().get('/v2/reports/lead_conversion'));
    // The agent's lead of the activities test has no source either.
    expect(report).toEqual([
      { source_id: null, source_name: 'No source', leads_count: 2, converted_count: 0, conversion_rate: '0.00' },
      { source_id: web, source_name: 'Web', leads_count: 2, converted_count: 1, conversion_rate: '0.50' },
    ]);
    expect(rows(await admin().get(`/v2/reports/lead_conversion?owner_id=${hub.adminId}`))).toEqual([]);
  });
});

describe('sales by product', () => {
  beforeAll(async () => {
    productId = (await admin().post('/v2/products', { name: 'Support plan', sku: 'SUP-1', prices: [{ amount: '49.99', currency: 'USD' }] })).body.data.id;
    for (const [name, quantity] of [['Won late', 3], ['Won in February', 1], ['A1', 5]] as const) {
      const order = (await admin().post('/v2/orders', { deal_id: deals[name] })).body.data.id;
      expect((await admin().post('/v2/line_items', { order_id: order, product_id: productId, currency: 'USD', quantity })).status).toBe(200);
    }
  });

  it('sums the line items of deals won in the range, per product', async () => {
    expect(rows(await admin().get('/v2/reports/product_sales?from=2026-02-01&to=2026-02-28'))).toEqual([
      { product_id: productId, product_name: 'Support plan', sku: 'SUP-1', quantity: 4, deals_count: 2, values: { USD: '199.96' }, converted_value: usd('199.96') },
    ]);
    expect(rows(await agent().get('/v2/reports/product_sales?from=2026-02-01&to=2026-02-28'))).toMatchObject([{ quantity: 3, deals_count: 1 }]);
    expect(rows(await admin().get('/v2/reports/product_sales?from=2026-01-01&to=2026-01-31'))).toEqual([]);
  });

  it('names a product by its line items once it is deleted (as a replica, which drops it, has it)', async () => {
    await admin().put(`/v2/products/${productId}`, { name: 'Support plan (new)' });
    expect(rows(await admin().get('/v2/reports/product_sales?from=2026-02-01&to=2026-02-28'))[0].product_name).toBe('Support plan (new)');
    expect((await call(hub, 'DELETE', `/v2/products/${productId}`, { token: hub.adminToken })).status).toBe(204);
    expect(rows(await admin().get('/v2/reports/product_sales?from=2026-02-01&to=2026-02-28'))[0]).toMatchObject({ product_id: productId, product_name: 'Support plan', sku: 'SUP-1' });
  });

  it('is refused on a plan without products, as the products are', async () => {
    await admin().put('/v2/accounts/self', { plan: 'growth' });
    const refused = await admin().get('/v2/reports/product_sales');
    const products = await admin().get('/v2/products');
    await admin().put('/v2/accounts/self', { plan: 'enterprise' });
    expect(refused.status).toBe(403);
    expect(refused.body.errors[0].error.message).toBe(products.body.errors[0].error.message);
  });
});

describe('who sees what', () => {
  it('gives agents only their own data and refuses another owner with 403', async () => {
    const forbidden = await agent().get(`/v2/reports/won_lost?owner_id=${hub.adminId}`);
    expect(forbidden.status).toBe(403);
    expect(codes(forbidden)).toEqual(['forbidden']);
    expect((await agent().get(`/v2/reports/pipeline?owner_id=${hub.agentId}`)).status).toBe(200);
    const team = rows(await admin().get('/v2/reports/pipeline')).find((r: any) => r.stage_name === 'Quote');
    const own = rows(await agent().get('/v2/reports/pipeline')).find((r: any) => r.stage_name === 'Quote');
    expect([team.deals_count, own.deals_count]).toEqual([3, 2]);
  });

  it('answers bad parameters with 400 invalid_param naming the parameter', async () => {
    const cases: [string, string][] = [
      ['/v2/reports/won_lost?from=2026-02-30', 'from'],
      ['/v2/reports/won_lost?to=yesterday', 'to'],
      ['/v2/reports/won_lost?from=2026-03-01&to=2026-02-01', 'from'],
      ['/v2/reports/won_lost?from=2023-01-01&to=2026-01-01', 'from'],
      ['/v2/reports/activities?interval=day', 'interval'],
      ['/v2/reports/pipeline?from=2026-01-01', 'from'],
      ['/v2/reports/pipeline?per_page=5', 'per_page'],
      ['/v2/reports/pipeline?owner_id=abc', 'owner_id'],
      ['/v2/reports/pipeline?owner_id=999999', 'owner_id'],
      ['/v2/reports/loss_reasons?pipeline_id=999999', 'pipeline_id'],
      ['/v2/reports/lead_conversion?to=2026-01-01&to=2026-01-02', 'to'],
    ];
    for (const [path, field] of cases) {
      const answer = await admin().get(path);
      expect([path, answer.status, codes(answer), fields(answer)]).toEqual([path, 400, ['invalid_param'], [field]]);
    }
    expect((await admin().get('/v2/reports/won_lost?from=2023-01-02&to=2026-01-01')).status).toBe(200);
    expect((await call(hub, 'GET', '/v2/reports/pipeline')).status).toBe(401);
  });
});

describe('CSV exports', () => {
  it('has columns for people, one value column per currency, BOM and CRLF', async () => {
    const answer = await agent().get('/v2/reports/pipeline/export.csv');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(answer.headers.get('content-disposition')).toBe('attachment; filename="report-pipeline.csv"');
    // fetch's text() drops the BOM: read the bytes.
    const bytes = Buffer.from(await (await fetch(`${hub.url}/v2/reports/pipeline/export.csv`, { headers: { Authorization: `Bearer ${hub.agentToken}` } })).arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = answer.text.split('\r\n');
    // Each value per currency, then in the account's currency with what had no exchange rate.
    expect(lines[0]).toBe('Stage,Category,Likelihood (%),Deals,Value (EUR),Value (USD),Weighted value (EUR),Weighted value (USD),'
      + 'Value in USD,Value without an exchange rate,Weighted value in USD,Weighted value without an exchange rate');
    expect(lines[1]).toBe('Incoming,Incoming,10,2,0.00,1001.00,0.00,100.10,1001.00,,100.10,');
    expect(lines[3]).toBe('Quote,In progress,50,2,350.50,0.00,85.25,0.00,0.00,EUR 350.50,0.00,EUR 85.25');
  });

  it('guards cells a spreadsheet would run as formulas, and still has a header with no rows', async () => {
    const reasons = await admin().get('/v2/reports/loss_reasons/export.csv?from=2026-01-01&to=2026-02-28');
    expect(reasons.text.split('\r\n').slice(0, 2)).toEqual(['Loss reason,Deals,Value (EUR),Value (USD),Value in USD,Value without an exchange rate', "'=Too expensive,1,80.00,0.00,0.00,EUR 80.00"]);
    const empty = await admin().get('/v2/reports/loss_reasons/export.csv?from=2025-01-01&to=2025-01-31');
    expect(empty.text).toBe('Loss reason,Deals\r\n');
    const activities = await agent().get('/v2/reports/activities/export.csv?from=2026-03-01&to=2026-03-31');
    expect(activities.text.split('\r\n').slice(0, 2)).toEqual([
      'User,Period start,Period end,Calls,Notes,Tasks completed,Visits,Emails sent', 'Sam Agent,2026-03-01,2026-03-31,1,0,1,1,0',
    ]);
    expect((await admin().get('/v2/reports/won_lost/export.csv?interval=year')).status).toBe(400);
  });
});
