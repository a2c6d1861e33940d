import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const get = (path: string) => call(hub, 'GET', path, { token: hub.agentToken });
const created = async (path: string, data: unknown) => {
  const answer = await call(hub, 'POST', path, { token: hub.agentToken, data });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.id as number;
};
const groupsOf = (answer: { body: any }) => answer.body.items.map((i: any) => i.data);

let org: number;
let otherOrg: number;
const people: Record<string, number> = {};

beforeAll(async () => {
  hub = await startTestHub();
  org = await created('/v2/contacts', { is_organization: true, name: 'Acme' });
  otherOrg = await created('/v2/contacts', { is_organization: true, name: 'Globex' });
  people.ann = await created('/v2/contacts', { first_name: 'Ann', last_name: 'Lee', email: 'Ann.Lee@Example.com', contact_id: org });
  people.annToo = await created('/v2/contacts', { first_name: 'Ann', last_name: 'Lee', email: ' ann.lee@example.com', contact_id: org });
  people.bob = await created('/v2/contacts', { first_name: 'Bob', last_name: 'Ray', phone: '+1 (555) 123-4567' });
  people.robert = await created('/v2/contacts', { first_name: 'Robert', last_name: 'Ray', mobile: '555.123.4567' });
  // The same name in another organization is another person.
  people.annElsewhere = await created('/v2/contacts', { first_name: 'Ann', last_name: 'Lee', contact_id: otherOrg });
  people.unique = await created('/v2/contacts', { first_name: 'Zed', last_name: 'Solo', email: 'zed@example.com', phone: '12' });
});
afterAll(() => hub.close());

describe('GET /v2/contacts/duplicates', () => {
  it('groups contacts sharing an email (any case), a phone (its digits) or a name in the same organization, saying why', async () => {
    const answer = await get('/v2/contacts/duplicates');
    expect(answer.status).toBe(200);
    expect(answer.body.items[0].meta.type).toBe('duplicate_group');
    expect(groupsOf(answer)).toEqual([
      { reason: 'email', key: 'ann.lee@example.com', ids: [people.ann, people.annToo] },
      { reason: 'name', key: 'ann lee', ids: [people.ann, people.annToo] },
      { reason: 'phone', key: '551234567', ids: [people.bob, people.robert] },
    ]);
  });

  it('pages the groups', async () => {
    const first = await get('/v2/contacts/duplicates?per_page=2');
    const second = await get('/v2/contacts/duplicates?per_page=2&page=2');
    expect(groupsOf(first).map((g: any) => g.reason)).toEqual(['email', 'name']);
    expect(groupsOf(second).map((g: any) => g.reason)).toEqual(['phone']);
    expect(first.body.meta.links.next_page).toContain('page=2');
  });

  it('answers the records a contact being created would duplicate, by email, phone or name', async () => {
    const byEmail = await get('/v2/contacts/duplicates?email=ANN.LEE%40example.com');
    expect(groupsOf(byEmail)).toEqual([{ reason: 'email', key: 'ann.lee@example.com', ids: [people.ann, people.annToo] }]);
    const byPhone = await get(`/v2/contacts/duplicates?phone=${encodeURIComponent('555 123 4567')}`);
    expect(groupsOf(byPhone)).toEqual([{ reason: 'phone', key: '551234567', ids: [people.bob, people.robert] }]);
    const byName = await get('/v2/contacts/duplicates?name=ann%20lee&email=nobody%40example.com');
    expect(groupsOf(byName)).toEqual([{ reason: 'name', key: 'ann lee', ids: [people.ann, people.annToo, people.annElsewhere] }]);
    expect(groupsOf(await get('/v2/contacts/duplicates?email=new%40example.com&phone=12'))).toEqual([]);
  });

  it('refuses unknown parameters and bad paging in the error envelope', async () => {
    const unknown = await get('/v2/contacts/duplicates?colour=red');
    expect([unknown.status, codes(unknown)]).toEqual([400, ['invalid_param']]);
    expect((await get('/v2/contacts/duplicates?per_page=0')).status).toBe(400);
  });

  it('stops listing a pair once merged', async () => {
    expect((await call(hub, 'POST', `/v2/contacts/${people.bob}/merge`, { token: hub.agentToken, data: { merge_with_id: people.robert } })).status).toBe(200);
    expect(groupsOf(await get('/v2/contacts/duplicates')).map((g: any) => g.reason)).toEqual(['email', 'name']);
  });
});

describe('GET /v2/leads/duplicates', () => {
  it('groups leads by email, phone, and name within the same organization name', async () => {
    const a = await created('/v2/leads', { first_name: 'Kim', last_name: 'Park', organization_name: 'Initech', email: 'kim@initech.com' });
    const b = await created('/v2/leads', { first_name: 'kim', last_name: 'park ', organization_name: 'initech', mobile: '+82 10 9999 8888' });
    const c = await created('/v2/leads', { last_name: 'Other', email: 'KIM@initech.com', phone: '010-9999-8888' });
    expect(groupsOf(await get('/v2/leads/duplicates'))).toEqual([
      { reason: 'email', key: 'kim@initech.com', ids: [a, c] },
      { reason: 'name', key: 'kim park', ids: [a, b] },
      { reason: 'phone', key: '099998888', ids: [b, c] },
    ]);
    expect(groupsOf(await get('/v2/leads/duplicates?name=Kim%20Park'))).toEqual([{ reason: 'name', key: 'kim park', ids: [a, b] }]);
  });
});
