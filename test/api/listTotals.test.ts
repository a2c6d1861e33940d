import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });

beforeAll(async () => {
  hub = await startTestHub();
  for (const last_name of ['Totalson', 'Totalsen', 'Otherwise']) {
    expect((await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name } })).status).toBe(200);
  }
});
afterAll(() => hub.close());

describe('list totals (count=true, an Outpost extension)', () => {
  it('leaves the meta as the real service has it unless asked', async () => {
    const plain = await get('/v2/contacts?per_page=1');
    expect(plain.status).toBe(200);
    expect(Object.keys(plain.body.meta)).toEqual(['type', 'count', 'links']);
    const no = await get('/v2/contacts?per_page=1&count=false');
    expect(no.body.meta.total_count).toBeUndefined();
  });

  it('counts every match of the filters, whatever the page', async () => {
    const all = await get('/v2/contacts?per_page=1&count=true');
    expect(all.body.meta).toMatchObject({ type: 'collection', count: 1, total_count: 3 });
    const second = await get('/v2/contacts?per_page=2&page=2&count=true&sort_by=last_name');
    expect(second.body.meta).toMatchObject({ count: 1, total_count: 3 });
    const searched = await get('/v2/contacts?q=Totalson&count=true');
    expect(searched.body.meta.total_count).toBe(searched.body.items.length);
    const none = await get('/v2/contacts?last_name=Nobody&count=true');
    expect(none.body.meta).toMatchObject({ count: 0, total_count: 0 });
  });

  it('reads count as any query boolean and refuses other values', async () => {
    const page = await get('/v2/leads?count=yes');
    expect(page.status).toBe(200);
    expect(page.body.meta.total_count).toBe(0);
    const bad = await get('/v2/contacts?count=many');
    expect(bad.status).toBe(400);
    expect(codes(bad)).toEqual(['invalid_param']);
  });
});
