import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;
let productId: number;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const post = (path: string, data: unknown, token = hub.agentToken) => call(hub, 'POST', path, { token, data });
const put = (path: string, data: unknown, token = hub.agentToken) => call(hub, 'PUT', path, { token, data });
const del = (path: string, token = hub.agentToken) => call(hub, 'DELETE', path, { token });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const newDeal = async (name = 'Deal') => (await post('/v2/deals', { name, contact_id: contactId })).body.data.id as number;
const changes = (type: string, id: number) =>
  hub.engine.db.prepare('SELECT event_type FROM change_log WHERE resource_type = ? AND resource_id = ? ORDER BY revision').pluck().all(type, id);

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await post('/v2/contacts', { last_name: 'Buyer' })).body.data.id;
  productId = (await post('/v2/products', {
    name: 'Enterprise Plan', max_discount: 4, max_markup: 4, prices: [{ amount: '1599.99', currency: 'USD' }, { amount: '3599.99', currency: 'PLN' }],
  }, hub.adminToken)).body.data.id;
});
afterAll(() => hub.close());

describe('orders', () => {
  it('are created for a deal by agents, discount 0 by default, with empty totals', async () => {
    const dealId = await newDeal();
    const created = await post('/v2/orders', { deal_id: dealId });
    expect(created.status).toBe(200);
    expect(created.body.meta.type).toBe('order');
    expect(created.body.data).toEqual({
      id: created.body.data.id, deal_id: dealId, discount: 0, totals: [], created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect((await get(`/v2/orders/${created.body.data.id}`)).body.data).toEqual(created.body.data);
  });

  it('need an existing deal, at most one order per deal, and a discount from 0 to 100', async () => {
    expect([codes(await post('/v2/orders', {})), fields(await post('/v2/orders', {}))]).toEqual([['missing'], ['/deal_id']]);
    expect(codes(await post('/v2/orders', { deal_id: 999999 }))).toEqual(['incorrect_value']);
    const dealId = await newDeal();
    expect((await post('/v2/orders', { deal_id: dealId, discount: 4 })).body.data.discount).toBe(4);
    expect(codes(await post('/v2/orders', { deal_id: dealId }))).toEqual(['already_exists']);
    const other = await newDeal();
    for (const discount of [-1, 100.5, '1.234', 'lots']) expect(fields(await post('/v2/orders', { deal_id: other, discount }))).toEqual(['/discount']);
    expect(codes(await post('/v2/orders', { deal_id: other, total: 1 }))).toEqual(['unknown']);
    expect((await post('/v2/orders', { deal_id: other, discount: '12.5' })).body.data.discount).toBe(12.5);
  });

  it('require discount on update and keep their deal (the same deal_id may be sent back)', async () => {
    const order = (await post('/v2/orders', { deal_id: await newDeal() })).body.data;
    expect([codes(await put(`/v2/orders/${order.id}`, {})), fields(await put(`/v2/orders/${order.id}`, {}))]).toEqual([['missing'], ['/discount']]);
    const moved = await put(`/v2/orders/${order.id}`, { deal_id: await newDeal(), discount: 5 });
    expect([moved.status, codes(moved), fields(moved)]).toEqual([422, ['incorrect_value'], ['/deal_id']]);
    hub.clock.advance(1000);
    const back = await put(`/v2/orders/${order.id}`, { ...order, discount: 10 });
    expect(back.body.data).toMatchObject({ deal_id: order.deal_id, discount: 10, updated_at: '2026-03-02T10:00:01Z' });
    expect(codes(await put('/v2/orders/999999', { discount: 1 }))).toEqual(['not_found']);
  });

  it('show totals per currency: value × quantity summed, then the order discount, exactly', async () => {
    const order = (await post('/v2/orders', { deal_id: await newDeal() })).body.data;
    const items = `/v2/orders/${order.id}/line_items`;
    await post(items, { product_id: productId, currency: 'USD', quantity: 3 });
    await post(items, { product_id: productId, currency: 'USD', variation: -4 });
    await post(items, { product_id: productId, currency: 'PLN', variation: 2, quantity: 2 });
    // USD: 1599.99 × 3 + 1535.99 (1599.99 × 0.96 = 1535.9904); PLN: 3671.99 × 2.
    expect((await get(`/v2/orders/${order.id}`)).body.data.totals).toEqual([
      { currency: 'PLN', subtotal: '7343.98', total: '7343.98' },
      { currency: 'USD', subtotal: '6335.96', total: '6335.96' },
    ]);
    const discounted = await put(`/v2/orders/${order.id}`, { discount: 7.5 });
    // 7343.98 × 0.925 = 6793.1815 → 6793.18; 6335.96 × 0.925 = 5860.763 → 5860.76.
    expect(discounted.body.data.totals).toEqual([
      { currency: 'PLN', subtotal: '7343.98', total: '6793.18' },
      { currency: 'USD', subtotal: '6335.96', total: '5860.76' },
    ]);
  });

  it('list with ids and deal_id, sort by id, deal_id, created_at, updated_at, and allow per_page up to 500', async () => {
    const first = (await post('/v2/orders', { deal_id: await newDeal() })).body.data;
    const second = (await post('/v2/orders', { deal_id: await newDeal() })).body.data;
    expect(ids(await get(`/v2/orders?ids=${second.id},${first.id}`))).toEqual([first.id, second.id]);
    expect(ids(await get(`/v2/orders?deal_id=${second.deal_id}`))).toEqual([second.id]);
    expect(ids(await get(`/v2/orders?ids=${first.id},${second.id}&sort_by=deal_id:desc`))).toEqual([second.id, first.id]);
    expect((await get('/v2/orders?per_page=500')).status).toBe(200);
    expect(codes(await get('/v2/orders?per_page=501'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/orders?sort_by=value'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/orders?product_id=1'))).toEqual(['invalid_param']);
  });

  it('are deleted with all their line items in one call, each logged', async () => {
    const order = (await post('/v2/orders', { deal_id: await newDeal() })).body.data;
    const lineIds: number[] = [];
    for (const currency of ['USD', 'PLN']) lineIds.push((await post(`/v2/orders/${order.id}/line_items`, { product_id: productId, currency })).body.data.id);
    expect((await del(`/v2/orders/${order.id}`)).status).toBe(204);
    expect(codes(await get(`/v2/orders/${order.id}`))).toEqual(['not_found']);
    expect(hub.engine.db.prepare('SELECT COUNT(*) FROM line_items WHERE order_id = ?').pluck().get(order.id)).toBe(0);
    for (const id of lineIds) expect(changes('line_item', id)).toEqual(['created', 'deleted']);
    expect(changes('order', order.id).at(-1)).toBe('deleted');
    expect(codes(await del(`/v2/orders/${order.id}`))).toEqual(['not_found']);
  });

  it('go with their deal: deleting the deal removes its order and line items', async () => {
    const dealId = await newDeal();
    const order = (await post('/v2/orders', { deal_id: dealId })).body.data;
    const line = (await post(`/v2/orders/${order.id}/line_items`, { product_id: productId, currency: 'USD' })).body.data;
    expect((await del(`/v2/deals/${dealId}`)).status).toBe(204);
    expect(codes(await get(`/v2/orders/${order.id}`))).toEqual(['not_found']);
    expect(changes('order', order.id).at(-1)).toBe('deleted');
    expect(changes('line_item', line.id)).toEqual(['created', 'deleted']);
  });
});

describe('orders: the plan and the admin switch', () => {
  it('answer 403 on a plan without commerce, and refuse every change (not GET) while disabled, keeping the data', async () => {
    const order = (await post('/v2/orders', { deal_id: await newDeal() })).body.data;
    await put('/v2/accounts/self', { plan: 'professional' }, hub.adminToken);
    for (const answer of [await get('/v2/orders'), await get(`/v2/orders/${order.id}`), await post('/v2/orders', { deal_id: await newDeal() })]) {
      expect([answer.status, codes(answer)]).toEqual([403, ['forbidden']]);
    }
    await put('/v2/accounts/self', { plan: 'elite', commerce_changes: 'disabled' }, hub.adminToken);
    expect((await get(`/v2/orders/${order.id}`)).body.data).toEqual(order);
    expect(ids(await get(`/v2/orders?ids=${order.id}`))).toEqual([order.id]);
    for (const answer of [
      await post('/v2/orders', { deal_id: await newDeal() }),
      await put(`/v2/orders/${order.id}`, { discount: 1 }),
      await del(`/v2/orders/${order.id}`),
      await del(`/v2/orders/${order.id}`, hub.adminToken),
    ]) expect([answer.status, codes(answer)]).toEqual([403, ['forbidden']]);
    await put('/v2/accounts/self', { commerce_changes: 'enabled' }, hub.adminToken);
    expect((await get(`/v2/orders/${order.id}`)).body.data).toEqual(order);
  });
});
