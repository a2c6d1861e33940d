import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { unitValue } from '../../electron/engine/resources/lineItems.js';

let hub: TestHub;
let contactId: number;
let productId: number;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const post = (path: string, data: unknown, token = hub.agentToken) => call(hub, 'POST', path, { token, data });
const put = (path: string, data: unknown, token = hub.agentToken) => call(hub, 'PUT', path, { token, data });
const del = (path: string, token = hub.agentToken) => call(hub, 'DELETE', path, { token });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const product = async (data: Record<string, unknown>) => (await post('/v2/products', { name: 'P', prices: [], ...data }, hub.adminToken)).body.data.id as number;
const newOrder = async () => {
  const dealId = (await post('/v2/deals', { name: 'Deal', contact_id: contactId })).body.data.id;
  return (await post('/v2/orders', { deal_id: dealId })).body.data.id as number;
};

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await post('/v2/contacts', { last_name: 'Buyer' })).body.data.id;
  productId = await product({
    name: 'Enterprise Plan', description: 'Includes more storage options', sku: 'enterprise-plan', max_discount: 4, max_markup: 4,
    prices: [{ amount: '1599.99', currency: 'USD' }, { amount: '3599.99', currency: 'PLN' }],
  });
});
afterAll(() => hub.close());

describe('line item value', () => {
  it('is price × (1 + variation/100) per unit, rounded half up to the cent, exactly', () => {
    expect(unitValue('3599.99', '2')).toBe('3671.99');
    expect(unitValue('3599.99', '-2')).toBe('3527.99');
    expect(unitValue('0.5', '1')).toBe('0.51'); // 0.505
    expect(unitValue('1.5', '-1')).toBe('1.49'); // 1.485
    expect(unitValue('0.1', '-50')).toBe('0.05');
    expect(unitValue('999999999999999.99', '0.01')).toBe('1000099999999999.99'); // beyond a double's precision
    expect(unitValue('10', '0')).toBe('10');
    expect(unitValue('10', '-100')).toBe('0');
  });
});

describe('line items', () => {
  it('are created as the clients send them (value and price are the service\'s: accepted and ignored)', async () => {
    const orderId = await newOrder();
    const answer = await post(`/v2/orders/${orderId}/line_items`, { product_id: productId, value: 1, variation: 0, currency: 'USD', quantity: 1, price: 1 });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('line_item');
    expect(answer.body.data).toEqual({
      id: answer.body.data.id, order_id: orderId, product_id: productId, name: 'Enterprise Plan', sku: 'enterprise-plan',
      description: 'Includes more storage options', currency: 'USD', price: '1599.99', variation: 0, value: '1599.99', quantity: 1,
      created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect((await get(`/v2/orders/${orderId}/line_items/${answer.body.data.id}`)).body.data).toEqual(answer.body.data);
  });

  it('compute the real service\'s examples and default quantity to 1', async () => {
    const orderId = await newOrder();
    const up = (await post(`/v2/orders/${orderId}/line_items`, { product_id: productId, currency: 'pln', variation: 2 })).body.data;
    const down = (await post(`/v2/orders/${orderId}/line_items`, { product_id: productId, currency: 'PLN', variation: '-2', quantity: 5 })).body.data;
    expect(up).toMatchObject({ currency: 'PLN', price: '3599.99', variation: 2, value: '3671.99', quantity: 1 });
    expect(down).toMatchObject({ variation: -2, value: '3527.99', quantity: 5 });
  });

  it('are refused from an inactive product, a deleted or unknown one, in a currency without price, or beyond the product\'s limits', async () => {
    const orderId = await newOrder();
    const path = `/v2/orders/${orderId}/line_items`;
    const inactive = await product({ active: false, prices: [{ amount: '1', currency: 'USD' }] });
    const deleted = await product({ prices: [{ amount: '1', currency: 'USD' }] });
    await del(`/v2/products/${deleted}`, hub.adminToken);
    for (const id of [inactive, deleted, 999999]) {
      const answer = await post(path, { product_id: id, currency: 'USD' });
      expect([answer.status, codes(answer), fields(answer)]).toEqual([422, ['incorrect_value'], ['/product_id']]);
    }
    expect(fields(await post(path, { product_id: productId, currency: 'EUR' }))).toEqual(['/currency']);
    expect(fields(await post(path, { product_id: productId }))).toEqual(['/currency']);
    expect(fields(await post(path, { currency: 'USD' }))).toEqual(['/product_id']);
    for (const variation of [4.01, -4.01, '5', 'a lot']) expect(fields(await post(path, { product_id: productId, currency: 'USD', variation }))).toEqual(['/variation']);
    expect((await post(path, { product_id: productId, currency: 'USD', variation: -4 })).body.data.value).toBe('1535.99');
    expect((await post(path, { product_id: productId, currency: 'USD', variation: 4 })).body.data.value).toBe('1663.99');
    for (const quantity of [0, -1, 1.5, 1_000_001]) expect(fields(await post(path, { product_id: productId, currency: 'USD', quantity }))).toEqual(['/quantity']);
    expect(codes(await post(path, { product_id: productId, currency: 'USD', discount: 1 }))).toEqual(['unknown']);
  });

  it('answer 404 for an unknown order, or a line item of another order', async () => {
    const orderId = await newOrder();
    const line = (await post(`/v2/orders/${orderId}/line_items`, { product_id: productId, currency: 'USD' })).body.data;
    for (const answer of [
      await get('/v2/orders/999999/line_items'),
      await post('/v2/orders/999999/line_items', { product_id: productId, currency: 'USD' }),
      await get(`/v2/orders/999999/line_items/${line.id}`),
    ]) expect([answer.status, codes(answer)]).toEqual([404, ['not_found']]);
    const other = await newOrder();
    expect(codes(await get(`/v2/orders/${other}/line_items/${line.id}`))).toEqual(['not_found']);
    expect(codes(await del(`/v2/orders/${other}/line_items/${line.id}`))).toEqual(['not_found']);
    expect((await put(`/v2/orders/${orderId}/line_items/${line.id}`, { quantity: 2 })).status).toBe(404);
  });

  it('list the order\'s line items (ids, product_id, currency; sorts id, value, quantity, created_at, updated_at) and are deleted one by one', async () => {
    const orderId = await newOrder();
    const path = `/v2/orders/${orderId}/line_items`;
    const a = (await post(path, { product_id: productId, currency: 'PLN', quantity: 2 })).body.data;
    const b = (await post(path, { product_id: productId, currency: 'USD', quantity: 7 })).body.data;
    expect(ids(await get(path))).toEqual([a.id, b.id]);
    expect(ids(await get(`${path}?currency=USD`))).toEqual([b.id]);
    expect(ids(await get(`${path}?sort_by=value`))).toEqual([b.id, a.id]);
    expect(ids(await get(`${path}?sort_by=quantity:desc`))).toEqual([b.id, a.id]);
    expect(ids(await get(`${path}?product_id=${productId}&ids=${a.id}`))).toEqual([a.id]);
    expect(codes(await get(`${path}?sort_by=name`))).toEqual(['invalid_param']);
    expect((await del(`${path}/${a.id}`)).status).toBe(204);
    expect(ids(await get(path))).toEqual([b.id]);
    expect((await get(`/v2/orders/${orderId}`)).body.data.totals).toEqual([{ currency: 'USD', subtotal: '11199.93', total: '11199.93' }]);
    expect(codes(await get(`${path}/${a.id}`))).toEqual(['not_found']);
  });

  it('keep what they copied when the product changes or leaves the catalog', async () => {
    const id = await product({ name: 'Old name', sku: 'OLD', prices: [{ amount: '10', currency: 'USD' }] });
    const orderId = await newOrder();
    const line = (await post(`/v2/orders/${orderId}/line_items`, { product_id: id, currency: 'USD' })).body.data;
    await put(`/v2/products/${id}`, { name: 'New name', sku: 'NEW', prices: [{ amount: '99', currency: 'USD' }] }, hub.adminToken);
    expect((await get(`/v2/orders/${orderId}/line_items/${line.id}`)).body.data).toEqual(line);
    expect((await del(`/v2/products/${id}`, hub.adminToken)).status).toBe(204);
    expect((await get(`/v2/orders/${orderId}/line_items/${line.id}`)).body.data).toEqual(line);
  });

  it('are also addressed by their own id at /v2/line_items (extension, for replicas)', async () => {
    const orderId = await newOrder();
    const created = await post('/v2/line_items', { order_id: orderId, product_id: productId, currency: 'USD', quantity: 2 });
    expect(created.body.data).toMatchObject({ order_id: orderId, quantity: 2, value: '1599.99' });
    expect(codes(await post('/v2/line_items', { product_id: productId, currency: 'USD' }))).toEqual(['missing']);
    expect(ids(await get(`/v2/line_items?order_id=${orderId}`))).toEqual([created.body.data.id]);
    expect((await del(`/v2/line_items/${created.body.data.id}`)).status).toBe(204);
    expect((await get(`/v2/orders/${orderId}`)).body.data.totals).toEqual([]);
  });
});

describe('line items: the plan and the admin switch', () => {
  it('answer 403 on every route without the plan, and to every change while disabled (data kept)', async () => {
    const orderId = await newOrder();
    const path = `/v2/orders/${orderId}/line_items`;
    const line = (await post(path, { product_id: productId, currency: 'USD' })).body.data;
    await put('/v2/accounts/self', { plan: 'starter' }, hub.adminToken);
    for (const answer of [
      await get(path), await get(`${path}/${line.id}`), await post(path, { product_id: productId, currency: 'USD' }), await del(`${path}/${line.id}`),
      await get(`/v2/line_items/${line.id}`),
    ]) expect([answer.status, codes(answer)]).toEqual([403, ['forbidden']]);
    await put('/v2/accounts/self', { plan: 'enterprise', commerce_changes: 'disabled' }, hub.adminToken);
    expect(ids(await get(path))).toEqual([line.id]);
    expect((await get(`${path}/${line.id}`)).body.data).toEqual(line);
    for (const answer of [
      await post(path, { product_id: productId, currency: 'USD' }), await del(`${path}/${line.id}`),
      await post('/v2/line_items', { order_id: orderId, product_id: productId, currency: 'USD' }), await del(`/v2/line_items/${line.id}`),
    ]) expect([answer.status, codes(answer)]).toEqual([403, ['forbidden']]);
    await put('/v2/accounts/self', { commerce_changes: 'enabled' }, hub.adminToken);
    expect((await get(`${path}/${line.id}`)).body.data).toEqual(line);
  });
});
