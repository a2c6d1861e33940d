import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const post = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/contacts', { token, data });
const put = (id: number, data: unknown, token = hub.agentToken) => call(hub, 'PUT', `/v2/contacts/${id}`, { token, data });
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('creating contacts', () => {
  it('creates an organization and a person in it, answering 200 with the contact envelope', async () => {
    const org = await post({ is_organization: true, name: 'Acme Corp', industry: 'Tools', tags: ['vip', 'partner'] });
    expect(org.status).toBe(200);
    expect(org.body.meta).toEqual({ type: 'contact' });
    expect(org.body.data).toMatchObject({
      is_organization: true, name: 'Acme Corp', first_name: null, last_name: null, owner_id: hub.agentId,
      creator_id: hub.agentId, customer_status: 'none', prospect_status: 'none', billing_address: null,
      shipping_address: null, tags: ['partner', 'vip'], custom_fields: {}, contact_id: null,
    });
    expect(org.body.data.address).toEqual({ line1: null, city: null, postal_code: null, state: null, country: null });
    expect(org.body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);

    const person = await post({ first_name: 'Mia', last_name: 'Lopez', contact_id: org.body.data.id, email: 'mia@acme.test' });
    expect(person.status).toBe(200);
    expect(person.body.data).toMatchObject({ is_organization: false, name: 'Mia Lopez', contact_id: org.body.data.id });
    const fetched = await get(`/v2/contacts/${person.body.data.id}`);
    expect(fetched.body).toEqual(person.body);
  });

  it('requires last_name for individuals and name for organizations', async () => {
    const empty = await post({});
    expect(empty.status).toBe(422);
    expect(empty.body.errors).toHaveLength(1);
    expect(empty.body.errors[0].error).toMatchObject({ resource: 'contact', field: '/last_name', code: 'missing' });
    expect(codes(await post({ last_name: '  ' }))).toEqual(['blank']);
    // An individual's last_name is ignored for an organization: it still needs a name.
    const org = await post({ is_organization: true, last_name: 'Smith' });
    expect(fields(org)).toEqual(['/name']);
    expect((await post({ last_name: 'Alone' })).status).toBe(200);
  });

  it('reports unknown attributes and wrong types per field', async () => {
    const answer = await post({ last_name: 'X', shoe_size: 44, is_organization: 'yes', owner_id: 'me', address: { city: 5, planet: 'Mars' }, tags: 'vip' });
    expect(answer.status).toBe(422);
    const byField = Object.fromEntries(answer.body.errors.map((e: any) => [e.error.field, e.error.code]));
    expect(byField).toEqual({
      '/shoe_size': 'unknown', '/is_organization': 'invalid_type', '/owner_id': 'invalid_type',
      '/address/city': 'invalid_type', '/address/planet': 'unknown', '/tags': 'invalid_type',
    });
    expect(codes(await post({ last_name: 'X', customer_status: 'gold' }))).toEqual(['incorrect_value']);
    // Names of Object.prototype are not attributes either.
    const proto = await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, raw: '{"data":{"last_name":"X","constructor":1,"toString":2}}' });
    expect(fields(proto)).toEqual(['/constructor', '/toString']);
    expect(codes(await post({ last_name: 'X', title: 'x'.repeat(256) }))).toEqual(['incorrect_value']);
  });

  it('keeps contact_id for individuals and parent_organization_id for organizations, pointing at organizations', async () => {
    const org = (await post({ is_organization: true, name: 'Parent Org' })).body.data;
    const person = (await post({ last_name: 'Worker', contact_id: org.id })).body.data;
    // Each field of the other kind is ignored (see 'ignores the fields of the other kind of contact').
    expect((await post({ is_organization: true, name: 'Child', contact_id: org.id })).body.data.contact_id).toBeNull();
    expect((await post({ last_name: 'P', parent_organization_id: org.id })).body.data.parent_organization_id).toBeNull();
    expect(fields(await post({ last_name: 'P', contact_id: person.id }))).toEqual(['/contact_id']);
    expect(fields(await post({ last_name: 'P', contact_id: 999999 }))).toEqual(['/contact_id']);
    expect(fields(await post({ is_organization: true, name: 'C', parent_organization_id: person.id }))).toEqual(['/parent_organization_id']);
    const child = await post({ is_organization: true, name: 'Child Org', parent_organization_id: org.id });
    expect(child.body.data.parent_organization_id).toBe(org.id);
    // A parent may not become its own ancestor.
    expect(fields(await put(org.id, { parent_organization_id: child.body.data.id }))).toEqual(['/parent_organization_id']);
    // null clears.
    expect((await put(child.body.data.id, { parent_organization_id: null })).body.data.parent_organization_id).toBeNull();
  });

  it('defaults owner_id to the creator and checks a given owner exists', async () => {
    expect((await post({ last_name: 'Owned' }, hub.adminToken)).body.data.owner_id).toBe(hub.adminId);
    expect((await post({ last_name: 'Given', owner_id: hub.adminId })).body.data.owner_id).toBe(hub.adminId);
    expect(fields(await post({ last_name: 'Ghost', owner_id: 424242 }))).toEqual(['/owner_id']);
  });

  it('allows billing and shipping addresses only when a status is not none', async () => {
    const refused = await post({ last_name: 'NoStatus', billing_address: { city: 'Oslo' } });
    expect(fields(refused)).toEqual(['/billing_address']);
    const customer = await post({ last_name: 'Buyer', customer_status: 'current', billing_address: { line1: '1 Main St', city: 'Oslo' }, shipping_address: { city: 'Bergen' } });
    expect(customer.body.data.billing_address).toEqual({ line1: '1 Main St', city: 'Oslo', postal_code: null, state: null, country: null });
    expect(customer.body.data.shipping_address.city).toBe('Bergen');
    // Back to no status: the addresses no longer apply and read as null.
    const cleared = await put(customer.body.data.id, { customer_status: 'none' });
    expect(cleared.body.data.billing_address).toBeNull();
    expect(cleared.body.data.shipping_address).toBeNull();
  });

  it('refuses a lost prospect who is also a customer', async () => {
    expect(fields(await post({ last_name: 'Odd', prospect_status: 'lost', customer_status: 'current' }))).toEqual(['/prospect_status']);
    const lost = await post({ last_name: 'Gone', prospect_status: 'lost' });
    expect(lost.body.data.prospect_status).toBe('lost');
  });
});

describe('updating contacts', () => {
  it('accepts back unchanged whatever GET returned (nulls, {} custom fields, addresses, tags)', async () => {
    const created = (await post({ last_name: 'Roundtrip', customer_status: 'past', tags: ['a'], address: { city: 'Rome' } })).body.data;
    const writable = Object.fromEntries(Object.entries(created).filter(([k]) => !['id', 'creator_id', 'created_at', 'updated_at'].includes(k)));
    const answer = await put(created.id, writable);
    expect(answer.status).toBe(200);
    expect({ ...answer.body.data, updated_at: created.updated_at }).toEqual(created);
    // Even with the read-only fields left in.
    expect((await put(created.id, created)).status).toBe(200);
  });

  it('changes only what is sent and replaces tags as a whole set', async () => {
    const created = (await post({ last_name: 'Tagger', email: 'keep@x.test', tags: ['one', 'two'] })).body.data;
    const updated = await put(created.id, { tags: ['two', 'three'], title: 'CEO' });
    expect(updated.body.data).toMatchObject({ email: 'keep@x.test', title: 'CEO', tags: ['three', 'two'] });
    expect((await put(created.id, { tags: [] })).body.data.tags).toEqual([]);
  });

  it('sets is_organization only on creation', async () => {
    const person = (await post({ last_name: 'Person' })).body.data;
    expect(codes(await put(person.id, { is_organization: true }))).toEqual(['incorrect_value']);
    expect((await put(person.id, { is_organization: false })).status).toBe(200);
  });

  it('keeps an individual name derived from first and last name', async () => {
    const person = (await post({ first_name: 'Ann', last_name: 'Lee' })).body.data;
    expect((await put(person.id, { first_name: 'Anna' })).body.data.name).toBe('Anna Lee');
    // A name sent for an individual is ignored, as the real service does.
    const renamed = await put(person.id, { name: 'Something Else' });
    expect([renamed.status, renamed.body.data.name]).toEqual([200, 'Anna Lee']);
  });

  it('ignores the fields of the other kind of contact, on create and on update', async () => {
    const org = (await post({ is_organization: true, name: 'Kinds Ltd', first_name: 'Not', last_name: 'Stored', contact_id: 1 })).body.data;
    expect(org).toMatchObject({ name: 'Kinds Ltd', first_name: null, last_name: null, contact_id: null });
    const person = await post({ first_name: 'Kim', last_name: 'Kind', name: 'Kind Design Co', parent_organization_id: org.id, contact_id: org.id });
    expect(person.status).toBe(200);
    expect(person.body.data).toMatchObject({ name: 'Kim Kind', parent_organization_id: null, contact_id: org.id });
    const updated = await put(org.id, { first_name: 'Still', last_name: 'Not', contact_id: person.body.data.id, website: 'kinds.example' });
    expect(updated.body.data).toMatchObject({ first_name: null, last_name: null, contact_id: null, website: 'kinds.example' });
    // The kind's own fields are checked as before.
    expect(fields(await post({ is_organization: true, first_name: 'No', last_name: 'Name' }))).toEqual(['/name']);
  });

  it('answers 404 for a contact that does not exist', async () => {
    for (const [method, path] of [['GET', '/v2/contacts/999999'], ['PUT', '/v2/contacts/999999'], ['DELETE', '/v2/contacts/999999'], ['GET', '/v2/contacts/abc']]) {
      const answer = await call(hub, method, path, { token: hub.agentToken, data: method === 'PUT' ? { title: 'x' } : undefined });
      expect(answer.status, `${method} ${path}`).toBe(404);
      expect(codes(answer)).toEqual(['not_found']);
    }
  });

  it('writes nothing when validation fails (no half-written data, no change log entry)', async () => {
    const person = (await post({ last_name: 'Stable', title: 'Before' })).body.data;
    const revision = hub.engine.ctx.changes.currentRevision();
    const answer = await put(person.id, { title: 'After', owner_id: 77777 });
    expect(answer.status).toBe(422);
    expect((await get(`/v2/contacts/${person.id}`)).body.data.title).toBe('Before');
    expect(hub.engine.ctx.changes.currentRevision()).toBe(revision);
  });
});

describe('deleting contacts', () => {
  it('deletes with 204 and detaches the people of a deleted organization', async () => {
    const org = (await post({ is_organization: true, name: 'Doomed Inc' })).body.data;
    const person = (await post({ last_name: 'Survivor', contact_id: org.id })).body.data;
    const answer = await call(hub, 'DELETE', `/v2/contacts/${org.id}`, { token: hub.agentToken });
    expect(answer.status).toBe(204);
    expect((await get(`/v2/contacts/${org.id}`)).status).toBe(404);
    expect((await get(`/v2/contacts/${person.id}`)).body.data.contact_id).toBeNull();
    const log = hub.engine.db.prepare('SELECT resource_id, event_type FROM change_log WHERE resource_type = ? ORDER BY revision DESC LIMIT 2').all('contact');
    expect(log).toEqual([{ resource_id: org.id, event_type: 'deleted' }, { resource_id: person.id, event_type: 'updated' }]);
  });
});

describe('listing contacts', () => {
  let acme: number;
  let globex: number;
  beforeAll(async () => {
    await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'Segment', type: 'list', choices: ['SMB', 'Enterprise'] } });
    await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'Seats', type: 'number' } });
    await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'Notes', type: 'string', filterable: false } });
    acme = (await post({ is_organization: true, name: 'Listing Acme', customer_status: 'current', address: { city: 'Lyon', country: 'FR' }, custom_fields: { Segment: 'Enterprise', Seats: 50 }, tags: ['key'] })).body.data.id;
    globex = (await post({ is_organization: true, name: 'Listing Globex', prospect_status: 'current', address: { city: 'Paris', country: 'FR' }, custom_fields: { Segment: 'SMB', Seats: '7' } })).body.data.id;
    await post({ first_name: 'Zoe', last_name: 'Listed', contact_id: acme, phone: '+33 1 23 45 67 89', email: 'zoe.listed@acme.test', custom_fields: { Segment: 'SMB' } });
  });

  it('filters by kind, status, owner, organization and exact names', async () => {
    const orgs = await get('/v2/contacts?is_organization=true&name=Listing%20Acme');
    expect(ids(orgs)).toEqual([acme]);
    expect(ids(await get('/v2/contacts?customer_status=current&is_organization=True&address[city]=Lyon'))).toEqual([acme]);
    const people = await get(`/v2/contacts?contact_id=${acme}`);
    expect(people.body.items.map((i: any) => i.data.last_name)).toEqual(['Listed']);
    expect(ids(await get('/v2/contacts?last_name=Listed&email=zoe.listed@acme.test&phone=%2B33%201%2023%2045%2067%2089')).length).toBe(1);
    expect(ids(await get(`/v2/contacts?owner_id=${hub.agentId}&creator_id=${hub.agentId}&last_name=Listed`)).length).toBe(1);
    expect(codes(await get('/v2/contacts?is_organization=maybe'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/contacts?customer_status=gold'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/contacts?colour=red'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/contacts?constructor=1'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/contacts?sort_by=toString'))).toEqual(['invalid_param']);
  });

  it('filters address parts, combining with OR when inclusive=false', async () => {
    expect(ids(await get('/v2/contacts?address[country]=FR&sort_by=id'))).toEqual([acme, globex]);
    expect(codes(await get('/v2/contacts?address[city]=Lyon&address[city]=Paris'))).toEqual(['invalid_param']);
    expect(ids(await get('/v2/contacts?address[city]=Lyon&prospect_status=current'))).toEqual([]);
    expect(ids(await get('/v2/contacts?address[city]=Lyon&prospect_status=current&inclusive=false&sort_by=id'))).toEqual([acme, globex]);
    // q and ids still narrow an OR query.
    expect(ids(await get('/v2/contacts?address[city]=Lyon&prospect_status=current&inclusive=false&q=globex'))).toEqual([globex]);
    expect(ids(await get(`/v2/contacts?address[city]=Lyon&prospect_status=current&inclusive=false&ids=${acme}`))).toEqual([acme]);
  });

  it('filters and sorts by filterable custom fields only', async () => {
    expect(ids(await get('/v2/contacts?custom_fields[Segment]=Enterprise'))).toEqual([acme]);
    expect(ids(await get('/v2/contacts?custom_fields[Seats]=7'))).toEqual([globex]);
    const bySeats = await get('/v2/contacts?is_organization=true&custom_fields[Segment]=SMB&sort_by=custom_fields:Seats:desc');
    expect(ids(bySeats)).toEqual([globex]);
    const sorted = await get('/v2/contacts?address[country]=FR&sort_by=custom_fields:Seats:desc');
    expect(ids(sorted)).toEqual([acme, globex]);
    expect(codes(await get('/v2/contacts?custom_fields[Notes]=x'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/contacts?custom_fields[Nope]=x'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/contacts?sort_by=custom_fields:Notes'))).toEqual(['invalid_param']);
  });

  it('validates custom field values against their definitions', async () => {
    const bad = await post({ last_name: 'Custom', custom_fields: { Segment: 'Galactic', Seats: 'many', Ghost: 1 } });
    expect(Object.fromEntries(bad.body.errors.map((e: any) => [e.error.field, e.error.code]))).toEqual({
      '/custom_fields/Segment': 'incorrect_value', '/custom_fields/Seats': 'incorrect_value', '/custom_fields/Ghost': 'unknown',
    });
    const ok = (await post({ last_name: 'Custom', custom_fields: { Seats: '12', Notes: 'hi' } })).body.data;
    expect(ok.custom_fields).toEqual({ Seats: 12, Notes: 'hi' });
    // Fields not sent are kept; null clears one.
    expect((await put(ok.id, { custom_fields: { Notes: null } })).body.data.custom_fields).toEqual({ Seats: 12 });
  });

  it('searches as you type by name, email or phone (extension q)', async () => {
    expect((await get('/v2/contacts?q=zo')).body.items.map((i: any) => i.data.last_name)).toContain('Listed');
    expect((await get('/v2/contacts?q=zoe%20lis')).body.items.map((i: any) => i.data.last_name)).toEqual(['Listed']);
    expect((await get('/v2/contacts?q=acme.te')).body.items.map((i: any) => i.data.last_name)).toEqual(['Listed', 'Lopez']);
    expect((await get('/v2/contacts?q=3312345')).body.items.map((i: any) => i.data.last_name)).toEqual(['Listed']);
    expect((await get('/v2/contacts?q=listing&is_organization=true&sort_by=name')).body.items.map((i: any) => i.data.name)).toEqual(['Listing Acme', 'Listing Globex']);
    expect((await get('/v2/contacts?q=%22%2A%29(')).status).toBe(200);
    // Renaming updates the search index.
    const renamed = (await post({ last_name: 'Before' })).body.data;
    await put(renamed.id, { last_name: 'Quixotic' });
    expect(ids(await get('/v2/contacts?q=quixo'))).toEqual([renamed.id]);
    expect(ids(await get('/v2/contacts?q=before&last_name=Before'))).toEqual([]);
  });

  it('filters by tag (extension)', async () => {
    expect(ids(await get('/v2/contacts?tag=key'))).toEqual([acme]);
  });

  it('filters by a phone or mobile exactly as written, not another number ending in the same digits', async () => {
    // The filter finds numbers through the duplicates' phone key (the last nine digits), then compares them exactly.
    const twin = (await post({ first_name: 'Yan', last_name: 'Listed-Twin', phone: '01 23 45 67 89', mobile: '+33 1 23 45 67 89' })).body.data.id;
    const zoe = ids(await get('/v2/contacts?last_name=Listed'));
    expect(zoe).toHaveLength(1);
    expect(ids(await get('/v2/contacts?phone=%2B33%201%2023%2045%2067%2089'))).toEqual(zoe);
    expect(ids(await get('/v2/contacts?phone=01%2023%2045%2067%2089'))).toEqual([twin]);
    expect(ids(await get('/v2/contacts?mobile=%2B33%201%2023%2045%2067%2089'))).toEqual([twin]);
    expect(ids(await get('/v2/contacts?phone=123456789'))).toEqual([]);
    expect(ids(await get('/v2/contacts?phone=%2B33%201%2023%2045%2067%2089&inclusive=false&mobile=%2B33%201%2023%2045%2067%2089&sort_by=id'))).toEqual([...zoe, twin]);
  });
});

describe('custom field definitions', () => {
  it('are listed for everyone at /v2/contact/custom_fields and managed by admins only', async () => {
    const list = await get('/v2/contact/custom_fields');
    expect(list.status).toBe(200);
    expect(list.body.meta.type).toBe('collection');
    const agentCreate = await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.agentToken, data: { name: 'X', type: 'string' } });
    expect(agentCreate.status).toBe(403);
    expect(codes(agentCreate)).toEqual(['forbidden']);
    const dup = await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'Segment', type: 'string' } });
    expect(codes(dup)).toEqual(['already_exists']);
    const noChoices = await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'Tier', type: 'list' } });
    expect(codes(noChoices)).toEqual(['missing']);
    const badType = await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'When', type: 'date' } });
    expect(badType.status).toBe(422);
  });

  it('renaming moves values and deleting removes them from every contact', async () => {
    const def = (await call(hub, 'POST', '/v2/contact/custom_fields', { token: hub.adminToken, data: { name: 'Color', type: 'string' } })).body.data;
    const person = (await post({ last_name: 'Painted', custom_fields: { Color: 'red' } })).body.data;
    const renamed = await call(hub, 'PUT', `/v2/contact/custom_fields/${def.id}`, { token: hub.adminToken, data: { name: 'Colour' } });
    expect(renamed.body.data.name).toBe('Colour');
    expect((await get(`/v2/contacts/${person.id}`)).body.data.custom_fields).toEqual({ Colour: 'red' });
    expect((await call(hub, 'DELETE', `/v2/contact/custom_fields/${def.id}`, { token: hub.adminToken })).status).toBe(204);
    expect((await get(`/v2/contacts/${person.id}`)).body.data.custom_fields).toEqual({});
  });
});
