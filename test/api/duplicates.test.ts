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

  it('keys a typed number as it keys the stored ones, so the check and the groups agree', async () => {
    // An extension in words: the key keeps what is not a separator, on both sides.
    const withExtension = await created('/v2/contacts', { first_name: 'Ext', last_name: 'Ension', phone: '555 987 6543 ext 12' });
    const typed = await get(`/v2/contacts/duplicates?phone=${encodeURIComponent('(555) 987-6543 ext 12')}`);
    expect(groupsOf(typed)).toEqual([{ reason: 'phone', key: '6543ext12', ids: [withExtension] }]);
    // The same digits without the extension are another number.
    expect(groupsOf(await get(`/v2/contacts/duplicates?phone=${encodeURIComponent('555 987 6543')}`))).toEqual([]);
    expect((await call(hub, 'DELETE', `/v2/contacts/${withExtension}`, { token: hub.agentToken })).status).toBe(204);
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

describe('close names within an organization', () => {
  const all = async (plural: string) => {
    const groups: any[] = [];
    for (let page = 1; ; page++) {
      const answer = await get(`/v2/${plural}/duplicates?per_page=2&page=${page}`);
      groups.push(...groupsOf(answer));
      if (!answer.body.meta.links.next_page) return groups;
    }
  };
  const nameGroupsOf = (groups: any[], ids: number[]) => groups.filter((g) => g.reason === 'name' && g.ids.some((id: number) => ids.includes(id)));
  const person = (first_name: string, last_name: string, contact_id: number) => created('/v2/contacts', { first_name, last_name, contact_id });
  const close: Record<string, number> = {};
  let initech: number;
  let hooli: number;
  let chain: number;

  beforeAll(async () => {
    initech = await created('/v2/contacts', { is_organization: true, name: 'Initech' });
    hooli = await created('/v2/contacts', { is_organization: true, name: 'Hooli' });
    chain = await created('/v2/contacts', { is_organization: true, name: 'Chain Ltd' });
    close.jon = await person('Jon', 'Smith', initech);
    close.john = await person('John', 'Smith', initech);
    close.jonHooli = await person('Jon', 'Smith', hooli);
    close.johnWithout = await created('/v2/contacts', { first_name: 'John', last_name: 'Smith' });
    close.jose = await person('José', "O'Neil", hooli);
    close.joseToo = await person('Jose', 'ONeil', hooli);
    close.jane = await person('Jane', 'Doe', hooli);
    close.janeReordered = await person('Doe', 'Jane', hooli);
    close.dan = await person('Dan', 'Lee', hooli);
    close.ann = await person('Ann', 'Lee', hooli);
    close.c1 = await person('Jon', 'Smith', chain);
    close.c2 = await person('John', 'Smith', chain);
    close.c3 = await person('Johns', 'Smith', chain);
  });

  it('groups close names in one organization, through accents, punctuation, word order and chains, with stable paging', async () => {
    const groups = await all('contacts');
    expect(groups).toEqual(groupsOf(await get('/v2/contacts/duplicates?per_page=100')));
    expect(nameGroupsOf(groups, Object.values(close))).toEqual([
      { reason: 'name', key: 'jane doe', ids: [close.jane, close.janeReordered] },
      { reason: 'name', key: 'jon smith', ids: [close.jon, close.john] },
      { reason: 'name', key: 'jon smith', ids: [close.c1, close.c2, close.c3] },
      { reason: 'name', key: 'jose oneil', ids: [close.jose, close.joseToo] },
    ]);
  });

  it('finds close names within the organization a contact being created names', async () => {
    expect(groupsOf(await get(`/v2/contacts/duplicates?name=Jon%20Smith&contact_id=${initech}`))).toEqual([
      // Equal names anywhere, close ones within the organization.
      { reason: 'name', key: 'jon smith', ids: [close.jon, close.john, close.jonHooli, close.c1] },
    ]);
    expect(groupsOf(await get(`/v2/contacts/duplicates?name=Katharine%20Lee&contact_id=${hooli}`))).toEqual([]);
    expect(groupsOf(await get(`/v2/contacts/duplicates?name=Jose%20O%20Neil&contact_id=${hooli}`))).toEqual([]);
    expect(groupsOf(await get(`/v2/contacts/duplicates?name=Jos%C3%A9%20O%E2%80%99Neil&contact_id=${hooli}`))).toEqual([
      { reason: 'name', key: 'jose oneil', ids: [close.jose, close.joseToo] },
    ]);
    const bad = await get('/v2/contacts/duplicates?name=Jon&contact_id=abc');
    expect([bad.status, codes(bad)]).toEqual([400, ['invalid_param']]);
    const leadsOnly = await get('/v2/contacts/duplicates?name=Jon&organization_name=Hooli');
    expect([leadsOnly.status, codes(leadsOnly)]).toEqual([400, ['invalid_param']]);
  });

  it('groups leads with close names under the same organization name, and finds them while creating', async () => {
    const a = await created('/v2/leads', { first_name: 'Katharine', last_name: 'Lee', organization_name: 'Vandelay' });
    const b = await created('/v2/leads', { first_name: 'Katherine', last_name: 'Lee', organization_name: ' vandelay' });
    const elsewhere = await created('/v2/leads', { first_name: 'Katherine', last_name: 'Lee', organization_name: 'Pendant' });
    const groups = await all('leads');
    expect(nameGroupsOf(groups, [a, b, elsewhere])).toEqual([{ reason: 'name', key: 'katharine lee', ids: [a, b] }]);
    expect(groupsOf(await get('/v2/leads/duplicates?name=Katarine%20Lee&organization_name=VANDELAY'))).toEqual([
      { reason: 'name', key: 'katarine lee', ids: [a, b] },
    ]);
    const contactsOnly = await get('/v2/leads/duplicates?name=Kim&contact_id=1');
    expect([contactsOnly.status, codes(contactsOnly)]).toEqual([400, ['invalid_param']]);
  });
});
