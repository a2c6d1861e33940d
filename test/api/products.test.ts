import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const as = (token: string) => ({
  get: (path: string) => call(hub, 'GET', path, { token }),
  post: (path: string, data: unknown) => call(hub, 'POST', path, { token, data }),
  put: (path: string, data: unknown) => call(hub, 'PUT', path, { token, data }),
  del: (path: string) => call(hub, 'DELETE', path, { token }),
});
let admin: ReturnType<typeof as>;
let agent: ReturnType<typeof as>;
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

/** The product the Python client's tests create. */
const CLIENT_PRODUCT = {
  name: 'Enterprise Plan', description: 'Includes more storage options', sku: 'enterprise-plan', active: true,
  max_discount: 4, max_markup: 4, cost: 2, cost_currency: 'USD',
  prices: [{ amount: '1599.99', currency: 'USD' }, { amount: '3599.99', currency: 'PLN' }],
};

beforeAll(async () => {
  hub = await startTestHub();
  admin = as(hub.adminToken);
  agent = as(hub.agentToken);
});
afterAll(() => hub.close());

describe('products', () => {
  it('are created by admins with every field; prices as decimal strings', async () => {
    const created = await admin.post('/v2/products', CLIENT_PRODUCT);
    expect(created.status).toBe(200);
    expect(created.body.meta.type).toBe('product');
    expect(created.body.data).toMatchObject({
      ...CLIENT_PRODUCT, cost: '2', creator_id: hub.adminId, created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect(typeof created.body.data.id).toBe('number');
  });

  it('take what GET returned back on PUT (read-only fields accepted and ignored)', async () => {
    const product = (await admin.post('/v2/products', { name: 'Round trip', prices: [{ amount: 10, currency: 'eur' }] })).body.data;
    expect(product).toMatchObject({ active: true, max_discount: 0, max_markup: 0, cost: null, cost_currency: null, description: null, sku: null, prices: [{ amount: '10', currency: 'EUR' }] });
    const again = await admin.put(`/v2/products/${product.id}`, product);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(product);
  });

  it('require name and prices on create, and list every problem at once', async () => {
    const answer = await admin.post('/v2/products', {});
    expect(answer.status).toBe(422);
    expect(fields(answer).sort()).toEqual(['/name', '/prices']);
    expect(codes(answer)).toEqual(['missing', 'missing']);
    expect(codes(await admin.post('/v2/products', { name: ' ', prices: [] }))).toEqual(['blank']);
    const bad = await admin.post('/v2/products', {
      name: 'Bad', colour: 'red', cost: '-1', cost_currency: 'dollars', max_discount: 101, max_markup: '1.234',
      prices: [{ amount: '1.999', currency: 'USD' }, { amount: '5', currency: 'usd' }, { currency: 'EUR' }, { amount: '1', currency: 'EURO', tax: 1 }],
    });
    expect(bad.status).toBe(422);
    expect(fields(bad).sort()).toEqual([
      '/colour', '/cost', '/cost_currency', '/max_discount', '/max_markup',
      '/prices/0/amount', '/prices/1/currency', '/prices/2/amount', '/prices/3/currency', '/prices/3/tax',
    ]);
    expect(codes(await admin.post('/v2/products', { name: 'X', prices: 'cheap' }))).toEqual(['invalid_type']);
  });

  it('replace prices entirely whenever sent, and keep them when not', async () => {
    const product = (await admin.post('/v2/products', { name: 'Prices', prices: [{ amount: '1', currency: 'USD' }, { amount: '2', currency: 'EUR' }] })).body.data;
    const renamed = await admin.put(`/v2/products/${product.id}`, { name: 'Prices 2' });
    expect(renamed.body.data.prices).toEqual(product.prices);
    const replaced = await admin.put(`/v2/products/${product.id}`, { prices: [{ amount: '3.50', currency: 'GBP' }] });
    expect(replaced.body.data.prices).toEqual([{ amount: '3.5', currency: 'GBP' }]);
    expect((await admin.put(`/v2/products/${product.id}`, { prices: [] })).body.data.prices).toEqual([]);
  });

  it('are changed only by admins: agents read them, and get 403 forbidden on writes', async () => {
    const product = (await admin.post('/v2/products', { name: 'Admin only', prices: [] })).body.data;
    for (const answer of [
      await agent.post('/v2/products', { name: 'Mine', prices: [] }),
      await agent.put(`/v2/products/${product.id}`, { name: 'Mine' }),
      await agent.del(`/v2/products/${product.id}`),
    ]) expect([answer.status, codes(answer)]).toEqual([403, ['forbidden']]);
    expect((await agent.get(`/v2/products/${product.id}`)).body.data.name).toBe('Admin only');
  });

  it('show cost and cost_currency to admins only (null for agents) in GET, lists and sync', async () => {
    const product = (await admin.post('/v2/products', { name: 'Costly', cost: '12.5', cost_currency: 'EUR', prices: [] })).body.data;
    expect((await admin.get(`/v2/products/${product.id}`)).body.data).toMatchObject({ cost: '12.5', cost_currency: 'EUR' });
    expect((await agent.get(`/v2/products/${product.id}`)).body.data).toMatchObject({ cost: null, cost_currency: null });
    const listed = (answer: any) => answer.body.items.find((i: any) => i.data.id === product.id).data;
    expect(listed(await admin.get('/v2/products?per_page=100'))).toMatchObject({ cost: '12.5' });
    expect(listed(await agent.get('/v2/products?per_page=100'))).toMatchObject({ cost: null, cost_currency: null });
    for (const [userId, token, cost] of [[hub.adminId, hub.adminToken, '12.5'], [hub.agentId, hub.agentToken, null]] as const) {
      const item = (await syncAll(hub.tokenFor(userId, ['read', 'sync']))).find((i) => i.meta.type === 'product' && i.data.id === product.id);
      expect(item.data.cost).toBe(cost);
      expect(item.data).toEqual((await call(hub, 'GET', `/v2/products/${product.id}`, { token })).body.data);
    }
  });

  it('list with the spec filters (ids, name, sku, active) and sorts (id, updated_at, created_at)', async () => {
    const a = (await admin.post('/v2/products', { name: 'Filter A', sku: 'FA', prices: [] })).body.data;
    hub.clock.advance(60_000);
    const b = (await admin.post('/v2/products', { name: 'Filter B', sku: 'FB', active: false, prices: [] })).body.data;
    expect(ids(await agent.get(`/v2/products?ids=${b.id},${a.id}`))).toEqual([a.id, b.id]);
    expect(ids(await agent.get('/v2/products?name=Filter%20A'))).toEqual([a.id]);
    expect(ids(await agent.get('/v2/products?sku=FB'))).toEqual([b.id]);
    expect(ids(await agent.get(`/v2/products?ids=${a.id},${b.id}&active=false`))).toEqual([b.id]);
    expect(ids(await agent.get(`/v2/products?ids=${a.id},${b.id}&sort_by=created_at:desc`))).toEqual([b.id, a.id]);
    expect(ids(await agent.get(`/v2/products?ids=${a.id},${b.id}&sort_by=id:desc`))).toEqual([b.id, a.id]);
    expect(codes(await agent.get('/v2/products?sort_by=name'))).toEqual(['invalid_param']);
    expect(codes(await agent.get('/v2/products?cost=1'))).toEqual(['invalid_param']);
  });

  it('leave the catalog when deleted: 404 on GET, PUT and DELETE, gone from lists', async () => {
    const product = (await admin.post('/v2/products', { name: 'Gone', prices: [] })).body.data;
    expect((await admin.del(`/v2/products/${product.id}`)).status).toBe(204);
    expect(codes(await agent.get(`/v2/products/${product.id}`))).toEqual(['not_found']);
    expect(codes(await admin.put(`/v2/products/${product.id}`, { name: 'Back' }))).toEqual(['not_found']);
    expect(codes(await admin.del(`/v2/products/${product.id}`))).toEqual(['not_found']);
    expect(ids(await agent.get(`/v2/products?ids=${product.id}`))).toEqual([]);
    expect(codes(await agent.get('/v2/products/999999'))).toEqual(['not_found']);
  });
});

describe('products: the plan and the admin switch', () => {
  it('answer 403 naming the plan without enterprise, and only GET while changes are disabled', async () => {
    const product = (await admin.post('/v2/products', { name: 'Gated', prices: [] })).body.data;
    expect((await admin.put('/v2/accounts/self', { plan: 'growth' })).status).toBe(200);
    for (const answer of [await agent.get('/v2/products'), await agent.get(`/v2/products/${product.id}`), await admin.post('/v2/products', { name: 'N', prices: [] })]) {
      expect([answer.status, codes(answer)]).toEqual([403, ['forbidden']]);
      expect(answer.body.errors[0].error.message).toMatch(/enterprise/);
    }
    await admin.put('/v2/accounts/self', { plan: 'enterprise', commerce_changes: 'disabled' });
    expect((await agent.get(`/v2/products/${product.id}`)).status).toBe(200);
    for (const answer of [
      await admin.post('/v2/products', { name: 'N', prices: [] }),
      await admin.put(`/v2/products/${product.id}`, { name: 'Renamed' }),
      await admin.del(`/v2/products/${product.id}`),
    ]) expect([answer.status, codes(answer)]).toEqual([403, ['forbidden']]);
    await admin.put('/v2/accounts/self', { commerce_changes: 'enabled' });
    expect((await agent.get(`/v2/products/${product.id}`)).body.data.name).toBe('Gated');
  });
});

/** Every item of one whole sync session (acknowledged), for a token with the sync scope. */
async function syncAll(token: string): Promise<any[]> {
  const headers = { 'X-Service-Device-UUID': randomUUID() };
  const started = await call(hub, 'POST', '/v2/sync/start', { token, headers });
  const items: any[] = [];
  for (;;) {
    const page = await call(hub, 'GET', `/v2/sync/${started.body.data.id}/queues/main`, { token, headers });
    if (page.status === 204) return items;
    items.push(...page.body.items);
    await call(hub, 'POST', '/v2/sync/ack', { token, headers, data: { ack_keys: page.body.items.map((i: any) => i.meta.sync.ack_key) } });
  }
}
