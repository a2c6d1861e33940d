import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN, call, startTestHub, type TestHub } from '../support/testHub.js';
import { basic, bearer, detailCodes, supportCall } from '../support/supportApi.js';
import { cleanUp, outpost, serve, stop, tempDir } from '../support/cliProcess.js';
import { DESCRIPTION_MAX_LENGTH, KEY_MAX_LENGTH, TITLE_MAX_LENGTH } from '../../electron/engine/customObjects/objects.js';
import { normalizeSupportBaseUrl } from '../../electron/engine/http/supportApi.js';
import { PLAN_LIMITS, type Plan } from '../../shared/resources/account.js';

let hub: TestHub;
const BASE = '/api/v2/custom_objects';
const admin = () => bearer(hub.adminToken);
const agent = () => bearer(hub.agentToken);
const post = (object: unknown, auth = admin()) => supportCall(hub, 'POST', BASE, { auth, body: { custom_object: object } });
const patch = (key: string, object: unknown, auth = admin()) => supportCall(hub, 'PATCH', `${BASE}/${key}`, { auth, body: { custom_object: object } });
const get = (key: string, auth = agent()) => supportCall(hub, 'GET', `${BASE}/${key}`, { auth });
const list = (auth = agent()) => supportCall(hub, 'GET', BASE, { auth });
const remove = (key: string, auth = admin()) => supportCall(hub, 'DELETE', `${BASE}/${key}`, { auth });
const car = (key = 'car', extra: Record<string, unknown> = {}) => ({ key, title: 'Car', title_pluralized: 'Cars', ...extra });
const keys = async () => (await list()).body.custom_objects.map((o: any) => o.key);

async function setPlan(plan: Plan) {
  expect((await call(hub, 'PUT', '/v2/accounts/self', { token: hub.adminToken, data: { plan } })).status).toBe(200);
}

async function deleteEveryObject() {
  for (const key of await keys()) expect((await remove(key)).status).toBe(204);
}

async function addField(objectKey: string, field: Record<string, unknown>) {
  const answer = await supportCall(hub, 'POST', `${BASE}/${objectKey}/fields`, { auth: admin(), body: { custom_object_field: { title: String(field.key), ...field } } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

async function addRecord(objectKey: string, name: string) {
  const answer = await supportCall(hub, 'POST', `${BASE}/${objectKey}/records`, { auth: agent(), body: { custom_object_record: { name } } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
}

const lookupTo = (key: string, target: string) => ({ key, type: 'lookup', relationship_target_type: `zen:custom_object:${target}` });

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());
afterAll(cleanUp);
beforeEach(async () => {
  hub.clock.set('2026-03-02T10:00:00Z');
  await deleteEveryObject();
  await setPlan('elite');
});

describe('creating and reading custom objects', () => {
  it('creates an object (201) with every property of the spec, and serves it alike from GET', async () => {
    const created = await post(car('car', { description: 'Fleet vehicles' }));
    expect(created.status).toBe(201);
    const url = `${hub.url}${BASE}/car.json`;
    expect(created.body).toEqual({
      custom_object: {
        key: 'car', title: 'Car', title_pluralized: 'Cars', description: 'Fleet vehicles',
        raw_title: 'Car', raw_title_pluralized: 'Cars', raw_description: 'Fleet vehicles',
        created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
        created_by_user_id: String(hub.adminId), updated_by_user_id: String(hub.adminId), url,
      },
    });
    expect(created.headers.get('location')).toBe(url);
    expect((await get('car')).body).toEqual(created.body);
    expect((await supportCall(hub, 'GET', new URL(url).pathname, { auth: agent() })).body).toEqual(created.body);
  });

  it('lists objects in creation order as {"custom_objects": [...]}, for agents too', async () => {
    for (const key of ['zebra', 'apple', 'mango']) {
      expect((await post(car(key))).status).toBe(201);
      hub.clock.advance(1000);
    }
    const answer = await list();
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['custom_objects']);
    expect(answer.body.custom_objects.map((o: any) => o.key)).toEqual(['zebra', 'apple', 'mango']);
    expect(answer.body.custom_objects[1]).toEqual((await get('apple')).body.custom_object);
  });

  it('serves a description never set as null, and trims what it stores', async () => {
    const created = (await post({ key: 'plain', title: '  Plain ', title_pluralized: 'Plains  ', description: '   ' })).body.custom_object;
    expect(created).toMatchObject({ title: 'Plain', title_pluralized: 'Plains', description: null, raw_description: null });
  });

  it('keeps a dynamic-content placeholder as written in raw_* and, having no such items, renders it as itself', async () => {
    const created = (await post(car('placeholder', { title: '{{dc.vehicle}}', description: '{{dc.vehicle_help}}' }))).body.custom_object;
    expect(created).toMatchObject({ title: '{{dc.vehicle}}', raw_title: '{{dc.vehicle}}', description: '{{dc.vehicle_help}}', raw_description: '{{dc.vehicle_help}}' });
  });

  it('takes raw_title and the others as the value to store; two different values on create are refused', async () => {
    const created = await post({ key: 'raw', raw_title: 'Raw', raw_title_pluralized: 'Raws', raw_description: 'From raw' });
    expect(created.body.custom_object).toMatchObject({ title: 'Raw', title_pluralized: 'Raws', description: 'From raw' });
    const both = await post(car('both', { raw_title: 'Other' }));
    expect(detailCodes(both)).toEqual({ raw_title: ['InvalidValue'] });
  });

  it('answers 404 RecordNotFound for an unknown key', async () => {
    const answer = await get('nothing');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual({ error: 'RecordNotFound', description: expect.stringContaining('nothing') });
  });

  it('lets agents read but not create, change or delete (403 Forbidden)', async () => {
    await post(car());
    expect((await get('car', agent())).status).toBe(200);
    expect((await list(agent())).status).toBe(200);
    for (const answer of [await post(car('mine'), agent()), await patch('car', { title: 'Auto' }, agent()), await remove('car', agent())]) {
      expect(answer.status).toBe(403);
      expect(answer.body).toEqual({ error: 'Forbidden', description: expect.any(String) });
    }
    expect(await keys()).toEqual(['car']);
    expect((await get('car')).body.custom_object.title).toBe('Car');
  });

  it('works with Basic credentials as the spec\'s reference calls it', async () => {
    const created = await post(car('basic'), basic(ADMIN.email, ADMIN.password));
    expect(created.status).toBe(201);
  });
});

describe('validation on create (422 RecordInvalid, every problem at once)', () => {
  it('requires key, title and title_pluralized', async () => {
    const answer = await post({});
    expect(answer.status).toBe(422);
    expect(answer.body).toMatchObject({ error: 'RecordInvalid', description: 'Record validation errors' });
    expect(detailCodes(answer)).toEqual({ key: ['BlankValue'], title: ['BlankValue'], title_pluralized: ['BlankValue'] });
    expect(answer.body.details.title[0].description).toBe('Title: cannot be blank');
    expect(detailCodes(await post({ key: '', title: ' ', title_pluralized: null }))).toEqual({ key: ['BlankValue'], title: ['BlankValue'], title_pluralized: ['BlankValue'] });
    expect(await keys()).toEqual([]);
  });

  it('requires strings', async () => {
    expect(detailCodes(await post({ key: 7, title: 1, title_pluralized: true, description: ['x'] })))
      .toEqual({ key: ['InvalidValue'], title: ['InvalidValue'], title_pluralized: ['InvalidValue'], description: ['InvalidValue'] });
  });

  it('limits lengths (key 60, titles 255, description 1000 characters)', async () => {
    const longest = { key: `k${'x'.repeat(KEY_MAX_LENGTH - 1)}`, title: 'é'.repeat(TITLE_MAX_LENGTH), title_pluralized: 'T'.repeat(TITLE_MAX_LENGTH), description: 'd'.repeat(DESCRIPTION_MAX_LENGTH) };
    expect((await post(longest)).status).toBe(201);
    const tooLong = { key: `k${'x'.repeat(KEY_MAX_LENGTH)}`, title: 'é'.repeat(TITLE_MAX_LENGTH + 1), title_pluralized: 'T'.repeat(TITLE_MAX_LENGTH + 1), description: 'd'.repeat(DESCRIPTION_MAX_LENGTH + 1) };
    expect(detailCodes(await post(tooLong))).toEqual({ key: ['TooLong'], title: ['TooLong'], title_pluralized: ['TooLong'], description: ['TooLong'] });
  });

  it('accepts keys of a lowercase letter then lowercase letters, digits and underscores only', async () => {
    for (const key of ['Car', '1car', '_car', 'car-park', 'car park', ' car', 'zen:car', 'car.json', 'vélo', 'car/1']) {
      expect(detailCodes(await post(car(key))), key).toEqual({ key: ['InvalidFormat'] });
    }
    for (const key of ['a', 'car_2', 'rental_agreement']) expect((await post(car(key))).status, key).toBe(201);
  });

  it('refuses a key already taken (422 DuplicateValue) and names properties it does not know', async () => {
    await post(car());
    const again = await post(car());
    expect(detailCodes(again)).toEqual({ key: ['DuplicateValue'] });
    expect(again.body.details.key[0].description).toBe('Key: is already taken');
    expect(detailCodes(await post(car('other', { colour: 'red', allows_photos: true })))).toEqual({ colour: ['UnknownField'], allows_photos: ['UnknownField'] });
  });

  it('ignores the served read-only properties, so an object can be sent back as it was received', async () => {
    const served = { ...car('copy'), created_at: '1999-01-01T00:00:00Z', created_by_user_id: '999', url: 'https://elsewhere.example.com' };
    const created = await post(served);
    expect(created.status).toBe(201);
    expect(created.body.custom_object).toMatchObject({ created_at: '2026-03-02T10:00:00Z', created_by_user_id: String(hub.adminId), url: `${hub.url}${BASE}/copy.json` });
  });
});

describe('changing custom objects (PATCH)', () => {
  it('changes title, title_pluralized and description (200), stamping who and when', async () => {
    const created = (await post(car('car', { description: 'Fleet' }))).body.custom_object;
    hub.clock.advance(60_000);
    const other = await hub.engine.users.create({ email: 'second-admin@example.com', name: 'Second', password: 'second-admin-1', role: 'admin' });
    const changed = await patch('car', { title: 'Auto', title_pluralized: 'Autos' }, bearer(hub.tokenFor(other)));
    expect(changed.status).toBe(200);
    expect(changed.body.custom_object).toEqual({
      ...created, title: 'Auto', raw_title: 'Auto', title_pluralized: 'Autos', raw_title_pluralized: 'Autos',
      updated_at: '2026-03-02T10:01:00Z', updated_by_user_id: String(other),
    });
    expect((await get('car')).body).toEqual(changed.body);
    expect((await patch('car', { description: null })).body.custom_object.description).toBeNull();
    expect((await patch('car', { description: 'Again' })).body.custom_object.description).toBe('Again');
    expect((await patch('car', { description: '' })).body.custom_object.description).toBeNull();
  });

  it('never changes the key: the same key is fine, another is 422 ReadOnly', async () => {
    await post(car());
    expect((await patch('car', { key: 'car', title: 'Auto' })).status).toBe(200);
    const renamed = await patch('car', { key: 'auto', title: 'Other' });
    expect(detailCodes(renamed)).toEqual({ key: ['ReadOnly'] });
    expect(await keys()).toEqual(['car']);
    expect((await get('car')).body.custom_object.title).toBe('Auto');
  });

  it('validates what it is sent, with every problem at once', async () => {
    await post(car());
    expect(detailCodes(await patch('car', { title: '', title_pluralized: 5, description: 'd'.repeat(DESCRIPTION_MAX_LENGTH + 1), size: 'L' })))
      .toEqual({ title: ['BlankValue'], title_pluralized: ['InvalidValue'], description: ['TooLong'], size: ['UnknownField'] });
    expect((await patch('car', {})).status).toBe(200);
    expect((await get('car')).body.custom_object).toMatchObject({ title: 'Car', title_pluralized: 'Cars', description: null });
  });

  it('takes back an object as received with one of title or raw_title changed', async () => {
    const served = (await post(car())).body.custom_object;
    expect((await patch('car', { ...served, title: 'Auto' })).body.custom_object).toMatchObject({ title: 'Auto', raw_title: 'Auto' });
    expect((await patch('car', { ...served, title: 'Auto', raw_title: 'Wagen' })).body.custom_object.title).toBe('Wagen');
    expect(detailCodes(await patch('car', { title: 'One', raw_title: 'Two' }))).toEqual({ raw_title: ['InvalidValue'] });
  });

  it('answers 404 for an unknown key and 400 for a body without the custom_object wrapper', async () => {
    expect((await patch('nothing', { title: 'x' })).body.error).toBe('RecordNotFound');
    await post(car());
    const bare = await supportCall(hub, 'PATCH', `${BASE}/car`, { auth: admin(), body: { title: 'Auto' } });
    expect([bare.status, bare.body.error]).toEqual([400, 'InvalidPayload']);
  });
});

describe('deleting custom objects', () => {
  it('deletes permanently (204, empty body) with the object\'s fields and records', async () => {
    await post(car());
    await post(car('boat'));
    await addField('car', { key: 'colour', type: 'text' });
    await addRecord('car', 'Red one');
    await addRecord('boat', 'Dinghy');
    const answer = await remove('car');
    expect(answer.status).toBe(204);
    expect(answer.text).toBe('');
    expect((await get('car')).status).toBe(404);
    expect((await supportCall(hub, 'GET', `${BASE}/car/records`, { auth: agent() })).body.error).toBe('RecordNotFound');
    expect((await remove('car')).status).toBe(404);
    const count = (table: string) => hub.engine.db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get();
    expect([count('custom_object_fields'), count('custom_object_records')]).toEqual([0, 1]);
    // A deleted key can be used again, and starts with nothing of the old object.
    expect((await post(car())).status).toBe(201);
    expect((await supportCall(hub, 'GET', `${BASE}/car/records/count`, { auth: agent() })).body.count).toMatchObject({ value: 0 });
    const fields = (await supportCall(hub, 'GET', `${BASE}/car/fields`, { auth: agent() })).body.custom_object_fields;
    expect(fields.map((f: any) => f.key)).not.toContain('colour');
  });

  it('refuses while a lookup field of another object targets it, naming the fields', async () => {
    await post(car());
    await post(car('rental'));
    await post(car('service'));
    await addField('rental', lookupTo('vehicle', 'car'));
    await addField('service', lookupTo('car_ref', 'car'));
    await addField('car', lookupTo('previous_car', 'car'));
    const refused = await remove('car');
    expect(refused.status).toBe(422);
    expect(detailCodes(refused)).toEqual({ base: ['InUse'] });
    expect(refused.body.details.base[0].description).toContain('rental.vehicle, service.car_ref');
    expect((await get('car')).status).toBe(200);
    expect((await supportCall(hub, 'DELETE', `${BASE}/rental/fields/vehicle`, { auth: admin() })).status).toBe(204);
    const stillRefused = await remove('car');
    expect(stillRefused.body.details.base[0].description).toContain('lookup field service.car_ref:');
    expect((await supportCall(hub, 'DELETE', `${BASE}/service/fields/car_ref`, { auth: admin() })).status).toBe(204);
    // Its own lookup to itself goes with it.
    expect((await remove('car')).status).toBe(204);
  });
});

describe('custom objects per plan', () => {
  const cases: [Plan, number][] = [['starter', 3], ['team', 5], ['growth', 30], ['professional', 30], ['enterprise', 50], ['elite', 50]];
  for (const [plan, limit] of cases) {
    it(`allows ${limit} on the ${plan} plan, then 422 LimitExceeded naming the plan and the number`, async () => {
      expect(PLAN_LIMITS[plan].customObjects).toBe(limit);
      await setPlan(plan);
      for (let i = 1; i <= limit; i++) expect((await post(car(`object_${i}`))).status, `object ${i}`).toBe(201);
      const refused = await post(car('one_too_many'));
      expect(refused.status).toBe(422);
      expect(detailCodes(refused)).toEqual({ base: ['LimitExceeded'] });
      expect(refused.body.details.base[0].description).toContain(`The ${plan} plan allows ${limit} custom objects`);
      expect(await keys()).toHaveLength(limit);
    });
  }

  it('keeps every object when the plan is lowered, refusing only new ones until under the limit', async () => {
    for (let i = 1; i <= 5; i++) await post(car(`object_${i}`));
    await setPlan('starter');
    expect(await keys()).toHaveLength(5);
    expect((await patch('object_5', { title: 'Still here' })).status).toBe(200);
    expect(detailCodes(await post(car('sixth')))).toEqual({ base: ['LimitExceeded'] });
    for (const key of ['object_1', 'object_2', 'object_3']) await remove(key);
    expect((await post(car('third_again'))).status).toBe(201);
    expect(detailCodes(await post(car('fourth')))).toEqual({ base: ['LimitExceeded'] });
  });
});

describe('the support base URL', () => {
  it('points url fields at --support-base-url when set', async () => {
    const elsewhere = await startTestHub({ supportBaseUrl: 'https://support.example.com/crm/' });
    try {
      const created = await supportCall(elsewhere, 'POST', BASE, { auth: bearer(elsewhere.adminToken), body: { custom_object: car() } });
      expect(created.body.custom_object.url).toBe('https://support.example.com/crm/api/v2/custom_objects/car.json');
      expect(created.headers.get('location')).toBe('https://support.example.com/crm/api/v2/custom_objects/car.json');
    } finally {
      await elsewhere.close();
    }
  });

  it('accepts only http(s) URLs without query, fragment or credentials', async () => {
    expect(normalizeSupportBaseUrl('https://support.example.com/')).toBe('https://support.example.com');
    expect(normalizeSupportBaseUrl('http://10.0.0.5:4100')).toBe('http://10.0.0.5:4100');
    for (const bad of ['support.example.com', 'ftp://support.example.com', 'https://support.example.com/?a=1', 'https://u:p@support.example.com', 'https://x.example.com/#top', '']) {
      expect(normalizeSupportBaseUrl(bad), bad).toBeNull();
    }
    await expect(startTestHub({ supportBaseUrl: 'not a url' })).rejects.toThrow(/http\(s\) URL/);
  });

  it('is set by `outpost serve --support-base-url`, which refuses anything but an http(s) URL', async () => {
    const dataDir = tempDir();
    const env = { OUTPOST_ADMIN_EMAIL: 'boss@example.com', OUTPOST_ADMIN_PASSWORD: 'boss-password-1' };
    const bad = await outpost(['serve', '--port', '0', '--data-dir', dataDir, '--rate-limit', '0', '--support-base-url', 'ftp://files.example.com'], env);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--support-base-url must be an http(s) URL');

    const served = await serve(dataDir, env, ['--support-base-url', 'https://crm.example.com']);
    try {
      const created = await supportCall({ url: served.url }, 'POST', BASE, { auth: basic('boss@example.com', 'boss-password-1'), body: { custom_object: car() } });
      expect(created.body.custom_object.url).toBe('https://crm.example.com/api/v2/custom_objects/car.json');
    } finally {
      await stop(served);
    }
  });
});
