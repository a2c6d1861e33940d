import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';
import { MERGE_REFERENCES } from '../../electron/engine/resources/merging.js';

let hub: TestHub;
const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const created = async (path: string, data: unknown, as = agent) => {
  const answer = await as('POST', path, data);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data.id as number;
};
const merge = (type: string, id: number, data: unknown) => agent('POST', `/v2/${type}/${id}/merge`, data);
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id).sort((a: number, b: number) => a - b);

/** Columns named like a reference to a contact or lead; with `resource_id`, those beside a `resource_type`. */
const REFERENCE_NAMES = ['contact_id', 'organization_id', 'individual_id', 'parent_organization_id', 'lead_id'];
/** Tables that name records for the sync's bookkeeping only, and taggings (a merge joins tags through the survivor's update). */
const NOT_MOVED = new Set(['change_log', 'record_revisions', 'sync_device_records', 'field_changes', 'outbox', 'id_map', 'sync_conflicts', 'taggings', 'merged_records']);

/** Every table and its columns, read from the database itself (SQLite's catalogue, or PostgreSQL's). */
function schemaColumns(): Map<string, string[]> {
  const { db } = hub.engine;
  const rows = process.env.OUTPOST_TEST_POSTGRES_URL
    ? (db.prepare("SELECT table_name AS t, column_name AS c FROM information_schema.columns WHERE table_schema = current_schema()").all() as { t: string; c: string }[])
    : (db.prepare("SELECT m.name AS t, p.name AS c FROM sqlite_master m, pragma_table_info(m.name) p WHERE m.type = 'table'").all() as { t: string; c: string }[]);
  const tables = new Map<string, string[]>();
  for (const { t, c } of rows) tables.set(t, [...(tables.get(t) ?? []), c]);
  return tables;
}

/** `table.column` of every column in the schema that can name a contact or a lead. */
function referringColumns(): string[] {
  const found: string[] = [];
  for (const [table, columns] of schemaColumns()) {
    if (NOT_MOVED.has(table)) continue;
    for (const column of columns) {
      if (REFERENCE_NAMES.includes(column) || (column === 'resource_id' && columns.includes('resource_type'))) found.push(`${table}.${column}`);
    }
  }
  return found.sort();
}

/** How many rows of the schema still name the record, per referring column. */
function stillNaming(type: 'contact' | 'lead', id: number): Record<string, number> {
  const counts: Record<string, number> = {};
  const typeValues = type === 'contact' ? "('contact', 'sales_account')" : "('lead')";
  for (const ref of referringColumns()) {
    const [table, column] = ref.split('.');
    const where = column === 'resource_id' ? `resource_id = ? AND resource_type IN ${typeValues}` : `${column} = ?`;
    // lead_id names leads only, the rest contacts only.
    if (column !== 'resource_id' && (column === 'lead_id') !== (type === 'lead')) continue;
    const count = hub.engine.db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${where}`).pluck().get(id) as number;
    if (count > 0) counts[ref] = count;
  }
  return counts;
}

const logOf = (type: string, id: number) =>
  hub.engine.db.prepare('SELECT event_type FROM change_log WHERE resource_type = ? AND resource_id = ? ORDER BY revision').pluck().all(type, id) as string[];

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('what refers to contacts and leads', () => {
  it('every column of the schema that names a contact or lead is moved by a merge (a new one fails here until merging.ts moves it)', () => {
    const moved = [...new Set(MERGE_REFERENCES.map((ref) => `${ref.table}.${ref.column}`))].sort();
    expect(referringColumns()).toEqual(moved);
  });
});

describe('POST /v2/contacts/:id/merge', () => {
  it('keeps the survivor’s values, fills its blanks, takes chosen fields, joins tags, moves every related record and deletes the other', async () => {
    const org = await created('/v2/contacts', { is_organization: true, name: 'Fjord AS' });
    const survivor = await created('/v2/contacts', { first_name: 'Ann', last_name: 'Lee', email: 'ann@fjord.no', tags: ['vip'], address: { city: 'Oslo' }, title: 'CEO' });
    const other = await created('/v2/contacts', {
      first_name: 'Anne', last_name: 'Lee', email: 'anne.lee@example.com', phone: '+47 555 12 345', contact_id: org, title: 'Chief',
      tags: ['partner', 'vip'], address: { city: 'Bergen', line1: 'Bryggen 1' },
    });
    // Everything that can name a contact, on the other record.
    const note = await created('/v2/notes', { resource_type: 'contact', resource_id: other, content: 'Met at the fair' });
    const task = await created('/v2/tasks', { resource_type: 'contact', resource_id: other, content: 'Call back' });
    const call_ = await created('/v2/calls', { resource_type: 'contact', resource_id: other, summary: 'Intro', phone_number: '+47 555 12 345', duration: 60, incoming: false, missed: false });
    const visit = await created('/v2/visits', { resource_type: 'contact', resource_id: other, summary: 'Coffee' });
    const text = hub.engine.textMessages.create({ resource_type: 'contact', resource_id: other, content: 'See you', incoming: true }, { userId: hub.agentId, role: 'user', scopes: new Set() });
    const document = hub.engine.documents.create({ resource_type: 'contact', resource_id: other, name: 'card.txt', content_type: 'text/plain', content: Buffer.from('hi') }, { userId: hub.agentId, role: 'user', scopes: new Set() });
    const deal = await created('/v2/deals', { name: 'Boats', contact_id: other });
    const shared = await created('/v2/deals', { name: 'Nets', contact_id: survivor });
    await created(`/v2/deals/${shared}/associated_contacts`, { contact_id: other, role: 'involved' });
    const bothOnDeal = (await agent('GET', `/v2/deals/${shared}/associated_contacts`)).body.items.map((i: any) => i.data.contact_id);
    expect(bothOnDeal).toContain(other);
    const collaborationMoved = await created('/v2/collaborations', { resource_type: 'contact', resource_id: other, collaborator_id: hub.adminId });
    await created('/v2/collaborations', { resource_type: 'contact', resource_id: survivor, collaborator_id: hub.agentId });
    const collaborationTwin = await created('/v2/collaborations', { resource_type: 'contact', resource_id: other, collaborator_id: hub.agentId });
    const template = await created('/v2/email_templates', { name: 'Hi', subject: 'Hi', body: 'Hello' }, admin);
    const taskStep = { delay_from_previous_step: 1, delay_from_previous_step_unit: 'hours', action_type: 'task', action_properties: { task_content: 'Follow up' } };
    expect(template).toBeGreaterThan(0);
    const both = await created('/v2/sequences', { name: 'Both', steps: [taskStep] }, admin);
    const onlyOther = await created('/v2/sequences', { name: 'Only other', steps: [taskStep] }, admin);
    const kept = await created('/v2/sequence_enrollments', { sequence_id: both, resource_type: 'contact', resource_id: survivor });
    const twinEnrollment = await created('/v2/sequence_enrollments', { sequence_id: both, resource_type: 'contact', resource_id: other });
    const movedEnrollment = await created('/v2/sequence_enrollments', { sequence_id: onlyOther, resource_type: 'contact', resource_id: other });

    const merged = await merge('contacts', survivor, { merge_with_id: other, fields: { email: 'other' } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.meta.type).toBe('contact');
    expect(merged.body.data).toMatchObject({
      id: survivor, first_name: 'Ann', last_name: 'Lee', title: 'CEO', email: 'anne.lee@example.com', phone: '+47 555 12 345', contact_id: org,
      address: { city: 'Oslo', line1: 'Bryggen 1' },
    });
    expect(merged.body.data.tags.sort()).toEqual(['partner', 'vip']);
    expect((await agent('GET', `/v2/contacts/${survivor}`)).body.data).toEqual(merged.body.data);
    expect((await agent('GET', `/v2/contacts/${other}`)).status).toBe(404);

    for (const [path, id] of [['notes', note], ['tasks', task], ['calls', call_], ['visits', visit], ['text_messages', text], ['documents', document]] as const) {
      expect((await agent('GET', `/v2/${path}/${id}`)).body.data.resource_id, path).toBe(survivor);
    }
    expect((await agent('GET', `/v2/deals/${deal}`)).body.data.contact_id).toBe(survivor);
    // Both were on the deal: one association stays, the survivor's.
    const onDeal = (await agent('GET', `/v2/deals/${shared}/associated_contacts`)).body.items.map((i: any) => i.data.contact_id);
    expect(onDeal).toEqual([survivor]);
    expect(ids(await agent('GET', `/v2/collaborations?resource_type=contact&resource_id=${survivor}`))).toHaveLength(2);
    expect((await agent('GET', `/v2/collaborations/${collaborationMoved}`)).body.data.resource_id).toBe(survivor);
    expect((await agent('GET', `/v2/collaborations/${collaborationTwin}`)).status).toBe(404);
    // One enrollment per sequence: the survivor's own stays, the other's in a sequence it lacked moves.
    expect((await agent('GET', `/v2/sequence_enrollments/${twinEnrollment}`)).status).toBe(404);
    expect((await agent('GET', `/v2/sequence_enrollments/${kept}`)).body.data.resource_id).toBe(survivor);
    expect((await agent('GET', `/v2/sequence_enrollments/${movedEnrollment}`)).body.data).toMatchObject({ resource_id: survivor, state: expect.not.stringMatching(/finished/) });
    expect(stillNaming('contact', other)).toEqual({});

    // The change log has every moved record's change and the deletion, so devices converge.
    expect(logOf('contact', other).at(-1)).toBe('deleted');
    for (const [type, id] of [['note', note], ['task', task], ['call', call_], ['visit', visit], ['text_message', text], ['document', document], ['deal', deal], ['collaboration', collaborationMoved], ['sequence_enrollment', movedEnrollment]] as const) {
      expect(logOf(type, id).at(-1), type).toBe('updated');
    }
    expect(logOf('collaboration', collaborationTwin).at(-1)).toBe('deleted');
    expect(logOf('contact', survivor).at(-1)).toBe('updated');
  });

  it('moves an organization’s people, deals and sales account to the surviving organization', async () => {
    const survivor = await created('/v2/contacts', { is_organization: true, name: 'Nordlys' });
    const other = await created('/v2/contacts', { is_organization: true, name: 'Nordlys AS', website: 'nordlys.no', parent_organization_id: survivor });
    const child = await created('/v2/contacts', { is_organization: true, name: 'Nordlys Sør', parent_organization_id: other });
    const person = await created('/v2/contacts', { last_name: 'Berg', contact_id: other });
    const deal = await created('/v2/deals', { name: 'Lights', contact_id: person, organization_id: other });
    const account = await created('/v2/collaborations', { resource_type: 'sales_account', resource_id: other, collaborator_id: hub.adminId });
    const merged = await merge('contacts', survivor, { merge_with_id: other });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    // The other's parent was the survivor: it does not become its own parent.
    expect(merged.body.data).toMatchObject({ name: 'Nordlys', website: 'nordlys.no', parent_organization_id: null });
    expect((await agent('GET', `/v2/contacts/${person}`)).body.data.contact_id).toBe(survivor);
    expect((await agent('GET', `/v2/contacts/${child}`)).body.data.parent_organization_id).toBe(survivor);
    expect((await agent('GET', `/v2/deals/${deal}`)).body.data.organization_id).toBe(survivor);
    expect((await agent('GET', `/v2/collaborations/${account}`)).body.data).toMatchObject({ resource_type: 'sales_account', resource_id: survivor });
    expect(stillNaming('contact', other)).toEqual({});
  });

  it('moves lead conversions that made the other contact', async () => {
    const lead = await created('/v2/leads', { first_name: 'Kari', last_name: 'Nordmann', email: 'kari@example.com' });
    const conversion = await agent('POST', '/v2/lead_conversions', { lead_id: lead });
    expect(conversion.status, JSON.stringify(conversion.body)).toBe(200);
    const convertedContact = conversion.body.data.individual_id as number;
    const survivor = await created('/v2/contacts', { first_name: 'Kari', last_name: 'Nordmann' });
    expect((await merge('contacts', survivor, { merge_with_id: convertedContact })).status).toBe(200);
    expect((await agent('GET', `/v2/lead_conversions?lead_id=${lead}`)).body.items[0].data.individual_id).toBe(survivor);
    expect(stillNaming('contact', convertedContact)).toEqual({});
  });

  it('takes an address part by part: each named part from its side, the others merged as by default', async () => {
    const survivor = await created('/v2/contacts', { last_name: 'Dahl', address: { line1: 'Storgata 1', city: 'Oslo', postal_code: null, state: null, country: 'Norway' } });
    const other = await created('/v2/contacts', { last_name: 'Dahl', address: { line1: 'Bryggen 2', city: 'Bergen', postal_code: '5003', state: 'Vestland', country: 'NO' } });
    const merged = await merge('contacts', survivor, { merge_with_id: other, fields: { address: { city: 'other', state: 'survivor', country: 'other' } } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    // line1: the survivor's (by default); city and country: the other's; state: the survivor's blank, as chosen; postal code: filled from the other.
    expect(merged.body.data.address).toEqual({ line1: 'Storgata 1', city: 'Bergen', postal_code: '5003', state: null, country: 'NO' });
    expect((await agent('GET', `/v2/contacts/${survivor}`)).body.data.address).toEqual(merged.body.data.address);
  });

  it('takes a lead’s address part by part too, also when the survivor has none', async () => {
    const survivor = await created('/v2/leads', { last_name: 'Lund' });
    const other = await created('/v2/leads', { last_name: 'Lund', address: { line1: 'Kaigata 3', city: 'Tromsø' } });
    const merged = await merge('leads', survivor, { merge_with_id: other, fields: { address: { line1: 'survivor' } } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.data.address).toMatchObject({ line1: null, city: 'Tromsø' });
  });

  it('refuses an address choice naming something not a part, a side not a side, and parts for a field that is not an address', async () => {
    const person = await created('/v2/contacts', { last_name: 'Parts', address: { city: 'Oslo' } });
    const other = await created('/v2/contacts', { last_name: 'Parts', address: { city: 'Bergen' } });
    const bad = await merge('contacts', person, { merge_with_id: other, fields: { address: { street: 'other', city: 'theirs' }, email: { line1: 'other' } } });
    expect([bad.status, codes(bad), fields(bad)]).toEqual([422, ['unknown', 'incorrect_value', 'incorrect_value'], ['/fields/address/street', '/fields/address/city', '/fields/email']]);
    expect((await agent('GET', `/v2/contacts/${other}`)).body.data.address.city).toBe('Bergen');
  });

  it('refuses a merge with itself, with the other kind, with nothing, and unknown or badly chosen fields, in the error envelope', async () => {
    const person = await created('/v2/contacts', { last_name: 'Solo' });
    const org = await created('/v2/contacts', { is_organization: true, name: 'Solo Inc' });
    const self = await merge('contacts', person, { merge_with_id: person });
    expect([self.status, codes(self), fields(self)]).toEqual([422, ['incorrect_value'], ['/merge_with_id']]);
    const kinds = await merge('contacts', person, { merge_with_id: org });
    expect([kinds.status, codes(kinds), fields(kinds)]).toEqual([422, ['incorrect_value'], ['/merge_with_id']]);
    expect(codes(await merge('contacts', person, {}))).toEqual(['missing']);
    expect(codes(await merge('contacts', person, { merge_with_id: 'two' }))).toEqual(['invalid_type']);
    const unknown = await merge('contacts', person, { merge_with_id: 99999999 });
    expect([unknown.status, fields(unknown)]).toEqual([422, ['/merge_with_id']]);
    const gone = await merge('contacts', 99999999, { merge_with_id: person });
    expect([gone.status, codes(gone)]).toEqual([404, ['not_found']]);
    const other = await created('/v2/contacts', { last_name: 'Solo' });
    const badFields = await merge('contacts', person, { merge_with_id: other, fields: { colour: 'other', email: 'mine' } });
    expect([badFields.status, codes(badFields), fields(badFields)]).toEqual([422, ['unknown', 'incorrect_value'], ['/fields/colour', '/fields/email']]);
    expect(codes(await merge('contacts', person, { merge_with_id: other, fields: ['email'] }))).toEqual(['invalid_type']);
    // Merging edits one record and deletes the other: a token that may not write may not merge.
    const readOnly = await call(hub, 'POST', `/v2/contacts/${person}/merge`, { token: hub.tokenFor(hub.agentId, ['read']), data: { merge_with_id: other } });
    expect([readOnly.status, codes(readOnly)]).toEqual([403, ['insufficient_scope']]);
    // Nothing was merged by any refusal.
    expect((await agent('GET', `/v2/contacts/${other}`)).status).toBe(200);
  });
});

describe('POST /v2/leads/:id/merge', () => {
  it('merges two leads: blanks filled, tags joined, activities moved, the other deleted', async () => {
    const survivor = await created('/v2/leads', { first_name: 'Ola', last_name: 'Hansen', organization_name: 'Hansen AS', tags: ['hot'] });
    const other = await created('/v2/leads', { first_name: 'Ola', last_name: 'Hansen', email: 'ola@hansen.no', mobile: '+47 900 00 000', tags: ['fair'] });
    const note = await created('/v2/notes', { resource_type: 'lead', resource_id: other, content: 'Wants a quote' });
    const task = await created('/v2/tasks', { resource_type: 'lead', resource_id: other, content: 'Send quote' });
    const collaboration = await created('/v2/collaborations', { resource_type: 'lead', resource_id: other, collaborator_id: hub.adminId });
    const merged = await merge('leads', survivor, { merge_with_id: other, fields: { first_name: 'survivor' } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.data).toMatchObject({ id: survivor, organization_name: 'Hansen AS', email: 'ola@hansen.no', mobile: '+47 900 00 000' });
    expect(merged.body.data.tags.sort()).toEqual(['fair', 'hot']);
    expect((await agent('GET', `/v2/leads/${other}`)).status).toBe(404);
    expect((await agent('GET', `/v2/notes/${note}`)).body.data.resource_id).toBe(survivor);
    expect((await agent('GET', `/v2/tasks/${task}`)).body.data.resource_id).toBe(survivor);
    expect((await agent('GET', `/v2/collaborations/${collaboration}`)).body.data.resource_id).toBe(survivor);
    expect(stillNaming('lead', other)).toEqual({});
    expect(logOf('lead', other).at(-1)).toBe('deleted');
  });

  it('answers a later edit of the merged lead on the survivor, saying so, and a new note naming it lands on the survivor', async () => {
    const survivor = await created('/v2/leads', { last_name: 'Vik' });
    const other = await created('/v2/leads', { last_name: 'Vik', title: 'Owner' });
    expect((await merge('leads', survivor, { merge_with_id: other })).status).toBe(200);
    const late = await call(hub, 'PUT', `/v2/leads/${other}`, { token: hub.agentToken, raw: JSON.stringify({ data: { title: 'Founder' }, meta: { base: { title: 'Owner' } } }) });
    expect(late.status).toBe(200);
    expect(late.body.data).toMatchObject({ id: survivor, title: 'Founder' });
    expect(late.body.meta.merged_into).toBe(survivor);
    const note = await agent('POST', '/v2/notes', { resource_type: 'lead', resource_id: other, content: 'Written offline' });
    expect(note.body.data.resource_id).toBe(survivor);
    const conversion = await agent('POST', '/v2/lead_conversions', { lead_id: other });
    expect([conversion.status, conversion.body.data?.lead_id]).toEqual([200, survivor]);
    // Neither reading nor deleting the merged id reaches the survivor.
    expect((await agent('GET', `/v2/leads/${other}`)).status).toBe(404);
    expect((await agent('DELETE', `/v2/leads/${other}`)).status).toBe(404);
    expect((await agent('GET', `/v2/leads/${survivor}`)).status).toBe(200);
  });

  it('puts a contact named by its merged id on a deal as the survivor', async () => {
    const survivor = await created('/v2/contacts', { last_name: 'Holm' });
    const other = await created('/v2/contacts', { last_name: 'Holm' });
    const owner = await created('/v2/contacts', { last_name: 'Buyer' });
    const deal = await created('/v2/deals', { name: 'Skis', contact_id: owner });
    expect((await merge('contacts', survivor, { merge_with_id: other })).status).toBe(200);
    const associated = await agent('POST', `/v2/deals/${deal}/associated_contacts`, { contact_id: other, role: 'involved' });
    expect([associated.status, associated.body.data?.contact_id]).toEqual([200, survivor]);
    const dealNaming = await agent('POST', '/v2/deals', { name: 'Poles', contact_id: other });
    expect(dealNaming.body.data.contact_id).toBe(survivor);
  });
});
