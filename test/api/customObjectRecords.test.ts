import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { bearer, detailCodes, supportCall } from '../support/supportApi.js';
import { NAME_MAX, PAGE_SIZE_MAX, QUERY_MAX, QUERY_WORDS_MAX } from '../../electron/engine/customObjects/records.js';
import { TEXT_MAX, TEXTAREA_MAX } from '../../electron/engine/customObjects/values.js';

let hub: TestHub;
const admin = () => bearer(hub.adminToken);
const agent = () => bearer(hub.agentToken);
const recordsPath = (object: string) => `/api/v2/custom_objects/${object}/records`;
const createObject = async (key: string) =>
  expect((await supportCall(hub, 'POST', '/api/v2/custom_objects', { auth: admin(), body: { custom_object: { key, title: key, title_pluralized: `${key}s` } } })).status).toBe(201);
const createField = async (object: string, field: Record<string, unknown>) =>
  expect((await supportCall(hub, 'POST', `/api/v2/custom_objects/${object}/fields`, { auth: admin(), body: { custom_object_field: { title: field.key, ...field } } })).status).toBe(201);
const post = (object: string, record: unknown, auth = agent()) => supportCall(hub, 'POST', recordsPath(object), { auth, body: { custom_object_record: record } });
const patch = (object: string, id: string, record: unknown, auth = agent()) =>
  supportCall(hub, 'PATCH', `${recordsPath(object)}/${id}`, { auth, body: { custom_object_record: record } });
const get = (path: string, auth = agent()) => supportCall(hub, 'GET', path, { auth });
const remove = (object: string, id: string, auth = agent()) => supportCall(hub, 'DELETE', `${recordsPath(object)}/${id}`, { auth });
const create = async (object: string, record: Record<string, unknown>) => {
  const answer = await post(object, record);
  expect(answer.status).toBe(201);
  return answer.body.custom_object_record;
};
const read = async (object: string, id: string) => (await get(`${recordsPath(object)}/${id}`)).body.custom_object_record;
const crm = async (type: string, data: Record<string, unknown>) => (await call(hub, 'POST', `/v2/${type}`, { token: hub.agentToken, data })).body.data.id as number;
const names = (answer: { body: any }) => answer.body.custom_object_records.map((r: any) => r.name);

const VIN = '1HGCM82633A004352';
let contactId: number;
let dealId: number;
let leadId: number;

beforeAll(async () => {
  hub = await startTestHub();
  await createObject('vehicle');
  await createObject('garage');
  for (const field of [
    { key: 'plate', type: 'text' },
    { key: 'notes', type: 'textarea' },
    { key: 'doors', type: 'integer' },
    { key: 'price', type: 'decimal' },
    { key: 'bought_on', type: 'date' },
    { key: 'electric', type: 'checkbox' },
    { key: 'vin', type: 'regexp', regexp_for_validation: '\\A[A-HJ-NPR-Z0-9]{17}\\z' },
    { key: 'colour', type: 'dropdown', custom_field_options: [{ name: 'Red', value: 'red' }, { name: 'Blue', value: 'blue' }] },
    { key: 'extras', type: 'multiselect', custom_field_options: [{ name: 'GPS', value: 'gps' }, { name: 'Roof', value: 'roof' }, { name: 'Tow', value: 'tow' }] },
    { key: 'driver', type: 'lookup', relationship_target_type: 'zen:user' },
    { key: 'buyer', type: 'lookup', relationship_target_type: 'sell:contact' },
    { key: 'sale', type: 'lookup', relationship_target_type: 'sell:deal' },
    { key: 'prospect', type: 'lookup', relationship_target_type: 'sell:lead' },
    { key: 'towed_by', type: 'lookup', relationship_target_type: 'zen:custom_object:vehicle' },
  ]) await createField('vehicle', field);
  await createField('garage', { key: 'keeps', type: 'lookup', relationship_target_type: 'zen:custom_object:vehicle' });
  await createField('garage', { key: 'city', type: 'text' });
  contactId = await crm('contacts', { last_name: 'Buyer' });
  dealId = await crm('deals', { name: 'Fleet sale', contact_id: contactId });
  leadId = await crm('leads', { last_name: 'Prospect' });
});
afterAll(() => hub.close());

describe('creating and reading records', () => {
  it('creates a record: 201 with every field of the object, null when unset', async () => {
    const answer = await post('vehicle', { name: 'Van', external_id: 'van-1', custom_object_fields: { plate: 'AB-123', doors: 4 } });
    expect(answer.status).toBe(201);
    const record = answer.body.custom_object_record;
    expect(record.id).toMatch(/^[0-9A-HJKMNP-TV-Z]{26}$/);
    expect(record).toEqual({
      id: record.id, name: 'Van', external_id: 'van-1', custom_object_key: 'vehicle',
      custom_object_fields: {
        plate: 'AB-123', notes: null, doors: 4, price: null, bought_on: null, electric: null, vin: null, colour: null, extras: null,
        driver: null, buyer: null, sale: null, prospect: null, towed_by: null,
      },
      created_by_user_id: String(hub.agentId), updated_by_user_id: String(hub.agentId),
      created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
      url: `${hub.url}/api/v2/custom_objects/vehicle/records/${record.id}.json`,
    });
    expect(answer.headers.get('location')).toBe(record.url);
    expect(await read('vehicle', record.id)).toEqual(record);
    expect((await get(new URL(record.url).pathname)).body.custom_object_record).toEqual(record);
  });

  it('gives ids that sort in creation order', async () => {
    const ids = [];
    for (const name of ['One', 'Two', 'Three']) ids.push((await create('garage', { name })).id);
    expect([...ids].sort()).toEqual(ids);
  });

  it('answers 404 for an unknown record, or a record of another object', async () => {
    const garage = await create('garage', { name: 'Elsewhere' });
    for (const path of [`${recordsPath('vehicle')}/01ARZ3NDEKTSV4RRFFQ69G5FAV`, `${recordsPath('vehicle')}/${garage.id}`, `${recordsPath('nothing')}/${garage.id}`]) {
      const answer = await get(path);
      expect(answer.status).toBe(404);
      expect(answer.body.error).toBe('RecordNotFound');
    }
    expect((await patch('vehicle', garage.id, { name: 'x' })).status).toBe(404);
    expect((await remove('vehicle', garage.id)).status).toBe(404);
  });

  it('answers 400 InvalidPayload without the custom_object_record wrapper', async () => {
    const answer = await supportCall(hub, 'POST', recordsPath('vehicle'), { auth: agent(), body: { name: 'Bare' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('InvalidPayload');
  });
});

describe('names and external ids', () => {
  it(`needs a name that is not blank, at most ${NAME_MAX} characters`, async () => {
    expect(detailCodes(await post('vehicle', {}))).toEqual({ name: ['BlankValue'] });
    expect(detailCodes(await post('vehicle', { name: '   ' }))).toEqual({ name: ['BlankValue'] });
    expect(detailCodes(await post('vehicle', { name: 42 }))).toEqual({ name: ['InvalidValue'] });
    expect(detailCodes(await post('vehicle', { name: 'x'.repeat(NAME_MAX + 1) }))).toEqual({ name: ['TooLong'] });
    expect((await post('vehicle', { name: 'x'.repeat(NAME_MAX) })).status).toBe(201);
    expect((await create('vehicle', { name: '  Trimmed  ' })).name).toBe('Trimmed');
    const record = await create('vehicle', { name: 'Named' });
    expect(detailCodes(await patch('vehicle', record.id, { name: null }))).toEqual({ name: ['BlankValue'] });
  });

  it('keeps external ids unique within an object', async () => {
    const first = await create('vehicle', { name: 'First', external_id: 'ext-1' });
    const duplicate = await post('vehicle', { name: 'Second', external_id: 'ext-1' });
    expect(detailCodes(duplicate)).toEqual({ external_id: ['DuplicateValue'] });
    expect(duplicate.body.details.external_id[0].description).toContain(first.id);
    expect((await post('garage', { name: 'Other object', external_id: 'ext-1' })).status).toBe(201);
    expect((await patch('vehicle', first.id, { external_id: 'ext-1', name: 'First again' })).status).toBe(200);
    const second = await create('vehicle', { name: 'Second', external_id: '' });
    expect(second.external_id).toBeNull();
    expect(detailCodes(await patch('vehicle', second.id, { external_id: 'ext-1' }))).toEqual({ external_id: ['DuplicateValue'] });
    expect(detailCodes(await post('vehicle', { name: 'x', external_id: 7 }))).toEqual({ external_id: ['InvalidValue'] });
    expect((await patch('vehicle', first.id, { external_id: null })).body.custom_object_record.external_id).toBeNull();
    expect((await patch('vehicle', second.id, { external_id: 'ext-1' })).status).toBe(200);
  });

  it('refuses unknown attributes and unknown field keys, naming them', async () => {
    const answer = await post('vehicle', { name: 'x', colour: 'red', custom_object_fields: { wheels: 4, plate: 'OK' } });
    expect(detailCodes(answer)).toEqual({ colour: ['UnknownField'], 'custom_object_fields.wheels': ['UnknownField'] });
    expect(answer.body.details['custom_object_fields.wheels'][0].description).toContain('plate');
    expect(detailCodes(await post('vehicle', { name: 'x', custom_object_fields: ['plate'] }))).toEqual({ custom_object_fields: ['InvalidValue'] });
  });
});

describe('values by field type', () => {
  /** [field, sent, stored] for good values; [field, sent, detail code] for bad ones. */
  const good: [string, unknown, unknown][] = [
    ['plate', 'XY 987', 'XY 987'], ['plate', '', null], ['plate', 'x'.repeat(TEXT_MAX), 'x'.repeat(TEXT_MAX)],
    ['notes', 'line one\nline two', 'line one\nline two'], ['notes', 'x'.repeat(TEXTAREA_MAX), 'x'.repeat(TEXTAREA_MAX)],
    ['doors', 5, 5], ['doors', '3', 3], ['doors', -2, -2], ['doors', 0, 0],
    ['price', '12.50', '12.50'], ['price', 3.25, '3.25'], ['price', '007.10', '7.10'], ['price', -4, '-4'], ['price', '12345678901234567890.123456789', '12345678901234567890.123456789'],
    ['bought_on', '2024-02-29', '2024-02-29'],
    ['electric', true, true], ['electric', false, false],
    ['vin', VIN, VIN],
    ['colour', 'blue', 'blue'],
    ['extras', ['tow', 'gps', 'tow'], ['gps', 'tow']], ['extras', [], null],
  ];
  const bad: [string, unknown, string][] = [
    ['plate', 12, 'InvalidValue'], ['plate', 'x'.repeat(TEXT_MAX + 1), 'TooLong'], ['notes', 'x'.repeat(TEXTAREA_MAX + 1), 'TooLong'],
    ['doors', 1.5, 'InvalidValue'], ['doors', 'four', 'InvalidValue'], ['doors', 2 ** 53, 'InvalidValue'], ['doors', true, 'InvalidValue'],
    ['price', '1e5', 'InvalidValue'], ['price', 'abc', 'InvalidValue'], ['price', '.5', 'InvalidValue'], ['price', 1e21, 'InvalidValue'], ['price', false, 'InvalidValue'],
    ['bought_on', '2023-02-29', 'InvalidValue'], ['bought_on', '28/02/2026', 'InvalidValue'], ['bought_on', '2026-02-28T10:00:00Z', 'InvalidValue'],
    ['electric', 'yes', 'InvalidValue'], ['electric', 1, 'InvalidValue'],
    ['vin', 'SHORT', 'InvalidFormat'], [`vin`, `${VIN}X`, 'InvalidFormat'], ['vin', 17, 'InvalidValue'],
    ['colour', 'green', 'InvalidValue'], ['colour', ['red'], 'InvalidValue'],
    ['extras', 'gps', 'InvalidValue'], ['extras', ['gps', 'sunroof'], 'InvalidValue'], ['extras', [1], 'InvalidValue'],
  ];

  it.each(good)('%s accepts %j', async (field, sent, stored) => {
    const record = await create('vehicle', { name: 'Typed', custom_object_fields: { [field]: sent } });
    expect(record.custom_object_fields[field]).toEqual(stored);
    expect((await read('vehicle', record.id)).custom_object_fields[field]).toEqual(stored);
  });

  it.each(bad)('%s refuses %j', async (field, sent, code) => {
    const answer = await post('vehicle', { name: 'Typed', custom_object_fields: { [field]: sent } });
    expect(answer.status).toBe(422);
    expect(detailCodes(answer)).toEqual({ [`custom_object_fields.${field}`]: [code] });
    expect(answer.body.details[`custom_object_fields.${field}`][0].description).toContain(`(${field})`);
  });

  it('lists every problem of a request in one 422', async () => {
    const answer = await post('vehicle', { name: '', custom_object_fields: { doors: 'x', price: 'y', colour: 'pink', driver: '999999' } });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('RecordInvalid');
    expect(Object.keys(detailCodes(answer)).sort()).toEqual(
      ['custom_object_fields.colour', 'custom_object_fields.doors', 'custom_object_fields.driver', 'custom_object_fields.price', 'name'],
    );
  });

  it('refuses a value the pattern would take too long to check (catastrophic backtracking)', async () => {
    await createField('garage', { key: 'slow', type: 'regexp', regexp_for_validation: '^(a+)+$' });
    const answer = await post('garage', { name: 'Slow', custom_object_fields: { slow: `${'a'.repeat(40)}!` } });
    expect(detailCodes(answer)).toEqual({ 'custom_object_fields.slow': ['InvalidValue'] });
    expect((await post('garage', { name: 'Quick', custom_object_fields: { slow: 'aaaa' } })).status).toBe(201);
  });

  it('limits the size of a record', async () => {
    await createObject('archive');
    for (const key of ['a', 'b', 'c', 'd']) await createField('archive', { key, type: 'textarea' });
    const big = 'x'.repeat(9_000);
    const answer = await post('archive', { name: 'Big', custom_object_fields: { a: big, b: big, c: big, d: big } });
    expect(detailCodes(answer)).toEqual({ base: ['LimitExceeded'] });
    expect((await post('archive', { name: 'Fits', custom_object_fields: { a: big, b: big, c: big } })).status).toBe(201);
  });
});

describe('lookup values', () => {
  it('name an existing user (active or deactivated), contact, deal, lead or record, as strings', async () => {
    const towing = await create('vehicle', { name: 'Tow truck' });
    const leaver = await hub.engine.users.create({ email: 'leaver@example.com', password: 'leaver-secret-1', name: 'Leaver', role: 'user' });
    hub.engine.users.setStatus(leaver, 'inactive');
    const record = await create('vehicle', {
      name: 'Linked',
      custom_object_fields: { driver: hub.adminId, buyer: String(contactId), sale: dealId, prospect: String(leadId), towed_by: towing.id },
    });
    expect(record.custom_object_fields).toMatchObject({
      driver: String(hub.adminId), buyer: String(contactId), sale: String(dealId), prospect: String(leadId), towed_by: towing.id,
    });
    expect((await patch('vehicle', record.id, { custom_object_fields: { driver: String(leaver) } })).body.custom_object_record.custom_object_fields.driver)
      .toBe(String(leaver));
  });

  it('refuses ids of records that do not exist or belong to another object', async () => {
    const garage = await create('garage', { name: 'Not a vehicle' });
    const answer = await post('vehicle', {
      name: 'Dangling',
      custom_object_fields: { driver: '999999', buyer: 999999, sale: String(contactId + 100000), prospect: 'lead-1', towed_by: garage.id },
    });
    expect(detailCodes(answer)).toEqual({
      'custom_object_fields.driver': ['InvalidValue'], 'custom_object_fields.buyer': ['InvalidValue'], 'custom_object_fields.sale': ['InvalidValue'],
      'custom_object_fields.prospect': ['InvalidValue'], 'custom_object_fields.towed_by': ['InvalidValue'],
    });
    expect(answer.body.details['custom_object_fields.driver'][0].description).toContain('zen:user');
    expect(detailCodes(await post('vehicle', { name: 'x', custom_object_fields: { towed_by: 'not-an-id' } }))).toEqual({ 'custom_object_fields.towed_by': ['InvalidValue'] });
  });

  it('follow a contact or lead merged into another: they name the survivor', async () => {
    const survivor = await crm('contacts', { last_name: 'Kept' });
    const merged = await crm('contacts', { last_name: 'Merged away' });
    const keptLead = await crm('leads', { last_name: 'Kept lead' });
    const mergedLead = await crm('leads', { last_name: 'Merged lead' });
    const record = await create('vehicle', { name: 'Followed', custom_object_fields: { buyer: String(merged), prospect: String(mergedLead) } });
    for (const [plural, id, other] of [['contacts', survivor, merged], ['leads', keptLead, mergedLead]] as const) {
      expect((await call(hub, 'POST', `/v2/${plural}/${id}/merge`, { token: hub.agentToken, data: { merge_with_id: other } })).status).toBe(200);
    }
    expect((await read('vehicle', record.id)).custom_object_fields).toMatchObject({ buyer: String(survivor), prospect: String(keptLead) });
  });

  it('are cleared when a contact, deal or lead is deleted through /v2', async () => {
    const buyer = await crm('contacts', { last_name: 'Short-lived' });
    const sale = await crm('deals', { name: 'Short-lived deal', contact_id: contactId });
    const prospect = await crm('leads', { last_name: 'Short-lived lead' });
    const record = await create('vehicle', { name: 'Orphaned', custom_object_fields: { buyer: String(buyer), sale: String(sale), prospect: String(prospect), plate: 'KEEP' } });
    const other = await create('vehicle', { name: 'Untouched', custom_object_fields: { buyer: String(contactId) } });
    hub.clock.advance(60_000);
    expect((await call(hub, 'DELETE', `/v2/contacts/${buyer}`, { token: hub.agentToken })).status).toBe(204);
    let after = await read('vehicle', record.id);
    expect(after.custom_object_fields).toMatchObject({ buyer: null, sale: String(sale), prospect: String(prospect), plate: 'KEEP' });
    expect(after.updated_at).toBe('2026-03-02T10:01:00Z');
    expect(after.updated_by_user_id).toBe(String(hub.agentId));
    expect((await call(hub, 'DELETE', `/v2/deals/${sale}`, { token: hub.agentToken })).status).toBe(204);
    expect((await call(hub, 'DELETE', `/v2/leads/${prospect}`, { token: hub.agentToken })).status).toBe(204);
    after = await read('vehicle', record.id);
    expect(after.custom_object_fields).toMatchObject({ buyer: null, sale: null, prospect: null, plate: 'KEEP' });
    expect(await read('vehicle', other.id)).toEqual(other);
  });

  it("are cleared in every object when the record they name is deleted", async () => {
    const target = await create('vehicle', { name: 'Scrapped' });
    const kept = await create('vehicle', { name: 'Kept' });
    const towed = await create('vehicle', { name: 'Towed', custom_object_fields: { towed_by: target.id } });
    const garage = await create('garage', { name: 'Depot', custom_object_fields: { keeps: target.id, city: 'Leeds' } });
    const otherGarage = await create('garage', { name: 'Yard', custom_object_fields: { keeps: kept.id } });
    const deleted = await remove('vehicle', target.id);
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await get(`${recordsPath('vehicle')}/${target.id}`)).status).toBe(404);
    expect((await read('vehicle', towed.id)).custom_object_fields.towed_by).toBeNull();
    expect((await read('garage', garage.id)).custom_object_fields).toMatchObject({ keeps: null, city: 'Leeds' });
    expect((await read('garage', otherGarage.id)).custom_object_fields.keeps).toBe(kept.id);
  });
});

describe('changing records', () => {
  it('merges custom_object_fields; a key sent as null clears it', async () => {
    const record = await create('vehicle', { name: 'Merge', custom_object_fields: { plate: 'M1', doors: 2 } });
    hub.clock.advance(60_000);
    const changed = await patch('vehicle', record.id, { custom_object_fields: { doors: null, colour: 'red' } }, admin());
    expect(changed.status).toBe(200);
    expect(changed.body.custom_object_record).toMatchObject({
      name: 'Merge', custom_object_fields: { plate: 'M1', doors: null, colour: 'red' },
      created_by_user_id: String(hub.agentId), updated_by_user_id: String(hub.adminId), created_at: record.created_at,
    });
    expect(changed.body.custom_object_record.updated_at).not.toBe(record.updated_at);
    const renamed = await patch('vehicle', record.id, { name: 'Merged' });
    expect(renamed.body.custom_object_record).toMatchObject({ name: 'Merged', custom_object_fields: { plate: 'M1', colour: 'red' } });
  });

  it('accepts a record sent back as GET served it', async () => {
    const record = await create('vehicle', { name: 'Round trip', custom_object_fields: { extras: ['roof'], price: '9.99', bought_on: '2025-01-31' } });
    const answer = await patch('vehicle', record.id, record);
    expect(answer.status).toBe(200);
    expect(answer.body.custom_object_record.custom_object_fields).toEqual(record.custom_object_fields);
  });

  it('refuses bad values on update too, leaving the record as it was', async () => {
    const record = await create('vehicle', { name: 'Careful', custom_object_fields: { doors: 3 } });
    expect(detailCodes(await patch('vehicle', record.id, { name: 'Changed', custom_object_fields: { doors: 'many' } }))).toEqual({ 'custom_object_fields.doors': ['InvalidValue'] });
    expect(await read('vehicle', record.id)).toEqual(record);
  });

  it('lets agents and admins create, change and delete records', async () => {
    for (const auth of [agent(), admin()]) {
      const created = await post('garage', { name: 'Role check' }, auth);
      expect(created.status).toBe(201);
      expect((await patch('garage', created.body.custom_object_record.id, { name: 'Role checked' }, auth)).status).toBe(200);
      expect((await remove('garage', created.body.custom_object_record.id, auth)).status).toBe(204);
    }
  });
});

describe('lists', () => {
  const page = (query: string) => get(`${recordsPath('fleet')}?${query}`);
  const all: any[] = [];

  beforeAll(async () => {
    await createObject('fleet');
    await createField('fleet', { key: 'model', type: 'text' });
    await createField('fleet', { key: 'memo', type: 'textarea' });
    await createField('fleet', { key: 'seats', type: 'integer' });
    for (let i = 0; i < 25; i += 1) {
      hub.clock.advance(1_000);
      // Names out of creation order, in mixed case, some equal: sorts must break ties by id.
      const name = ['delta', 'Alpha', 'charlie', 'Bravo', 'alpha'][i % 5] + (i % 3 === 0 ? '' : ` ${i % 3}`);
      all.push(await create('fleet', { name, external_id: `f-${i}`, custom_object_fields: { model: i === 7 ? 'Transit 100%' : `Model ${i}`, seats: i } }));
    }
  });

  async function walk(query: string): Promise<string[]> {
    const seen: string[] = [];
    let answer = await page(`page[size]=7&${query}`);
    for (;;) {
      expect(answer.status).toBe(200);
      seen.push(...answer.body.custom_object_records.map((r: any) => r.id));
      if (!answer.body.meta.has_more) return seen;
      answer = await get(new URL(answer.body.links.next).pathname + new URL(answer.body.links.next).search);
    }
  }

  const byName = (a: any, b: any) => a.name.toLowerCase().localeCompare(b.name.toLowerCase()) || (a.id < b.id ? -1 : 1);

  it(`pages by id, ${PAGE_SIZE_MAX} a page by default`, async () => {
    const first = await page('');
    expect(first.body.custom_object_records.map((r: any) => r.id)).toEqual(all.map((r) => r.id));
    expect(first.body.meta).toEqual({ has_more: false, after_cursor: expect.any(String), before_cursor: expect.any(String) });
    expect(first.body.links).toEqual({ prev: null, next: null });
  });

  it('follows next links to the end, and before cursors back to the start', async () => {
    const first = await page('page[size]=10');
    expect(first.body.custom_object_records).toHaveLength(10);
    expect(first.body.meta.has_more).toBe(true);
    expect(first.body.links.prev).toBeNull();
    expect(first.body.links.next).toBe(`${hub.url}${recordsPath('fleet')}?page%5Bsize%5D=10&page%5Bafter%5D=${first.body.meta.after_cursor}`);
    const second = await page(`page[size]=10&page[after]=${first.body.meta.after_cursor}`);
    const third = await page(`page[size]=10&page[after]=${second.body.meta.after_cursor}`);
    expect(third.body.custom_object_records.map((r: any) => r.id)).toEqual(all.slice(20).map((r) => r.id));
    expect(third.body.meta.has_more).toBe(false);
    expect(third.body.links.next).toBeNull();
    expect(third.body.links.prev).not.toBeNull();
    const back = await page(`page[size]=10&page[before]=${third.body.meta.before_cursor}`);
    expect(back.body.custom_object_records).toEqual(second.body.custom_object_records);
    expect(back.body.meta.has_more).toBe(true);
    const start = await page(`page[size]=10&page[before]=${back.body.meta.before_cursor}`);
    expect(start.body.custom_object_records).toEqual(first.body.custom_object_records);
    expect(start.body.meta.has_more).toBe(false);
    expect(start.body.links.prev).toBeNull();
    expect(start.body.links.next).not.toBeNull();
    const end = await page(`page[size]=10&page[after]=${third.body.meta.after_cursor}`);
    expect(end.body.custom_object_records).toEqual([]);
    expect(end.body.meta).toEqual({ has_more: false, after_cursor: null, before_cursor: null });
  });

  it.each([
    ['id', (a: any, b: any) => (a.id < b.id ? -1 : 1)],
    ['-id', (a: any, b: any) => (a.id < b.id ? 1 : -1)],
    ['name', byName],
    ['-name', (a: any, b: any) => -byName(a, b)],
    ['created_at', (a: any, b: any) => a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : 1)],
    ['-updated_at', (a: any, b: any) => b.updated_at.localeCompare(a.updated_at) || (a.id < b.id ? 1 : -1)],
  ])('sorts by %s across pages, each record once', async (sort, compare) => {
    expect(await walk(`sort=${sort}`)).toEqual([...all].sort(compare).map((r) => r.id));
  });

  it('keeps its place when records are added or removed between pages', async () => {
    const leaving = await create('fleet', { name: 'Aardvark' });
    const first = await page('page[size]=5&sort=name');
    expect(first.body.custom_object_records[0].id).toBe(leaving.id);
    const arriving = await create('fleet', { name: 'AAA first of all' });
    await remove('fleet', leaving.id);
    const second = await page(`page[size]=5&sort=name&page[after]=${first.body.meta.after_cursor}`);
    expect(second.body.custom_object_records.map((r: any) => r.id)).toEqual([...all].sort(byName).map((r) => r.id).slice(4, 9));
    await remove('fleet', arriving.id);
  });

  it('filters by ids and external ids', async () => {
    const picked = [all[3], all[1]];
    const byIds = await page(`filter[ids]=${picked.map((r) => r.id).join(',')}`);
    expect(byIds.body.custom_object_records.map((r: any) => r.id)).toEqual([all[1].id, all[3].id]);
    const byExternal = await page('filter[external_ids]=f-2, f-5,nope');
    expect(names(byExternal)).toEqual([all[2].name, all[5].name]);
    const both = await page(`filter[ids]=${all[2].id},${all[3].id}&filter[external_ids]=f-2`);
    expect(both.body.custom_object_records.map((r: any) => r.id)).toEqual([all[2].id]);
    const paged = await page(`page[size]=1&filter[external_ids]=f-2,f-5`);
    expect(paged.body.meta.has_more).toBe(true);
    expect(new URL(paged.body.links.next).searchParams.get('filter[external_ids]')).toBe('f-2,f-5');
  });

  it.each([
    ['page[size]=0'], ['page[size]=101'], ['page[size]=ten'], ['page[size]=1.5'], ['page[size]=-1'],
    ['page[after]=nonsense'], ['page[before]=bm90IGpzb24'], ['sort=colour'], ['sort=+name'], ['colour=red'], ['page=2'],
    ['sort=name&sort=id'], ['filter[ids]='], [`filter[ids]=${Array.from({ length: 101 }, (_, i) => `id${i}`).join(',')}`],
  ])('refuses %s with 400 InvalidParameter', async (query) => {
    const answer = await page(query);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('InvalidParameter');
  });

  it('refuses page[after] with page[before], and a cursor of another sort order', async () => {
    const first = await page('page[size]=2');
    const cursor = first.body.meta.after_cursor;
    expect((await page(`page[after]=${cursor}&page[before]=${cursor}`)).body.error).toBe('InvalidParameter');
    const otherSort = await page(`sort=name&page[after]=${cursor}`);
    expect(otherSort.status).toBe(400);
    expect(otherSort.body.description).toContain('sort');
    expect((await page(`page[size]=${PAGE_SIZE_MAX}`)).status).toBe(200);
  });

  it('counts records', async () => {
    const answer = await get(`${recordsPath('fleet')}/count`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ count: { value: all.length, refreshed_at: hub.engine.clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z') } });
  });

  describe('search', () => {
    const search = (query: string) => get(`${recordsPath('fleet')}/search?${query}`);

    it('finds records by a word of their name or a text field, case-insensitively', async () => {
      expect(names(await search('query=BRAVO')).sort()).toEqual(all.filter((r) => /bravo/i.test(r.name)).map((r) => r.name).sort());
      expect((await search('query=model%2012')).body.custom_object_records.map((r: any) => r.id))
        .toEqual(all.filter((r) => /model|12/i.test(r.custom_object_fields.model) || /model|12/i.test(r.name)).map((r) => r.id));
      expect((await search('query=transit')).body.custom_object_records.map((r: any) => r.id)).toEqual([all[7].id]);
    });

    it('treats % and _ in the query as plain characters, and does not look into other field types', async () => {
      expect((await search('query=100%25')).body.custom_object_records.map((r: any) => r.id)).toEqual([all[7].id]);
      expect((await search('query=_')).body.custom_object_records).toEqual([]);
      expect((await search('query=24')).body.custom_object_records.map((r: any) => r.id)).toEqual([all[24].id]);
    });

    it('pages and sorts like the list', async () => {
      const first = await search('query=alpha&sort=-name&page[size]=2');
      expect(first.body.custom_object_records).toHaveLength(2);
      expect(first.body.meta.has_more).toBe(true);
      const rest = await get(new URL(first.body.links.next).pathname + new URL(first.body.links.next).search);
      const expected = all.filter((r) => /alpha/i.test(r.name)).sort((a, b) => -byName(a, b)).map((r) => r.id);
      expect([...first.body.custom_object_records, ...rest.body.custom_object_records].map((r: any) => r.id)).toEqual(expected.slice(0, 4));
    });

    it('needs a query, and only the parameters it knows', async () => {
      const tooManyWords = Array.from({ length: QUERY_WORDS_MAX + 1 }, (_, i) => `w${i}`).join('%20');
      for (const query of ['', 'query=', 'query=%20', 'query=x&filter[ids]=a', `query=${'x'.repeat(QUERY_MAX + 1)}`, `query=${tooManyWords}`]) {
        const answer = await search(query);
        expect(answer.status).toBe(400);
        expect(answer.body.error).toBe('InvalidParameter');
      }
    });
  });
});

describe('records of a deleted object', () => {
  it('go with the object', async () => {
    await createObject('temporary');
    const record = await create('temporary', { name: 'Short-lived' });
    expect((await supportCall(hub, 'DELETE', '/api/v2/custom_objects/temporary', { auth: admin() })).status).toBe(204);
    expect(hub.engine.db.prepare('SELECT COUNT(*) FROM custom_object_records WHERE id = ?').pluck().get(record.id)).toBe(0);
  });
});
