import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let contactId: number;
let orgId: number;
let employeeId: number;
let stages: Record<string, number>;

const post = (data: unknown, token = hub.agentToken) => call(hub, 'POST', '/v2/deals', { token, data });
const put = (id: number, data: unknown, token = hub.agentToken) => call(hub, 'PUT', `/v2/deals/${id}`, { token, data });
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const newDeal = async (data: Record<string, unknown> = {}) => (await post({ name: 'Deal', contact_id: contactId, ...data })).body.data;
const newContact = async (data: Record<string, unknown>) => (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data })).body.data.id;
const idOf = (sql: string) => hub.engine.db.prepare(sql).pluck().get() as number;

beforeAll(async () => {
  hub = await startTestHub();
  contactId = await newContact({ last_name: 'Buyer' });
  orgId = await newContact({ is_organization: true, name: 'Acme' });
  employeeId = await newContact({ last_name: 'Employee', contact_id: orgId });
  stages = Object.fromEntries((await get('/v2/stages')).body.items.map((i: any) => [i.data.name, i.data.id]));
});
afterAll(() => hub.close());

describe('creating deals', () => {
  it('fills in the defaults: value 0, the account currency, the first stage, the creator as owner', async () => {
    const answer = await post({ name: 'Website Redesign', contact_id: contactId });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('deal');
    const currency = (await get('/v2/accounts/self')).body.data.currency;
    expect(answer.body.data).toMatchObject({
      name: 'Website Redesign', value: '0', currency, hot: false, stage_id: stages.Incoming, contact_id: contactId,
      organization_id: null, owner_id: hub.agentId, creator_id: hub.agentId, source_id: null, loss_reason_id: null,
      unqualified_reason_id: null, last_stage_change_at: '2026-03-02T10:00:00Z', last_stage_change_by_id: hub.agentId,
      last_activity_at: null, estimated_close_date: null, customized_win_likelihood: null, added_on: '2026-03-02',
      tags: [], custom_fields: {}, created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z',
    });
    expect(answer.body.data.dropbox_email).toMatch(/^dropbox@[0-9a-f]{8}\.deals\.outpost\.invalid$/);
    expect(answer.body.data.dropbox_email).not.toBe((await newDeal()).dropbox_email);
  });

  it('takes the fields real clients send, ignoring the read-only ones', async () => {
    const deal = (await post({
      name: 'Full', contact_id: contactId, value: '1000.25', currency: 'eur', hot: true, stage_id: stages.Quote,
      estimated_close_date: '2026-06-30', customized_win_likelihood: 40, added_on: '2026-01-15', owner_id: hub.adminId,
      dropbox_email: 'dropbox@4e627bcd.deals.futuresimple.com', last_stage_change_at: '2014-01-01T00:00:00Z', id: 1,
    })).body.data;
    expect(deal).toMatchObject({
      value: '1000.25', currency: 'EUR', hot: true, stage_id: stages.Quote, estimated_close_date: '2026-06-30',
      customized_win_likelihood: 40, added_on: '2026-01-15', owner_id: hub.adminId, last_stage_change_at: '2026-03-02T10:00:00Z',
    });
    expect(deal.dropbox_email).not.toBe('dropbox@4e627bcd.deals.futuresimple.com');
  });

  it('requires a name and a primary contact; unknown attributes are 422', async () => {
    expect(fields(await post({}))).toEqual(['/name', '/contact_id']);
    expect(codes(await post({}))).toEqual(['missing', 'missing']);
    expect(codes(await post({ name: '  ', contact_id: contactId }))).toEqual(['blank']);
    expect(codes(await post({ name: 'X', contact_id: null }))).toEqual(['blank']);
    expect(codes(await post({ name: 'X', contact_id: contactId, colour: 'red' }))).toEqual(['unknown']);
    expect(codes(await post({ name: 'X', contact_id: contactId, hot: 'yes' }))).toEqual(['invalid_type']);
  });

  it('checks every reference and value, listing all problems at once', async () => {
    const leadSource = idOf("SELECT id FROM sources WHERE resource_type = 'lead' LIMIT 1");
    const answer = await post({
      name: 'X', contact_id: 99999, stage_id: 99999, owner_id: 99999, organization_id: contactId, source_id: leadSource,
      loss_reason_id: 99999, unqualified_reason_id: 99999, currency: 'EURO', estimated_close_date: '2026-02-30',
      added_on: 'yesterday', customized_win_likelihood: 101,
    });
    expect(answer.status).toBe(422);
    expect(fields(answer).sort()).toEqual([
      '/added_on', '/contact_id', '/currency', '/customized_win_likelihood', '/estimated_close_date', '/loss_reason_id',
      '/organization_id', '/owner_id', '/source_id', '/stage_id', '/unqualified_reason_id',
    ]);
    expect(new Set(codes(answer))).toEqual(new Set(['incorrect_value']));
  });

  it('accepts a deal source, a loss reason and an unqualified reason that exist', async () => {
    const refs = {
      source_id: idOf("SELECT id FROM sources WHERE resource_type = 'deal' LIMIT 1"),
      loss_reason_id: idOf('SELECT id FROM loss_reasons LIMIT 1'),
      unqualified_reason_id: idOf('SELECT id FROM deal_unqualified_reasons LIMIT 1'),
    };
    expect(await newDeal(refs)).toMatchObject(refs);
  });

  it('takes the organization from the primary contact unless given', async () => {
    expect((await newDeal({ contact_id: employeeId })).organization_id).toBe(orgId);
    expect((await newDeal({ contact_id: orgId })).organization_id).toBe(orgId);
    const other = await newContact({ is_organization: true, name: 'Other Org' });
    expect((await newDeal({ contact_id: employeeId, organization_id: other })).organization_id).toBe(other);
    const deal = await newDeal({ contact_id: contactId });
    expect((await put(deal.id, { contact_id: employeeId })).body.data.organization_id).toBe(orgId);
  });
});

describe('deal values are exact decimals', () => {
  it('accept a string, a number or null, answer a string, and never round', async () => {
    expect((await newDeal({ value: '1000.25' })).value).toBe('1000.25');
    expect((await newDeal({ value: 1000 })).value).toBe('1000');
    expect((await newDeal({ value: 11.12 })).value).toBe('11.12');
    expect((await newDeal({ value: null })).value).toBe('0');
    expect((await newDeal({ value: 0 })).value).toBe('0');
    expect((await newDeal({ value: '0.10' })).value).toBe('0.1');
    expect((await newDeal({ value: '007.50' })).value).toBe('7.5');
    const big = await newDeal({ value: '123456789012.34' });
    expect(big.value).toBe('123456789012.34');
    expect((await get(`/v2/deals/${big.id}`)).body.data.value).toBe('123456789012.34');
    expect((await newDeal({ value: '999999999999999.99' })).value).toBe('999999999999999.99');
  });

  it('are kept when an update omits them, and change exactly (11.12 + 99.99 = 111.11)', async () => {
    const deal = await newDeal({ value: '11.12' });
    expect((await put(deal.id, { name: 'Renamed' })).body.data.value).toBe('11.12');
    expect((await put(deal.id, { value: '111.11' })).body.data.value).toBe('111.11');
    expect((await put(deal.id, { value: '0.1' })).body.data.value).toBe('0.1');
    expect((await put(deal.id, { value: '0.2' })).body.data.value).toBe('0.2');
    expect((await put(deal.id, { value: null })).body.data.value).toBe('0');
  });

  it('refuse what is not a decimal, negative, too precise or absurdly large', async () => {
    const refused = async (value: unknown) => codes(await post({ name: 'X', contact_id: contactId, value }));
    expect(await refused('abc')).toEqual(['invalid_type']);
    expect(await refused('1,000.25')).toEqual(['invalid_type']);
    expect(await refused('')).toEqual(['invalid_type']);
    expect(await refused(true)).toEqual(['invalid_type']);
    expect(await refused({ amount: 1 })).toEqual(['invalid_type']);
    expect(await refused('NaN')).toEqual(['invalid_type']);
    expect(await refused('1.234')).toEqual(['incorrect_value']);
    expect(await refused(0.1 + 0.2)).toEqual(['incorrect_value']);
    expect(await refused('-5')).toEqual(['incorrect_value']);
    expect(await refused('1000000000000000')).toEqual(['incorrect_value']);
    expect(await refused(1e21)).toEqual(['incorrect_value']);
    const tiny = await post({ name: 'X', contact_id: contactId, value: 1e-7 });
    expect(tiny.body.errors[0].error.message).toBe('value must have at most 2 decimals.');
    const deal = await newDeal({ value: '5' });
    expect(fields(await put(deal.id, { value: 'lots' }))).toEqual(['/value']);
    expect((await get(`/v2/deals/${deal.id}`)).body.data.value).toBe('5');
  });

  it('sort numerically and filter exactly', async () => {
    const made = [];
    for (const value of ['10.05', '9', '100', '0.5', '10', '10.5']) made.push((await newDeal({ name: 'Sorted', value })).id);
    const sorted = await get('/v2/deals?name=Sorted&sort_by=value');
    expect(sorted.body.items.map((i: any) => i.data.value)).toEqual(['0.5', '9', '10', '10.05', '10.5', '100']);
    const descending = await get('/v2/deals?name=Sorted&sort_by=value:desc');
    expect(descending.body.items.map((i: any) => i.data.value)).toEqual(['100', '10.5', '10.05', '10', '9', '0.5']);
    expect(ids(await get('/v2/deals?name=Sorted&value=10.50'))).toEqual([made[5]]);
    expect(codes(await get('/v2/deals?value=ten'))).toEqual(['invalid_param']);
  });
});

describe('updating deals', () => {
  it('moving a deal to another stage records when and by whom', async () => {
    const deal = await newDeal();
    hub.clock.advance(60_000);
    const moved = (await put(deal.id, { stage_id: stages.Qualified }, hub.adminToken)).body.data;
    expect(moved).toMatchObject({ stage_id: stages.Qualified, last_stage_change_at: '2026-03-02T10:01:00Z', last_stage_change_by_id: hub.adminId });
    hub.clock.advance(60_000);
    const same = (await put(deal.id, { stage_id: stages.Qualified, hot: true })).body.data;
    expect(same).toMatchObject({ last_stage_change_at: '2026-03-02T10:01:00Z', last_stage_change_by_id: hub.adminId, hot: true });
    const won = (await put(deal.id, { stage_id: stages.Won })).body.data;
    expect(won).toMatchObject({ stage_id: stages.Won, last_stage_change_at: '2026-03-02T10:02:00Z', last_stage_change_by_id: hub.agentId });
    expect(fields(await put(deal.id, { stage_id: 99999 }))).toEqual(['/stage_id']);
    expect(codes(await put(deal.id, { stage_id: null }))).toEqual(['blank']);
  });

  it('accepts back everything GET returned (the clients\' round trip)', async () => {
    const deal = await newDeal({ value: '12.5', tags: ['vip'], contact_id: employeeId, estimated_close_date: '2026-05-01' });
    const back = await put(deal.id, (await get(`/v2/deals/${deal.id}`)).body.data);
    expect(back.status).toBe(200);
    expect(back.body.data).toMatchObject({ value: '12.5', tags: ['vip'], organization_id: orgId, estimated_close_date: '2026-05-01' });
  });

  it('clears what may be cleared and refuses blanks where a value is needed', async () => {
    const deal = await newDeal({ estimated_close_date: '2026-05-01', customized_win_likelihood: 20, organization_id: orgId });
    const cleared = (await put(deal.id, { estimated_close_date: null, customized_win_likelihood: null, organization_id: null })).body.data;
    expect(cleared).toMatchObject({ estimated_close_date: null, customized_win_likelihood: null, organization_id: null });
    expect(codes(await put(deal.id, { name: '' }))).toEqual(['blank']);
    expect(codes(await put(deal.id, { contact_id: null }))).toEqual(['blank']);
    expect(codes(await put(deal.id, { currency: null }))).toEqual(['blank']);
    expect(codes(await put(deal.id, { owner_id: null }))).toEqual(['blank']);
    expect(codes(await put(99999, { name: 'X' }))).toEqual(['not_found']);
  });

  it('tags are created as needed and replaced as a whole set', async () => {
    const deal = await newDeal({ tags: ['important', 'q3'] });
    expect(deal.tags).toEqual(['important', 'q3']);
    expect(hub.engine.db.prepare("SELECT COUNT(*) FROM tags WHERE resource_type = 'deal' AND name = 'q3'").pluck().get()).toBe(1);
    expect((await put(deal.id, { tags: ['q4'] })).body.data.tags).toEqual(['q4']);
    expect(ids(await get('/v2/deals?tag=q4'))).toEqual([deal.id]);
    expect((await put(deal.id, { tags: null })).body.data.tags).toEqual([]);
  });

  it('custom fields are checked against the deal definitions, filtered and sorted on', async () => {
    const definition = await call(hub, 'POST', '/v2/deal/custom_fields', { token: hub.adminToken, data: { name: 'Region', type: 'string' } });
    expect(definition.status).toBe(200);
    expect((await get('/v2/deal/custom_fields')).body.items.map((i: any) => i.data.name)).toEqual(['Region']);
    const emea = await newDeal({ custom_fields: { Region: 'EMEA' } });
    const apac = await newDeal({ custom_fields: { Region: 'APAC' } });
    expect(emea.custom_fields).toEqual({ Region: 'EMEA' });
    expect(ids(await get('/v2/deals?custom_fields[Region]=EMEA'))).toEqual([emea.id]);
    const sorted = ids(await get('/v2/deals?sort_by=custom_fields:Region&ids=' + [emea.id, apac.id].join(',')));
    expect(sorted).toEqual([apac.id, emea.id]);
    const unknown = await put(emea.id, { custom_fields: { Budget: 5 } });
    expect(codes(unknown)).toEqual(['unknown']);
    expect(fields(unknown)).toEqual(['/custom_fields/Budget']);
    expect((await put(emea.id, { custom_fields: { Region: null } })).body.data.custom_fields).toEqual({});
  });
});

describe('listing deals', () => {
  let a: any;
  let b: any;
  beforeAll(async () => {
    hub.clock.advance(3_600_000);
    a = await newDeal({ name: 'Alpha', contact_id: employeeId, hot: true, value: '50', estimated_close_date: '2026-04-01', currency: 'EUR', stage_id: stages.Closure, source_id: idOf("SELECT id FROM sources WHERE resource_type = 'deal' LIMIT 1") });
    hub.clock.advance(60_000);
    b = (await post({ name: 'Beta', contact_id: orgId, value: '70', estimated_close_date: '2026-03-15', owner_id: hub.adminId }, hub.adminToken)).body.data;
  });

  it('in id order by default', async () => {
    const all = ids(await get('/v2/deals?per_page=100'));
    expect(all).toEqual([...all].sort((x: number, y: number) => x - y));
  });

  it('with every filter of the real service, each checked', async () => {
    expect(ids(await get(`/v2/deals?ids=${b.id},${a.id}`))).toEqual([a.id, b.id]);
    expect(ids(await get('/v2/deals?name=Alpha'))).toEqual([a.id]);
    expect(ids(await get(`/v2/deals?creator_id=${hub.adminId}`))).toEqual([b.id]);
    expect(ids(await get(`/v2/deals?owner_id=${hub.adminId}&name=Beta`))).toEqual([b.id]);
    expect(ids(await get(`/v2/deals?contact_id=${orgId}&name=Beta`))).toEqual([b.id]);
    expect(ids(await get(`/v2/deals?organization_id=${orgId}&estimated_close_date=2026-04-01`))).toEqual([a.id]);
    expect(ids(await get(`/v2/deals?stage_id=${stages.Closure}`))).toEqual([a.id]);
    expect(ids(await get(`/v2/deals?source_id=${a.source_id}&name=Alpha`))).toEqual([a.id]);
    expect(ids(await get('/v2/deals?hot=true&name=Alpha'))).toEqual([a.id]);
    expect(ids(await get('/v2/deals?hot=false&name=Alpha'))).toEqual([]);
    expect(ids(await get('/v2/deals?currency=EUR&name=Alpha'))).toEqual([a.id]);
    expect(ids(await get('/v2/deals?estimated_close_date=2026-03-15'))).toEqual([b.id]);
    const pipelineId = (await get('/v2/pipelines')).body.items[0].data.id;
    expect(ids(await get(`/v2/deals?pipeline_id=${pipelineId}&name=Alpha`))).toEqual([a.id]);
    expect(ids(await get('/v2/deals?pipeline_id=99999'))).toEqual([]);
    expect(ids(await get('/v2/deals?inclusive=false&name=Alpha&estimated_close_date=2026-03-15'))).toEqual([a.id, b.id]);
  });

  it('refuses unknown filters and malformed values with 400', async () => {
    expect(codes(await get('/v2/deals?color=red'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/deals?estimated_close_date=soon'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/deals?stage_id=abc'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/deals?hot=maybe'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/deals?custom_fields[Nope]=1'))).toEqual(['invalid_param']);
  });

  it('sorts by the real service\'s fields', async () => {
    const pair = `ids=${a.id},${b.id}`;
    expect(ids(await get(`/v2/deals?${pair}&sort_by=name:desc`))).toEqual([b.id, a.id]);
    expect(ids(await get(`/v2/deals?${pair}&sort_by=value:desc`))).toEqual([b.id, a.id]);
    expect(ids(await get(`/v2/deals?${pair}&sort_by=estimated_close_date`))).toEqual([b.id, a.id]);
    expect(ids(await get(`/v2/deals?${pair}&sort_by=created_at:desc`))).toEqual([b.id, a.id]);
    expect(ids(await get(`/v2/deals?${pair}&sort_by=updated_at`))).toEqual([a.id, b.id]);
    expect(ids(await get(`/v2/deals?${pair}&sort_by=last_stage_change_at:desc`))).toEqual([b.id, a.id]);
    expect(ids(await get(`/v2/deals?${pair}&sort_by=id:desc`))).toEqual([b.id, a.id]);
    for (const sort of ['last_activity_at', 'added_on', 'customized_win_likelihood', 'currency', 'hot', 'owner_id', 'stage_id']) {
      expect((await get(`/v2/deals?${pair}&sort_by=${sort}`)).status).toBe(200);
    }
    expect(codes(await get('/v2/deals?sort_by=dropbox_email'))).toEqual(['invalid_param']);
  });
});

describe('activities and deletion', () => {
  it('notes, tasks and calls on a deal set its last_activity_at', async () => {
    const deal = await newDeal();
    hub.clock.advance(60_000);
    const now = hub.clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z');
    expect((await call(hub, 'POST', '/v2/notes', { token: hub.agentToken, data: { resource_type: 'deal', resource_id: deal.id, content: 'Met them' } })).status).toBe(200);
    const after = (await get(`/v2/deals/${deal.id}`)).body.data;
    expect(after.last_activity_at).toBe(now);
    expect(after.updated_at).toBe(deal.updated_at);
    const other = await newDeal();
    await call(hub, 'POST', '/v2/calls', { token: hub.agentToken, data: { phone_number: '1', associated_deal_ids: [other.id], made_at: '2026-03-01T09:00:00Z' } });
    expect((await get(`/v2/deals/${other.id}`)).body.data.last_activity_at).toBe('2026-03-01T09:00:00Z');
  });

  it('tasks, notes and calls can refer to deals that exist, and only to those', async () => {
    const deal = await newDeal();
    const task = await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { resource_type: 'deal', resource_id: deal.id, content: 'Send quote' } });
    expect(task.status).toBe(200);
    expect(fields(await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { resource_type: 'deal', resource_id: 99999, content: 'X' } }))).toEqual(['/resource_id']);
    const logged = await call(hub, 'POST', '/v2/calls', { token: hub.agentToken, data: { phone_number: '1', associated_deal_ids: [deal.id] } });
    expect(logged.body.data.associated_deal_ids).toEqual([deal.id]);
    expect(fields(await call(hub, 'POST', '/v2/calls', { token: hub.agentToken, data: { phone_number: '1', associated_deal_ids: [deal.id, 99999] } }))).toEqual(['/associated_deal_ids']);
  });

  it('deleting a deal takes its tags, associated contacts, tasks and notes with it', async () => {
    const deal = await newDeal({ tags: ['doomed'] });
    await call(hub, 'POST', `/v2/deals/${deal.id}/associated_contacts`, { token: hub.agentToken, data: { contact_id: employeeId, role: 'involved' } });
    const task = (await call(hub, 'POST', '/v2/tasks', { token: hub.agentToken, data: { resource_type: 'deal', resource_id: deal.id, content: 'Call' } })).body.data.id;
    const note = (await call(hub, 'POST', '/v2/notes', { token: hub.agentToken, data: { resource_type: 'deal', resource_id: deal.id, content: 'Hi' } })).body.data.id;
    const kept = (await newDeal()).id;
    const phoned = (await call(hub, 'POST', '/v2/calls', { token: hub.agentToken, data: { phone_number: '1', associated_deal_ids: [kept, deal.id] } })).body.data.id;
    const removed = await call(hub, 'DELETE', `/v2/deals/${deal.id}`, { token: hub.agentToken });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect(codes(await get(`/v2/deals/${deal.id}`))).toEqual(['not_found']);
    expect(codes(await get(`/v2/tasks/${task}`))).toEqual(['not_found']);
    expect(codes(await get(`/v2/notes/${note}`))).toEqual(['not_found']);
    const phonedCall = (await get(`/v2/calls/${phoned}`)).body.data;
    expect(phonedCall.associated_deal_ids).toEqual([kept]);
    expect((await call(hub, 'PUT', `/v2/calls/${phoned}`, { token: hub.agentToken, data: phonedCall })).status).toBe(200);
    const db = hub.engine.db;
    expect(db.prepare("SELECT COUNT(*) FROM taggings WHERE resource_type = 'deal' AND resource_id = ?").pluck().get(deal.id)).toBe(0);
    expect(db.prepare('SELECT COUNT(*) FROM associated_contacts WHERE deal_id = ?').pluck().get(deal.id)).toBe(0);
    expect(db.prepare("SELECT event_type FROM change_log WHERE resource_type = 'deal' AND resource_id = ? ORDER BY revision DESC LIMIT 1").pluck().get(deal.id)).toBe('deleted');
    expect(codes(await call(hub, 'DELETE', `/v2/deals/${deal.id}`, { token: hub.agentToken }))).toEqual(['not_found']);
  });

  it('deleting a contact leaves its deals without it (each logged as updated)', async () => {
    const org = await newContact({ is_organization: true, name: 'Gone Org' });
    const person = await newContact({ last_name: 'Gone', contact_id: org });
    const deal = await newDeal({ contact_id: person });
    expect(deal.organization_id).toBe(org);
    const before = hub.engine.db.prepare("SELECT COUNT(*) FROM change_log WHERE resource_type = 'deal' AND resource_id = ?").pluck().get(deal.id) as number;
    expect((await call(hub, 'DELETE', `/v2/contacts/${person}`, { token: hub.agentToken })).status).toBe(204);
    expect((await get(`/v2/deals/${deal.id}`)).body.data).toMatchObject({ contact_id: null, organization_id: org });
    expect((await call(hub, 'DELETE', `/v2/contacts/${org}`, { token: hub.agentToken })).status).toBe(204);
    expect((await get(`/v2/deals/${deal.id}`)).body.data).toMatchObject({ contact_id: null, organization_id: null });
    const after = hub.engine.db.prepare("SELECT COUNT(*) FROM change_log WHERE resource_type = 'deal' AND resource_id = ?").pluck().get(deal.id) as number;
    expect(after).toBe(before + 2);
    // A client sending back what GET returned (contact_id null) is still fine.
    expect((await put(deal.id, (await get(`/v2/deals/${deal.id}`)).body.data)).status).toBe(200);
  });
});

describe('deals in sync', () => {
  it('devices receive deals, pipelines and stages exactly as GET serves them', async () => {
    const deal = await newDeal({ value: '42.5', tags: ['synced'] });
    const { DEAL_SYNC } = await import('../../electron/engine/resources/deals.js');
    const { PIPELINE_SYNC } = await import('../../electron/engine/resources/pipelines.js');
    const { STAGE_SYNC } = await import('../../electron/engine/resources/stages.js');
    const syncJson = (source: typeof DEAL_SYNC, id: number) =>
      JSON.parse(hub.engine.db.prepare(`SELECT ${source.json} FROM ${source.from} WHERE ${source.idColumn} = ?`).pluck().get(id) as string);
    expect(syncJson(DEAL_SYNC, deal.id)).toEqual((await get(`/v2/deals/${deal.id}`)).body.data);
    expect(syncJson(STAGE_SYNC, stages.Won)).toEqual((await get(`/v2/stages/${stages.Won}`)).body.data);
    const pipeline = (await get('/v2/pipelines')).body.items[0].data;
    expect(syncJson(PIPELINE_SYNC, pipeline.id)).toEqual(pipeline);
  });
});
