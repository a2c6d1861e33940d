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
  await deal({ stage_id: stages.Incoming, value: '12.5', currency: 'EUR' });
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

  it('covers everyone\'s deals without owner_id, and refuses other parameters', async () => {
    const quote = (await get('/v2/deals/summary')).body.data.stages.find((s: any) => s.stage_id === stages.Quote);
    expect(quote).toEqual({ stage_id: stages.Quote, count: 2, totals: [{ currency: 'EUR', value: '350' }] });
    expect(codes(await get('/v2/deals/summary?per_page=10'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/deals/summary?owner_id=abc'))).toEqual(['invalid_param']);
  });
});
