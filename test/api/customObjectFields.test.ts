import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, call, startTestHub, type TestHub } from '../support/testHub.js';
import { basic, bearer, detailCodes, supportCall } from '../support/supportApi.js';
import { FIELD_LIMIT } from '../../electron/engine/customObjects/fields.js';
import { REGEXP_PATTERN_MAX } from '../../electron/engine/customObjects/values.js';
import type { Plan } from '../../shared/resources/account.js';

let hub: TestHub;
const admin = () => bearer(hub.adminToken);
const agent = () => bearer(hub.agentToken);
const fieldsPath = (object: string) => `/api/v2/custom_objects/${object}/fields`;
const recordsPath = (object: string) => `/api/v2/custom_objects/${object}/records`;
const createObject = (key: string) => supportCall(hub, 'POST', '/api/v2/custom_objects', { auth: admin(), body: { custom_object: { key, title: key, title_pluralized: `${key}s` } } });
const post = (object: string, field: unknown, auth = admin()) => supportCall(hub, 'POST', fieldsPath(object), { auth, body: { custom_object_field: field } });
const patch = (object: string, field: string | number, data: unknown, auth = admin()) =>
  supportCall(hub, 'PATCH', `${fieldsPath(object)}/${field}`, { auth, body: { custom_object_field: data } });
const get = (object: string, field: string | number, auth = agent()) => supportCall(hub, 'GET', `${fieldsPath(object)}/${field}`, { auth });
const remove = (object: string, field: string | number, auth = admin()) => supportCall(hub, 'DELETE', `${fieldsPath(object)}/${field}`, { auth });
const list = async (object: string, auth = agent()) => (await supportCall(hub, 'GET', fieldsPath(object), { auth })).body.custom_object_fields as any[];
const createRecord = async (object: string, record: unknown) =>
  (await supportCall(hub, 'POST', recordsPath(object), { auth: agent(), body: { custom_object_record: record } })).body.custom_object_record;
const getRecord = async (object: string, id: string) => (await supportCall(hub, 'GET', `${recordsPath(object)}/${id}`, { auth: agent() })).body.custom_object_record;

async function setPlan(plan: Plan) {
  expect((await call(hub, 'PUT', '/v2/accounts/self', { token: hub.adminToken, data: { plan } })).status).toBe(200);
}

beforeAll(async () => {
  hub = await startTestHub();
  for (const key of ['car', 'garage']) expect((await createObject(key)).status).toBe(201);
});
afterAll(() => hub.close());

describe('the standard fields', () => {
  it('lists standard::name and standard::external_id first, as system fields', async () => {
    const fields = await list('garage');
    expect(fields.map((f) => [f.key, f.system, f.type])).toEqual([['standard::name', true, 'text'], ['standard::external_id', true, 'text']]);
    expect(fields[0]).toMatchObject({ title: 'Name', raw_title: 'Name', active: true, custom_field_options: null, relationship_target_type: null });
    expect(fields[0].url).toBe(`${hub.url}/api/v2/custom_objects/garage/fields/${fields[0].id}.json`);
  });

  it('lets an admin change their title and description only', async () => {
    const changed = await patch('garage', 'standard::name', { title: 'Garage name', description: 'What the garage is called' });
    expect(changed.status).toBe(200);
    expect(changed.body.custom_object_field).toMatchObject({ key: 'standard::name', title: 'Garage name', description: 'What the garage is called', system: true });
    const refused = await patch('garage', 'standard::name', { active: false, position: 5 });
    expect(refused.status).toBe(422);
    expect(detailCodes(refused)).toEqual({ active: ['ReadOnly'], position: ['ReadOnly'] });
    // What GET served, sent back unchanged, is accepted.
    const served = (await get('garage', 'standard::external_id')).body.custom_object_field;
    expect((await patch('garage', 'standard::external_id', { ...served, title: 'Garage code' })).status).toBe(200);
  });

  it('can not be deleted', async () => {
    const refused = await remove('garage', 'standard::name');
    expect(refused.status).toBe(422);
    expect(detailCodes(refused)).toEqual({ base: ['ReadOnly'] });
    expect((await list('garage')).map((f) => f.key)).toContain('standard::name');
  });
});

describe('creating fields', () => {
  it('creates a text field: 201 with the field, a Location, readable by id, key and .json link', async () => {
    const created = await post('car', { key: 'plate', title: 'Licence plate', description: 'As registered' });
    expect(created.status).toBe(201);
    const field = created.body.custom_object_field;
    expect(field).toMatchObject({
      key: 'plate', type: 'text', title: 'Licence plate', raw_title: 'Licence plate', description: 'As registered', raw_description: 'As registered',
      active: true, system: false, regexp_for_validation: null, custom_field_options: null, relationship_target_type: null,
      created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect(typeof field.id).toBe('number');
    expect(created.headers.get('location')).toBe(field.url);
    expect((await get('car', field.id)).body.custom_object_field).toEqual(field);
    expect((await get('car', 'plate')).body.custom_object_field).toEqual(field);
    expect((await supportCall(hub, 'GET', new URL(field.url).pathname, { auth: agent() })).body.custom_object_field).toEqual(field);
  });

  it('lists custom fields after the standard ones, by position', async () => {
    await post('car', { key: 'model', title: 'Model' });
    const keys = async () => (await list('car')).map((f) => f.key);
    expect(await keys()).toEqual(['standard::name', 'standard::external_id', 'plate', 'model']);
    expect((await patch('car', 'plate', { position: 5 })).status).toBe(200);
    expect(await keys()).toEqual(['standard::name', 'standard::external_id', 'model', 'plate']);
  });

  it('checks keys as the real service: letters, digits and underscores, not only digits, unique in the object', async () => {
    expect(detailCodes(await post('car', { title: 'No key' }))).toEqual({ key: ['BlankValue'] });
    for (const key of ['has space', '1234', 'dash-ed', 'x'.repeat(65), 'standard::name', 7]) {
      expect(detailCodes(await post('car', { key, title: 'Bad key' }))).toEqual({ key: ['InvalidFormat'] });
    }
    expect(detailCodes(await post('car', { key: 'plate', title: 'Again' }))).toEqual({ key: ['DuplicateValue'] });
    expect((await post('garage', { key: 'plate', title: 'Same key, other object' })).status).toBe(201);
    expect((await post('car', { key: 'Mixed_Case_2', title: 'Fine' })).status).toBe(201);
  });

  it('needs a title and a known type; text is the default type', async () => {
    expect(detailCodes(await post('car', { key: 'untitled' }))).toEqual({ title: ['BlankValue'] });
    expect(detailCodes(await post('car', { key: 'blank_title', title: '  ' }))).toEqual({ title: ['BlankValue'] });
    expect(detailCodes(await post('car', { key: 'long_title', title: 'x'.repeat(256) }))).toEqual({ title: ['TooLong'] });
    expect(detailCodes(await post('car', { key: 'odd', title: 'Odd', type: 'colour' }))).toEqual({ type: ['InvalidValue'] });
    expect(detailCodes(await post('car', { key: 'odd', title: 'Odd', position: -1 }))).toEqual({ position: ['InvalidValue'] });
    expect(detailCodes(await post('car', { key: 'odd', title: 'Odd', active: 'yes' }))).toEqual({ active: ['InvalidValue'] });
    expect(detailCodes(await post('car', { key: 'odd', title: 'Odd', colour: 'red' }))).toEqual({ colour: ['UnknownField'] });
    for (const type of ['text', 'textarea', 'integer', 'decimal', 'date', 'checkbox']) {
      expect((await post('car', { key: `a_${type}`, title: type, type })).body.custom_object_field.type).toBe(type);
    }
  });

  it('lists every problem of a request at once', async () => {
    const answer = await post('car', { key: '99', type: 'lookup', colour: 'red' });
    expect(answer.status).toBe(422);
    expect(answer.body.error).toBe('RecordInvalid');
    expect(Object.keys(detailCodes(answer)).sort()).toEqual(['colour', 'key', 'relationship_target_type', 'title']);
  });

  it('answers 404 RecordNotFound for an unknown object or field', async () => {
    const noObject = await supportCall(hub, 'GET', fieldsPath('nothing'), { auth: agent() });
    expect(noObject.status).toBe(404);
    expect(noObject.body.error).toBe('RecordNotFound');
    expect((await get('car', 'nothing')).status).toBe(404);
    expect((await get('car', 999999)).status).toBe(404);
    expect((await post('nothing', { key: 'x', title: 'x' })).status).toBe(404);
  });

  it('answers 400 InvalidPayload without the custom_object_field wrapper', async () => {
    const answer = await supportCall(hub, 'POST', fieldsPath('car'), { auth: admin(), body: { key: 'bare', title: 'Bare' } });
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe('InvalidPayload');
  });
});

describe('roles', () => {
  it('lets agents read fields but not create, change, reorder or delete them', async () => {
    expect((await supportCall(hub, 'GET', fieldsPath('car'), { auth: agent() })).status).toBe(200);
    expect((await get('car', 'plate')).status).toBe(200);
    for (const answer of [
      await post('car', { key: 'by_agent', title: 'By agent' }, agent()),
      await patch('car', 'plate', { title: 'Agent title' }, agent()),
      await remove('car', 'plate', agent()),
      await supportCall(hub, 'PUT', `${fieldsPath('car')}/reorder`, { auth: agent(), body: { custom_object_field_ids: [] } }),
    ]) {
      expect(answer.status).toBe(403);
      expect(answer.body.error).toBe('Forbidden');
    }
    expect((await get('car', 'by_agent')).status).toBe(404);
    expect((await get('car', 'plate')).body.custom_object_field.title).toBe('Licence plate');
  });

  it('accepts an admin signing in with Basic credentials', async () => {
    const created = await post('car', { key: 'by_basic', title: 'Basic' }, basic(ADMIN.email, ADMIN.password));
    expect(created.status).toBe(201);
  });
});

describe('changing fields', () => {
  it('changes title, description, position and active', async () => {
    hub.clock.advance(60_000);
    const changed = await patch('car', 'plate', { title: 'Plate', description: null, position: 40, active: false });
    expect(changed.status).toBe(200);
    expect(changed.body.custom_object_field).toMatchObject({ title: 'Plate', raw_title: 'Plate', description: null, position: 40, active: false, updated_at: '2026-03-02T10:01:00Z' });
    expect(detailCodes(await patch('car', 'plate', { title: '' }))).toEqual({ title: ['BlankValue'] });
  });

  it('keeps key, type and a lookup target as created; sending the same value is fine', async () => {
    expect(detailCodes(await patch('car', 'plate', { key: 'number_plate' }))).toEqual({ key: ['ReadOnly'] });
    expect(detailCodes(await patch('car', 'plate', { type: 'textarea' }))).toEqual({ type: ['ReadOnly'] });
    const served = (await get('car', 'plate')).body.custom_object_field;
    expect((await patch('car', 'plate', served)).status).toBe(200);
    await post('car', { key: 'owner', title: 'Owner', type: 'lookup', relationship_target_type: 'zen:user' });
    expect(detailCodes(await patch('car', 'owner', { relationship_target_type: 'sell:contact' }))).toEqual({ relationship_target_type: ['ReadOnly'] });
    expect((await patch('car', 'owner', { relationship_target_type: 'zen:user', title: 'Keeper' })).status).toBe(200);
  });

  it('reorders custom fields with every id once (standard fields stay first)', async () => {
    await createObject('reordered');
    const ids = [];
    for (const key of ['a', 'b', 'c']) ids.push((await post('reordered', { key, title: key })).body.custom_object_field.id);
    const reorder = (body: unknown) => supportCall(hub, 'PUT', `${fieldsPath('reordered')}/reorder`, { auth: admin(), body });
    const answer = await reorder({ custom_object_field_ids: [ids[2], ids[0], ids[1]] });
    expect(answer.status).toBe(200);
    expect((await list('reordered')).map((f) => f.key)).toEqual(['standard::name', 'standard::external_id', 'c', 'a', 'b']);
    expect(detailCodes(await reorder({ custom_object_field_ids: [ids[0], ids[1]] }))).toEqual({ custom_object_field_ids: ['InvalidValue'] });
    expect(detailCodes(await reorder({ custom_object_field_ids: [ids[0], ids[0], ids[1]] }))).toEqual({ custom_object_field_ids: ['InvalidValue'] });
    expect((await reorder({})).status).toBe(422);
  });
});

describe('dropdown and multiselect fields', () => {
  const colours = [{ name: 'Red', value: 'red' }, { name: 'Blue', value: 'blue' }];

  it('need at least one option, each with a name and a unique value', async () => {
    for (const type of ['dropdown', 'multiselect']) {
      expect(detailCodes(await post('car', { key: `no_${type}`, title: 'x', type }))).toEqual({ custom_field_options: ['BlankValue'] });
      expect(detailCodes(await post('car', { key: `no_${type}`, title: 'x', type, custom_field_options: [] }))).toEqual({ custom_field_options: ['BlankValue'] });
    }
    const duplicate = await post('car', { key: 'dupe', title: 'x', type: 'dropdown', custom_field_options: [...colours, { name: 'Crimson', value: 'red' }] });
    expect(detailCodes(duplicate)).toEqual({ custom_field_options: ['DuplicateValue'] });
    expect(duplicate.body.details.custom_field_options[0].description).toMatch(/option 3.*'red'.*option 1/);
    expect(detailCodes(await post('car', { key: 'nameless', title: 'x', type: 'dropdown', custom_field_options: [{ value: 'v' }] })))
      .toEqual({ custom_field_options: ['BlankValue'] });
    expect(detailCodes(await post('car', { key: 'not_objects', title: 'x', type: 'dropdown', custom_field_options: ['red'] })))
      .toEqual({ custom_field_options: ['InvalidValue'] });
    expect(detailCodes(await post('car', { key: 'text_options', title: 'x', type: 'text', custom_field_options: colours })))
      .toEqual({ custom_field_options: ['InvalidValue'] });
  });

  it('gives options ids, raw names and positions', async () => {
    const field = (await post('car', { key: 'colour', title: 'Colour', type: 'dropdown', custom_field_options: colours })).body.custom_object_field;
    expect(field.custom_field_options).toEqual([
      { id: expect.any(Number), name: 'Red', raw_name: 'Red', value: 'red', position: 0 },
      { id: expect.any(Number), name: 'Blue', raw_name: 'Blue', value: 'blue', position: 1 },
    ]);
    expect(field.custom_field_options[0].id).not.toBe(field.custom_field_options[1].id);
  });

  it('renames values in records when an option keeps its id, and removes dropped options from records', async () => {
    const dropdown = (await post('car', { key: 'paint', title: 'Paint', type: 'dropdown', custom_field_options: colours })).body.custom_object_field;
    const multi = (await post('car', { key: 'extras', title: 'Extras', type: 'multiselect', custom_field_options: [
      { name: 'GPS', value: 'gps' }, { name: 'Roof', value: 'roof' }, { name: 'Tow bar', value: 'tow' },
    ] })).body.custom_object_field;
    const red = await createRecord('car', { name: 'Red car', custom_object_fields: { paint: 'red', extras: ['gps', 'tow'] } });
    const blue = await createRecord('car', { name: 'Blue car', custom_object_fields: { paint: 'blue', extras: ['roof'] } });
    const [redOption, blueOption] = dropdown.custom_field_options;
    const renamed = await patch('car', 'paint', { custom_field_options: [{ ...redOption, value: 'scarlet', name: 'Scarlet' }, { name: 'Green', value: 'green' }] });
    expect(renamed.status).toBe(200);
    expect(renamed.body.custom_object_field.custom_field_options.map((o: any) => [o.value, o.id === redOption.id])).toEqual([['scarlet', true], ['green', false]]);
    expect((await getRecord('car', red.id)).custom_object_fields.paint).toBe('scarlet');
    expect((await getRecord('car', blue.id)).custom_object_fields.paint).toBeNull();
    const [gps, , tow] = multi.custom_field_options;
    // Without positions the array's order counts; sent positions would order the options instead.
    const reordered = await patch('car', 'extras', { custom_field_options: [tow, gps].map(({ id, name, value }) => ({ id, name, value })) });
    expect(reordered.body.custom_object_field.custom_field_options.map((o: any) => [o.value, o.position])).toEqual([['tow', 0], ['gps', 1]]);
    expect((await getRecord('car', red.id)).custom_object_fields.extras).toEqual(['tow', 'gps']);
    expect((await getRecord('car', blue.id)).custom_object_fields.extras).toBeNull();
    expect(detailCodes(await patch('car', 'paint', { custom_field_options: [{ id: 424242, name: 'Ghost', value: 'ghost' }] })))
      .toEqual({ custom_field_options: ['InvalidValue'] });
    expect(blueOption.id).toEqual(expect.any(Number));
  });
});

describe('regexp fields', () => {
  it('need a valid pattern of bounded length', async () => {
    expect(detailCodes(await post('car', { key: 'vin', title: 'VIN', type: 'regexp' }))).toEqual({ regexp_for_validation: ['BlankValue'] });
    expect(detailCodes(await post('car', { key: 'vin', title: 'VIN', type: 'regexp', regexp_for_validation: '([a-z' })))
      .toEqual({ regexp_for_validation: ['InvalidValue'] });
    expect(detailCodes(await post('car', { key: 'vin', title: 'VIN', type: 'regexp', regexp_for_validation: 'a'.repeat(REGEXP_PATTERN_MAX + 1) })))
      .toEqual({ regexp_for_validation: ['InvalidValue'] });
    expect(detailCodes(await post('car', { key: 'vin', title: 'VIN', type: 'text', regexp_for_validation: '^x$' })))
      .toEqual({ regexp_for_validation: ['InvalidValue'] });
    const created = await post('car', { key: 'vin', title: 'VIN', type: 'regexp', regexp_for_validation: '\\A[A-HJ-NPR-Z0-9]{17}\\z' });
    expect(created.status).toBe(201);
    expect(created.body.custom_object_field.regexp_for_validation).toBe('\\A[A-HJ-NPR-Z0-9]{17}\\z');
    expect(detailCodes(await patch('car', 'vin', { regexp_for_validation: '(' }))).toEqual({ regexp_for_validation: ['InvalidValue'] });
    expect((await patch('car', 'vin', { regexp_for_validation: '^[A-Z0-9]{17}$' })).body.custom_object_field.regexp_for_validation).toBe('^[A-Z0-9]{17}$');
  });
});

describe('lookup fields', () => {
  it('need a target this CRM has: users, contacts, deals, leads or an existing custom object', async () => {
    expect(detailCodes(await post('car', { key: 'link', title: 'Link', type: 'lookup' }))).toEqual({ relationship_target_type: ['BlankValue'] });
    for (const target of ['zen:ticket', 'zen:organization', 'sell:task', 'zen:custom_object:nothing', 42]) {
      expect(detailCodes(await post('car', { key: 'link', title: 'Link', type: 'lookup', relationship_target_type: target })))
        .toEqual({ relationship_target_type: ['InvalidValue'] });
    }
    expect(detailCodes(await post('car', { key: 'link', title: 'Link', type: 'text', relationship_target_type: 'zen:user' })))
      .toEqual({ relationship_target_type: ['InvalidValue'] });
    expect(detailCodes(await post('car', { key: 'link', title: 'Link', type: 'lookup', relationship_target_type: 'zen:user', relationship_filter: { all: [] } })))
      .toEqual({ relationship_filter: ['InvalidValue'] });
    for (const target of ['zen:user', 'sell:contact', 'sell:deal', 'sell:lead', 'zen:custom_object:garage', 'zen:custom_object:car']) {
      const key = `to_${target.replace(/\W/g, '_')}`;
      const created = await post('garage', { key, title: key, type: 'lookup', relationship_target_type: target, relationship_filter: null });
      expect(created.status).toBe(201);
      expect(created.body.custom_object_field.relationship_target_type).toBe(target);
    }
  });
});

describe('limits', () => {
  it(`allows ${FIELD_LIMIT} custom fields per object; standard fields are not counted`, async () => {
    await createObject('crowded');
    for (let i = 0; i < FIELD_LIMIT; i += 1) expect((await post('crowded', { key: `f${i}`, title: `Field ${i}` })).status).toBe(201);
    const refused = await post('crowded', { key: 'one_too_many', title: 'One too many' });
    expect(detailCodes(refused)).toEqual({ base: ['LimitExceeded'] });
    expect(refused.body.details.base[0].description).toContain(`${FIELD_LIMIT} fields`);
    expect(await list('crowded')).toHaveLength(FIELD_LIMIT + 2);
    expect((await supportCall(hub, 'GET', '/api/v2/custom_objects/crowded/limits/field_limit', { auth: agent() })).body).toEqual({ count: FIELD_LIMIT, limit: FIELD_LIMIT });
    expect((await remove('crowded', 'f0')).status).toBe(204);
    expect((await post('crowded', { key: 'room_again', title: 'Room again' })).status).toBe(201);
  });

  it('allows 5 lookup fields per object on starter, 10 on growth; lowering the plan keeps existing ones', async () => {
    await createObject('linked');
    const lookup = (i: number) => post('linked', { key: `l${i}`, title: `Lookup ${i}`, type: 'lookup', relationship_target_type: 'zen:user' });
    await setPlan('starter');
    for (let i = 1; i <= 5; i += 1) expect((await lookup(i)).status).toBe(201);
    const sixth = await lookup(6);
    expect(detailCodes(sixth)).toEqual({ base: ['LimitExceeded'] });
    expect(sixth.body.details.base[0].description).toMatch(/starter plan.*\(5;/);
    // Other types are still fine.
    expect((await post('linked', { key: 'plain', title: 'Plain' })).status).toBe(201);
    await setPlan('growth');
    for (let i = 6; i <= 10; i += 1) expect((await lookup(i)).status).toBe(201);
    const eleventh = await lookup(11);
    expect(detailCodes(eleventh)).toEqual({ base: ['LimitExceeded'] });
    expect(eleventh.body.details.base[0].description).toMatch(/growth plan.*\(10;/);
    await setPlan('starter');
    expect((await list('linked')).filter((f) => f.type === 'lookup')).toHaveLength(10);
    expect(detailCodes(await lookup(12))).toEqual({ base: ['LimitExceeded'] });
    await setPlan('elite');
  });
});

describe('deleting fields', () => {
  it('answers 204 and drops the field values from every record of the object', async () => {
    await createObject('boat');
    await post('boat', { key: 'hull', title: 'Hull' });
    await post('boat', { key: 'mast', title: 'Mast', type: 'integer' });
    const first = await createRecord('boat', { name: 'First', custom_object_fields: { hull: 'wood', mast: 2 } });
    const second = await createRecord('boat', { name: 'Second', custom_object_fields: { hull: 'steel' } });
    const deleted = await remove('boat', 'hull');
    expect(deleted.status).toBe(204);
    expect(deleted.text).toBe('');
    expect((await get('boat', 'hull')).status).toBe(404);
    expect((await getRecord('boat', first.id)).custom_object_fields).toEqual({ mast: 2 });
    const stored = hub.engine.db.prepare('SELECT fields_json FROM custom_object_records WHERE id IN (?, ?) ORDER BY id').pluck().all(first.id, second.id);
    expect(stored.map((json) => JSON.parse(json as string))).toEqual([{ mast: 2 }, {}]);
    // A new field with the old key starts empty.
    await post('boat', { key: 'hull', title: 'Hull again' });
    expect((await getRecord('boat', second.id)).custom_object_fields).toEqual({ mast: null, hull: null });
  });
});
