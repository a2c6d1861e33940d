import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import { call, startTestHub, type TestHub } from '../support/testHub.js';

/**
 * Field-by-field merging on the hub: an update that says what it was made against
 * (`meta.base`) is merged field by field, and a device's time of writing
 * (`meta.written_at`) is kept. Real HTTP on 127.0.0.1, on SQLite and (under
 * vitest.postgres.config.ts) on PostgreSQL.
 */
let hub: TestHub;
let deviceToken: string;
const device = () => ({ 'X-Service-Device-UUID': randomUUID() });

beforeAll(async () => {
  hub = await startTestHub();
  deviceToken = hub.tokenFor(hub.agentId, ['read', 'write', 'profile', 'sync']);
});
afterAll(async () => {
  await hub.close();
});

async function contact(data: Record<string, unknown>): Promise<number> {
  const made = await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Merge', ...data } });
  expect(made.status).toBe(200);
  return made.body.data.id;
}

const put = (id: number, data: Record<string, unknown>, meta?: Record<string, unknown>, token = hub.agentToken, headers: Record<string, string> = {}) =>
  call(hub, 'PUT', `/v2/contacts/${id}`, { token, raw: JSON.stringify({ data, ...(meta ? { meta } : {}) }), headers });

describe('PUT with meta.base', () => {
  it('takes a field whose value is still its base, and keeps one a colleague changed, saying who and when', async () => {
    const id = await contact({ title: 'Buyer', phone: '1' });
    hub.clock.advance(1000);
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { title: 'Head buyer' } });
    const changedAt = new Date(hub.clock.now()).toISOString().replace('.000', '');
    hub.clock.advance(1000);
    const answer = await put(id, { title: 'Chief buyer', phone: '2' }, { base: { title: 'Buyer', phone: '1' } });
    expect(answer.status).toBe(200);
    expect(answer.body.data).toMatchObject({ title: 'Head buyer', phone: '2' });
    expect(answer.body.meta).toEqual({
      type: 'contact',
      conflicts: [{ field: 'title', value: 'Head buyer', base: 'Buyer', changed_by_id: hub.adminId, changed_at: changedAt }],
    });
  });

  it('answers no conflicts when nothing else changed, and none when both made the same change', async () => {
    const id = await contact({ title: 'A' });
    const plain = await put(id, { title: 'B' }, { base: { title: 'A' } });
    expect(plain.body.meta).toEqual({ type: 'contact' });
    const same = await put(id, { title: 'B' }, { base: { title: 'A' } });
    expect(same.body.meta).toEqual({ type: 'contact' });
    expect(same.body.data.title).toBe('B');
  });

  it('merges tags item by item and address keys one by one', async () => {
    const id = await contact({ tags: ['a', 'b'], address: { line1: '1 Main', city: 'X', postal_code: '1' } });
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { tags: ['a', 'b', 'hub'], address: { line1: '1 Main', city: 'X', postal_code: '2' } } });
    const answer = await put(id, { tags: ['b', 'rep'], address: { city: 'Y' } }, { base: { tags: ['a', 'b'], address: { city: 'X' } } });
    expect(answer.status).toBe(200);
    expect([...answer.body.data.tags].sort()).toEqual(['b', 'hub', 'rep']);
    expect(answer.body.data.address).toMatchObject({ line1: '1 Main', city: 'Y', postal_code: '2' });
    expect(answer.body.meta.conflicts).toBeUndefined();
  });

  it('keeps an address key changed on both sides, and applies the rest of the edit', async () => {
    const id = await contact({ address: { city: 'X', postal_code: '1' } });
    await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.adminToken, data: { address: { city: 'Hub', postal_code: '1' } } });
    const answer = await put(id, { address: { city: 'Rep', postal_code: '9' } }, { base: { address: { city: 'X', postal_code: '1' } } });
    expect(answer.body.data.address).toMatchObject({ city: 'Hub', postal_code: '9' });
    expect(answer.body.meta.conflicts.map((c: { field: string }) => c.field)).toEqual(['address.city']);
  });

  it('refuses a base that is not an object, and validates the edit as ever', async () => {
    const id = await contact({});
    const bad = await put(id, { title: 'x' }, { base: 'title' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].error).toMatchObject({ field: '/meta/base', code: 'invalid_type' });
    const badMeta = await call(hub, 'PUT', `/v2/contacts/${id}`, { token: hub.agentToken, raw: JSON.stringify({ data: { title: 'x' }, meta: [1] }) });
    expect(badMeta.status).toBe(422);
    const invalid = await put(id, { email: 42 }, { base: { email: null } });
    expect(invalid.status).toBe(422);
    expect(invalid.body.errors[0].error.field).toBe('/email');
  });
});

describe('meta.written_at', () => {
  it('is the created_at of a note a device wrote earlier, and never later than now', async () => {
    const id = await contact({});
    const note = (meta: Record<string, unknown>, token = deviceToken, headers = device()) =>
      call(hub, 'POST', '/v2/notes', { token, headers, raw: JSON.stringify({ data: { resource_type: 'contact', resource_id: id, content: 'n' }, meta }) });
    hub.clock.set('2026-04-01T12:00:00Z');
    const earlier = await note({ written_at: '2026-04-01T11:58:30Z' });
    expect(earlier.status).toBe(200);
    expect(earlier.body.data).toMatchObject({ created_at: '2026-04-01T11:58:30Z', updated_at: '2026-04-01T12:00:00Z' });
    const ahead = await note({ written_at: '2026-04-02T09:00:00+02:00' });
    expect(ahead.body.data.created_at).toBe('2026-04-01T12:00:00Z');
  });

  it('is refused from anyone but a syncing device, and when it is no date-time', async () => {
    const id = await contact({});
    const body = (written_at: unknown) => JSON.stringify({ data: { resource_type: 'contact', resource_id: id, content: 'n' }, meta: { written_at } });
    const noDevice = await call(hub, 'POST', '/v2/notes', { token: deviceToken, raw: body('2026-01-01T00:00:00Z') });
    expect(noDevice.status).toBe(422);
    expect(noDevice.body.errors[0].error).toMatchObject({ field: '/meta/written_at', code: 'incorrect_value' });
    const noSyncScope = await call(hub, 'POST', '/v2/notes', { token: hub.agentToken, headers: device(), raw: body('2026-01-01T00:00:00Z') });
    expect(noSyncScope.status).toBe(422);
    const notADate = await call(hub, 'POST', '/v2/notes', { token: deviceToken, headers: device(), raw: body('yesterday') });
    expect(notADate.status).toBe(422);
    expect(notADate.body.errors[0].error).toMatchObject({ field: '/meta/written_at', code: 'invalid_type' });
  });
});
