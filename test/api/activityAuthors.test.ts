import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

// Notes, calls and visits are corrected or deleted only by the rep who recorded them, or by an admin.
let hub: TestHub;
let contactId: number;
let otherToken: string;

const COLLECTIONS = {
  notes: { content: 'Asked for a quote' },
  calls: { phone_number: '+1 312 847 2066', summary: 'Left a message' },
  visits: { summary: 'Met the buyer' },
} as const;
type Collection = keyof typeof COLLECTIONS;

const record = async (collection: Collection, token: string) =>
  (await call(hub, 'POST', `/v2/${collection}`, { token, data: { resource_type: 'contact', resource_id: contactId, ...COLLECTIONS[collection] } })).body.data;
const put = (collection: Collection, id: number, data: unknown, token: string) => call(hub, 'PUT', `/v2/${collection}/${id}`, { token, data });
const remove = (collection: Collection, id: number, token: string) => call(hub, 'DELETE', `/v2/${collection}/${id}`, { token });
const get = (collection: Collection, id: number) => call(hub, 'GET', `/v2/${collection}/${id}`, { token: hub.agentToken });

beforeAll(async () => {
  hub = await startTestHub();
  contactId = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Visited' } })).body.data.id;
  otherToken = hub.tokenFor(await hub.engine.users.create({ email: 'pat@example.com', password: 'pat-secret-12', name: 'Pat Agent', role: 'user' }));
});
afterAll(() => hub.close());

describe.each(Object.keys(COLLECTIONS) as Collection[])('%s', (collection) => {
  it('its author changes and deletes it', async () => {
    const made = await record(collection, hub.agentToken);
    const changed = await put(collection, made.id, pick(collection, 'Corrected'), hub.agentToken);
    expect(changed.status).toBe(200);
    expect(changed.body.data[textField(collection)]).toBe('Corrected');
    expect((await remove(collection, made.id, hub.agentToken)).status).toBe(204);
    expect(codes(await get(collection, made.id))).toEqual(['not_found']);
  });

  it('another agent may neither change nor delete it: 403, and it stays as it was', async () => {
    const made = await record(collection, hub.agentToken);
    const refused = await put(collection, made.id, pick(collection, 'Not mine'), otherToken);
    expect(refused.status).toBe(403);
    expect(codes(refused)).toEqual(['forbidden']);
    expect(refused.body.errors[0].error.message).toMatch(/Only the person who recorded this/);
    expect(codes(await remove(collection, made.id, otherToken))).toEqual(['forbidden']);
    expect((await get(collection, made.id)).body.data[textField(collection)]).toBe(made[textField(collection)]);
  });

  it('an admin changes and deletes anyone’s', async () => {
    const made = await record(collection, hub.agentToken);
    expect((await put(collection, made.id, pick(collection, 'Fixed by the manager'), hub.adminToken)).body.data[textField(collection)]).toBe('Fixed by the manager');
    expect((await remove(collection, made.id, hub.adminToken)).status).toBe(204);
  });

  it('a missing one is 404 for everyone', async () => {
    expect(codes(await put(collection, 999999, pick(collection, 'x'), hub.adminToken))).toEqual(['not_found']);
    expect(codes(await remove(collection, 999999, otherToken))).toEqual(['not_found']);
  });
});

describe('visits (changing them is an extension)', () => {
  it('checks a change as a new visit is checked', async () => {
    const made = await record('visits', hub.agentToken);
    expect(fields(await put('visits', made.id, { outcome_id: 999, resource_id: 999999 }, hub.agentToken)).sort()).toEqual(['/outcome_id', '/resource_id']);
    expect(fields(await put('visits', made.id, { visited_at: null }, hub.agentToken))).toEqual(['/visited_at']);
    const outcome = (await call(hub, 'GET', '/v2/visit_outcomes', { token: hub.agentToken })).body.items[0].data.id;
    const changed = await put('visits', made.id, { outcome_id: outcome, summary: null, rep_location_verification_status: 'verified' }, hub.agentToken);
    expect(changed.body.data).toMatchObject({ outcome_id: outcome, summary: null, rep_location_verification_status: 'verified', resource_id: contactId, visited_at: made.visited_at });
  });
});

function textField(collection: Collection): 'content' | 'summary' {
  return collection === 'notes' ? 'content' : 'summary';
}

function pick(collection: Collection, text: string): Record<string, string> {
  return { [textField(collection)]: text };
}
