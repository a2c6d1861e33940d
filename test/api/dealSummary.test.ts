import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let stages: Record<string, number>;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });

beforeAll(async () => {
  hub = await startTestHub();
  stages = Object.fromEntries((await get('/v2/stages')).body.items.map((i: any) => [i.data.name, i.data.id]));
  const contact = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Buyer' } })).body.data.id;
  const deal = (data: Record<string, unknown>, token = hub.agentToken) => call(hub, 'POST', '/v2/deals', { token, data: { name: 'Deal', contact_id: contact, ...data } });
  await deal({ stage_id: stages.Incoming, value: '1000.25', currency: 'USD' });
  await deal({ stage_id: stages.Incoming, value: '0.75', currency: 'USD' });
  await deal({ stage_id: stages.Incoming, value: '999999999999999.99', currency: 'USD' });
  await deal({ stage_id: stages.Incoming, value: '999999999999999.99', currency: 'USD' });
  await deal({ stage_id: stages.Incoming, value: '12.5', currency: 'EUR', hot: true, tags: ['summed'] });
  await deal({ stage_id: stages.Quote, value: '300', currency: 'EUR' });
  await deal({ stage_id: stages.Quote, value: '50', currency: 'EUR' }, hub.adminToken);
});
afterAll(() => hub.close());

describe('deals per stage with their totals (extension /v2/deals/summary)', () => {
  it('counts a user\'s deals per stage and sums their values per currency, exactly', async () => {
    const answer = await get(`/v2/deals/summary?owner_id=${hub.agentId}`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: {
        stages: [
          // Beyond what a float holds: 1 001 + 2 × 999 999 999 999 999.99 stays exact.
          { stage_id: stages.Incoming, count: 5, totals: [{ currency: 'EUR', value: '12.5' }, { currency: 'USD', value: '2000000000001000.98' }] },
          { stage_id: stages.Quote, count: 1, totals: [{ currency: 'EUR', value: '300' }] },
        ],
      },
      meta: { type: 'deal_summary' },
    });
  });

  it('covers everyone\'s deals without owner_id, and refuses paging, an order and bad filters', async () => {
    const quote = (await get('/v2/deals/summary')).body.data.stages.find((s: any) => s.stage_id === stages.Quote);
    expect(quote).toEqual({ stage_id: stages.Quote, count: 2, totals: [{ currency: 'EUR', value: '350' }] });
    for (const param of ['per_page=10', 'page=2', 'count=true', 'sort_by=name']) {
      const refused = await get(`/v2/deals/summary?${param}`);
      expect(refused.status).toBe(400);
      expect(codes(refused)).toEqual(['invalid_param']);
    }
    expect(codes(await get('/v2/deals/summary?owner_id=abc'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/deals/summary?colour=red'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/deals/summary?hot=perhaps'))).toEqual(['invalid_param']);
  });

  it('takes the deals list\'s filters, so a filtered list\'s total adds up every match', async () => {
    const summed = async (query: string) => {
      const [summary, list] = await Promise.all([get(`/v2/deals/summary?${query}`), get(`/v2/deals?${query}&per_page=100&count=true`)]);
      expect(summary.status).toBe(200);
      const count = summary.body.data.stages.reduce((n: number, s: any) => n + s.count, 0);
      expect(count).toBe(list.body.meta.total_count);
      return summary.body.data.stages;
    };
    expect(await summed(`stage_id=${stages.Quote}&owner_id=${hub.adminId}`)).toEqual([{ stage_id: stages.Quote, count: 1, totals: [{ currency: 'EUR', value: '50' }] }]);
    expect(await summed('hot=true')).toEqual([{ stage_id: stages.Incoming, count: 1, totals: [{ currency: 'EUR', value: '12.5' }] }]);
    expect(await summed('tag=summed')).toEqual([{ stage_id: stages.Incoming, count: 1, totals: [{ currency: 'EUR', value: '12.5' }] }]);
    expect(await summed('currency=USD')).toEqual([{ stage_id: stages.Incoming, count: 4, totals: [{ currency: 'USD', value: '2000000000001000.98' }] }]);
    expect(await summed('name=Nothing')).toEqual([]);
  });

  it('sums a smart list\'s deals, a private one only for its owner', async () => {
    const list = await call(hub, 'POST', '/v2/smart_lists', {
      token: hub.agentToken, data: { name: 'Quotes', resource_type: 'deal', filters: { stage_id: String(stages.Quote) }, shared: false },
    });
    expect(list.status).toBe(200);
    const mine = await get(`/v2/deals/summary?smart_list_id=${list.body.data.id}`);
    expect(mine.body.data.stages).toEqual([{ stage_id: stages.Quote, count: 2, totals: [{ currency: 'EUR', value: '350' }] }]);
    const narrowed = await get(`/v2/deals/summary?smart_list_id=${list.body.data.id}&owner_id=${hub.agentId}`);
    expect(narrowed.body.data.stages).toEqual([{ stage_id: stages.Quote, count: 1, totals: [{ currency: 'EUR', value: '300' }] }]);
    const other = await get(`/v2/deals/summary?smart_list_id=${list.body.data.id}`, hub.adminToken);
    expect(other.status).toBe(404);
  });
});
