import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;

const rates = (token = hub.agentToken) => call(hub, 'GET', '/v2/exchange_rates', { token });
const setRate = (currency: string, data: unknown, token = hub.adminToken) => call(hub, 'PUT', `/v2/exchange_rates/${currency}`, { token, data });
const removeRate = (currency: string, token = hub.adminToken) => call(hub, 'DELETE', `/v2/exchange_rates/${currency}`, { token });
const account = (data: unknown) => call(hub, 'PUT', '/v2/accounts/self', { token: hub.adminToken, data });
const logged = (since: number) => hub.engine.db
  .prepare("SELECT event_type FROM change_log WHERE revision > ? AND resource_type = 'exchange_rate' ORDER BY revision").pluck().all(since);

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Buyer' } })).body.data.id;
});
afterAll(() => hub.close());

describe('exchange rates', () => {
  it('are set by an admin, stamped with when and by whom, and read by everyone', async () => {
    expect((await rates()).body.items).toEqual([]);
    const before = hub.engine.ctx.changes.currentRevision();
    const set = await setRate('eur', { rate: '1.0870' });
    expect(set.status).toBe(200);
    const adminId = (await call(hub, 'GET', '/v2/users/self', { token: hub.adminToken })).body.data.id;
    expect(set.body.data).toMatchObject({ currency: 'EUR', rate: '1.087', set_at: '2026-03-02T10:00:00Z', set_by_id: adminId });
    hub.clock.advance(60_000);
    // A number is taken too; setting again replaces the rate and its date, keeping the id.
    const again = await setRate('EUR', { rate: 1.09 });
    expect(again.body.data).toMatchObject({ id: set.body.data.id, rate: '1.09', set_at: '2026-03-02T10:01:00Z' });
    await setRate('GBP', { rate: '1.27', currency: 'GBP', set_at: 'ignored' });
    const list = await rates();
    expect(list.body.items.map((i: any) => [i.data.currency, i.data.rate])).toEqual([['EUR', '1.09'], ['GBP', '1.27']]);
    expect(list.body.items[0].meta.type).toBe('exchange_rate');
    expect((await call(hub, 'GET', '/v2/exchange_rates/gbp', { token: hub.agentToken })).body.data.rate).toBe('1.27');
    expect(logged(before)).toEqual(['created', 'updated', 'created']);
  });

  it('refuse agents with 403, and bad currencies and rates with 422 naming the field', async () => {
    expect((await setRate('CHF', { rate: '1.1' }, hub.agentToken)).status).toBe(403);
    expect((await removeRate('EUR', hub.agentToken)).status).toBe(403);
    for (const rate of ['0', '-1', 'abc', '1.12345678901', '', null, true, '1e3']) {
      const answer = await setRate('CHF', { rate });
      expect(answer.status, String(rate)).toBe(422);
      expect(fields(answer)).toEqual(['/rate']);
    }
    expect(fields(await setRate('CHF', {}))).toEqual(['/rate']);
    expect(fields(await setRate('CHF', { rate: '1.1', colour: 'red' }))).toEqual(['/colour']);
    const unknown = await setRate('XYZ', { rate: '2' });
    expect(unknown.status).toBe(422);
    expect(fields(unknown)).toEqual(['/currency']);
    // The account's own currency is always 1.
    const own = await setRate('USD', { rate: '1' });
    expect([own.status, fields(own)]).toEqual([422, ['/currency']]);
    expect((await call(hub, 'GET', '/v2/exchange_rates/CHF', { token: hub.agentToken })).status).toBe(404);
  });

  it('are removed by an admin (404 for a currency without one)', async () => {
    await setRate('CHF', { rate: '1.13' });
    expect((await removeRate('chf')).status).toBe(204);
    expect((await removeRate('CHF')).status).toBe(404);
    expect((await rates()).body.items.map((i: any) => i.data.currency)).toEqual(['EUR', 'GBP']);
  });

  it('are cleared when the account changes its currency, since they were in the old one', async () => {
    const before = hub.engine.ctx.changes.currentRevision();
    expect((await account({ currency: 'USD', name: 'Same currency' })).status).toBe(200);
    expect((await rates()).body.items).toHaveLength(2);
    expect((await account({ currency: 'EUR' })).status).toBe(200);
    expect((await rates()).body.items).toEqual([]);
    expect(logged(before)).toEqual(['deleted', 'deleted']);
    await account({ currency: 'USD' });
  });
});

describe('currencies are ISO 4217 codes in use', () => {
  it('for a deal, on create and on update (422 on /currency)', async () => {
    const refused = await call(hub, 'POST', '/v2/deals', { token: hub.agentToken, data: { name: 'Odd', contact_id: contactId, currency: 'XYZ' } });
    expect([refused.status, fields(refused), codes(refused)]).toEqual([422, ['/currency'], ['incorrect_value']]);
    expect(refused.body.errors[0].error.message).toContain('"XYZ"');
    const deal = (await call(hub, 'POST', '/v2/deals', { token: hub.agentToken, data: { name: 'Fine', contact_id: contactId, currency: 'chf' } })).body.data;
    expect(deal.currency).toBe('CHF');
    for (const currency of ['XYZ', 'XXX', 'HRK', 'US']) {
      const answer = await call(hub, 'PUT', `/v2/deals/${deal.id}`, { token: hub.agentToken, data: { currency } });
      expect([answer.status, fields(answer)], currency).toEqual([422, ['/currency']]);
    }
  });

  it('for the account', async () => {
    const answer = await account({ currency: 'XYZ' });
    expect([answer.status, fields(answer)]).toEqual([422, ['/currency']]);
  });

  it('for product prices and costs', async () => {
    const answer = await call(hub, 'POST', '/v2/products', {
      token: hub.adminToken, data: { name: 'Widget', prices: [{ amount: '10', currency: 'XYZ' }], cost: '5', cost_currency: 'ABC' },
    });
    expect(answer.status).toBe(422);
    expect(fields(answer).sort()).toEqual(['/cost_currency', '/prices/0/currency']);
  });
});

describe('reports in the account currency', () => {
  it('answer each money field also converted, with what had no rate apart, and the CSV says both', async () => {
    const stage = (await call(hub, 'GET', '/v2/stages', { token: hub.agentToken })).body.items.map((i: any) => i.data).find((s: any) => s.name === 'Quote');
    const deal = (data: Record<string, unknown>) => call(hub, 'POST', '/v2/deals', { token: hub.agentToken, data: { contact_id: contactId, stage_id: stage.id, ...data } });
    const before = await call(hub, 'GET', '/v2/reports/pipeline', { token: hub.agentToken });
    const quoteBefore = before.body.items.map((i: any) => i.data).find((r: any) => r.stage_id === stage.id);
    expect(quoteBefore.converted_value).toEqual({ currency: 'USD', amount: '0.00', unconverted: {} });
    await setRate('EUR', { rate: '1.1' });
    await deal({ name: 'Dollars', value: '100.50', currency: 'USD' });
    await deal({ name: 'Euros', value: '200.05', currency: 'EUR' });
    await deal({ name: 'Francs', value: '1200', currency: 'CHF' });
    const report = await call(hub, 'GET', '/v2/reports/pipeline', { token: hub.agentToken });
    const quote = report.body.items.map((i: any) => i.data).find((r: any) => r.stage_id === stage.id);
    expect(quote.values).toEqual({ CHF: '1200.00', EUR: '200.05', USD: '100.50' });
    // 100.50 + 200.05 × 1.1 = 320.555 → 320.56; CHF has no rate.
    expect(quote.converted_value).toEqual({ currency: 'USD', amount: '320.56', unconverted: { CHF: '1200.00' } });
    // Weighted at the stage's likelihood, per currency, then converted.
    const weighted = quote.weighted_values;
    expect(quote.converted_weighted_value.unconverted).toEqual({ CHF: weighted.CHF });
    const csv = await fetch(`${hub.url}/v2/reports/pipeline/export.csv`, { headers: { authorization: `Bearer ${hub.agentToken}` } });
    const lines = (await csv.text()).split('\r\n');
    expect(lines[0]).toContain('Value in USD');
    expect(lines[0]).toContain('Value without an exchange rate');
    expect(lines.find((l) => l.startsWith('Quote'))).toContain('320.56');
    expect(lines.find((l) => l.startsWith('Quote'))).toContain('CHF 1200.00');
  });
});
