import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { bearer, supportCall } from '../support/supportApi.js';

let hub: TestHub;
const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const messages = (answer: { body: any }) => answer.body.errors.map((e: any) => e.error.message as string);

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

/** Names people give fields: apostrophes, accents, brackets, signs, quotes and backslashes. */
const NAMES = ['Rep\'s note', 'Größe (cm)', 'Préférence #1', 'Say "hi"', 'Path C:\\deals', 'x.y [z]'];

describe('custom field names', () => {
  it('take any printable text: each holds its value, filters and sorts, on contacts, leads and deals', async () => {
    const buyer = (await agent('POST', '/v2/contacts', { last_name: 'Buyer' })).body.data.id;
    for (const [type, record] of [['contact', { last_name: 'Names' }], ['lead', { last_name: 'Names' }], ['deal', { name: 'Names', contact_id: buyer }]] as const) {
      for (const [index, name] of NAMES.entries()) {
        const created = await admin('POST', `/v2/${type}/custom_fields`, { name, type: 'string' });
        expect(created.status, `${type} ${name}: ${JSON.stringify(created.body)}`).toBe(200);
        expect(created.body.data.name).toBe(name);
        const made = await agent('POST', `/v2/${type}s`, { ...record, custom_fields: { [name]: `b ${index}` } });
        expect(made.status, `${type} ${name}: ${JSON.stringify(made.body)}`).toBe(200);
        const first = made.body.data;
        const second = (await agent('POST', `/v2/${type}s`, { ...record, custom_fields: { [name]: `a ${index}` } })).body.data;
        expect(first.custom_fields, name).toEqual({ [name]: `b ${index}` });
        const filtered = await agent('GET', `/v2/${type}s?${new URLSearchParams({ [`custom_fields[${name}]`]: `b ${index}` })}`);
        expect([filtered.status, ids(filtered)], `${type} filter by ${name}`).toEqual([200, [first.id]]);
        const sorted = await agent('GET', `/v2/${type}s?${new URLSearchParams({ ids: `${first.id},${second.id}`, sort_by: `custom_fields:${name}` })}`);
        expect([sorted.status, ids(sorted)], `${type} sort by ${name}`).toEqual([200, [second.id, first.id]]);
      }
    }
  });

  it('rename and delete with their values, whatever the characters', async () => {
    const def = (await admin('POST', '/v2/contact/custom_fields', { name: 'Client\'s "size"', type: 'number' })).body.data;
    const person = (await agent('POST', '/v2/contacts', { last_name: 'Sized', custom_fields: { 'Client\'s "size"': 12 } })).body.data;
    const renamed = await admin('PUT', `/v2/contact/custom_fields/${def.id}`, { name: 'Größe \\ Kund\'in' });
    expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
    expect((await agent('GET', `/v2/contacts/${person.id}`)).body.data.custom_fields).toEqual({ 'Größe \\ Kund\'in': 12 });
    expect((await admin('DELETE', `/v2/contact/custom_fields/${def.id}`)).status).toBe(204);
    expect((await agent('GET', `/v2/contacts/${person.id}`)).body.data.custom_fields).toEqual({});
  });

  it('refuse control characters and a blank name, saying what is wrong in words', async () => {
    for (const name of ['Line\nbreak', 'Tab\there', 'Bell\u0007', 'Para\u2029graph']) {
      const refused = await admin('POST', '/v2/lead/custom_fields', { name, type: 'string' });
      expect([refused.status, codes(refused), fields(refused)], JSON.stringify(name)).toEqual([422, ['incorrect_value'], ['/name']]);
      expect(messages(refused)).toEqual(['name must not contain line breaks, tabs or other control characters.']);
    }
    const blank = await admin('POST', '/v2/lead/custom_fields', { name: '   ', type: 'string' });
    expect([blank.status, codes(blank), fields(blank), messages(blank)]).toEqual([422, ['blank'], ['/name'], ['name cannot be blank.']]);
    const long = await admin('POST', '/v2/lead/custom_fields', { name: 'x'.repeat(256), type: 'string' });
    expect([codes(long), messages(long)]).toEqual([['incorrect_value'], ['name must be at most 255 characters.']]);
    const badType = await admin('POST', '/v2/lead/custom_fields', { name: 'When', type: 'date' });
    expect(messages(badType)).toEqual(['type must be one of: number, string, list, multi_select_list.']);
    const badChoice = await admin('POST', '/v2/lead/custom_fields', { name: 'Tier', type: 'list', choices: ['Gold', 'Gold'] });
    expect([codes(badChoice), messages(badChoice)]).toEqual([['incorrect_value'], ['choices must not repeat a choice.']]);
    const field = (await admin('POST', '/v2/lead/custom_fields', { name: 'Renamed badly', type: 'string' })).body.data;
    const rename = await admin('PUT', `/v2/lead/custom_fields/${field.id}`, { name: 'Two\r\nlines' });
    expect([rename.status, codes(rename)]).toEqual([422, ['incorrect_value']]);
    // Nothing refused was made.
    const names = (await agent('GET', '/v2/lead/custom_fields')).body.items.map((i: any) => i.data.name);
    expect(names).not.toContain('Tier');
    expect(names.some((name: string) => ['\n', '\t', '\u0007', '\u2029'].some((c) => name.includes(c)))).toBe(false);
  });
});

describe('custom object field titles', () => {
  const fieldsPath = '/api/v2/custom_objects/boat/fields';
  const post = (field: unknown) => supportCall(hub, 'POST', fieldsPath, { auth: bearer(hub.adminToken), body: { custom_object_field: field } });

  it('take any printable text, and refuse control characters in words', async () => {
    const object = await supportCall(hub, 'POST', '/api/v2/custom_objects', { auth: bearer(hub.adminToken), body: { custom_object: { key: 'boat', title: 'Boat', title_pluralized: 'Boats' } } });
    expect(object.status).toBe(201);
    for (const [index, title] of NAMES.entries()) {
      const made = await post({ key: `named_${index}`, title, type: 'text' });
      expect([made.status, made.body.custom_object_field?.title], JSON.stringify(made.body)).toEqual([201, title]);
    }
    const refused = await post({ key: 'two_lines', title: 'Two\nlines', type: 'text' });
    expect([refused.status, refused.body.details?.['custom_object_field.title'] ?? refused.body.details?.title]).toEqual([422, [{ error: 'InvalidValue', description: 'Title: must not contain line breaks, tabs or other control characters' }]]);
    const renamed = await supportCall(hub, 'PATCH', `${fieldsPath}/named_0`, { auth: bearer(hub.adminToken), body: { custom_object_field: { title: 'Tab\there' } } });
    expect(renamed.status).toBe(422);
  });
});
