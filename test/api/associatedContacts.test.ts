import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
let dealId: number;
let primaryId: number;

const path = (deal: number | string = dealId) => `/v2/deals/${deal}/associated_contacts`;
const associate = (data: unknown, deal: number | string = dealId) => call(hub, 'POST', path(deal), { token: hub.agentToken, data });
const list = (query = '', deal: number | string = dealId) => call(hub, 'GET', `${path(deal)}${query}`, { token: hub.agentToken });
const contact = async (lastName: string) => (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: lastName } })).body.data.id;
const newDeal = async () => (await call(hub, 'POST', '/v2/deals', { token: hub.agentToken, data: { name: 'Deal', contact_id: primaryId } })).body.data.id;

beforeAll(async () => {
  hub = await startTestHub();
  primaryId = await contact('Primary');
  dealId = await newDeal();
});
afterAll(() => hub.close());

describe('associated contacts', () => {
  it('associates a contact with a role, as the Python client does', async () => {
    const other = await contact('Involved');
    const answer = await associate({ contact_id: other, role: 'involved' });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      data: { contact_id: other, role: 'involved', created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z' },
      meta: { type: 'associated_contact' },
    });
    const listed = await list('?page=1');
    expect(listed.body.items).toEqual([answer.body]);
  });

  it('defaults the role to involved and keeps any other role name', async () => {
    const deal = await newDeal();
    const a = await contact('A');
    const b = await contact('B');
    expect((await associate({ contact_id: a }, deal)).body.data.role).toBe('involved');
    expect((await associate({ contact_id: b, role: 'Decision maker' }, deal)).body.data.role).toBe('Decision maker');
  });

  it('refuses a missing, unknown or already associated contact, a blank role and unknown fields', async () => {
    const deal = await newDeal();
    const c = await contact('C');
    expect(codes(await associate({}, deal))).toEqual(['missing']);
    expect(codes(await associate({ contact_id: null }, deal))).toEqual(['blank']);
    expect(fields(await associate({ contact_id: 99999 }, deal))).toEqual(['/contact_id']);
    expect(codes(await associate({ contact_id: 99999 }, deal))).toEqual(['incorrect_value']);
    expect(codes(await associate({ contact_id: c, role: ' ' }, deal))).toEqual(['blank']);
    expect(codes(await associate({ contact_id: c, colour: 'red' }, deal))).toEqual(['unknown']);
    expect((await associate({ contact_id: c }, deal)).status).toBe(200);
    expect(codes(await associate({ contact_id: c, role: 'other' }, deal))).toEqual(['already_exists']);
  });

  it('answers 404 for a deal that does not exist', async () => {
    const c = await contact('D');
    expect(codes(await list('', 99999))).toEqual(['not_found']);
    expect(codes(await associate({ contact_id: c }, 99999))).toEqual(['not_found']);
    expect(codes(await associate({ contact_id: c }, 'abc'))).toEqual(['not_found']);
    expect(codes(await call(hub, 'DELETE', `${path(99999)}/${c}`, { token: hub.agentToken }))).toEqual(['not_found']);
  });

  it('removes an association by contact id (204), then 404', async () => {
    const deal = await newDeal();
    const c = await contact('E');
    await associate({ contact_id: c }, deal);
    const removed = await call(hub, 'DELETE', `${path(deal)}/${c}`, { token: hub.agentToken });
    expect(removed.status).toBe(204);
    expect(removed.text).toBe('');
    expect((await list('', deal)).body.items).toEqual([]);
    expect(codes(await call(hub, 'DELETE', `${path(deal)}/${c}`, { token: hub.agentToken }))).toEqual(['not_found']);
    // The contact itself stays.
    expect((await call(hub, 'GET', `/v2/contacts/${c}`, { token: hub.agentToken })).status).toBe(200);
  });

  it('pages in creation order and refuses unknown parameters', async () => {
    const deal = await newDeal();
    const made = [];
    for (const name of ['P1', 'P2', 'P3']) {
      const c = await contact(name);
      made.push(c);
      await associate({ contact_id: c }, deal);
    }
    const first = await list('?per_page=2', deal);
    expect(first.body.items.map((i: any) => i.data.contact_id)).toEqual(made.slice(0, 2));
    expect(first.body.meta.links.next_page).toBeDefined();
    const second = await list('?per_page=2&page=2', deal);
    expect(second.body.items.map((i: any) => i.data.contact_id)).toEqual([made[2]]);
    expect(second.body.meta.links.next_page).toBeUndefined();
    expect(codes(await list('?role=involved', deal))).toEqual(['invalid_param']);
  });

  it('go with their contact when it is deleted, and are synced with an id and their deal', async () => {
    const deal = await newDeal();
    const c = await contact('F');
    await associate({ contact_id: c }, deal);
    const row = hub.engine.db.prepare('SELECT id FROM associated_contacts WHERE deal_id = ? AND contact_id = ?').get(deal, c) as { id: number };
    const { ASSOCIATED_CONTACT_SYNC: source } = await import('../../electron/engine/resources/associatedContacts.js');
    const synced = JSON.parse(hub.engine.db.prepare(`SELECT ${source.json} FROM ${source.from} WHERE ${source.idColumn} = ?`).pluck().get(row.id) as string);
    expect(synced).toEqual({ id: row.id, deal_id: deal, contact_id: c, role: 'involved', created_at: '2026-03-02T10:00:00Z', updated_at: '2026-03-02T10:00:00Z' });

    expect((await call(hub, 'DELETE', `/v2/contacts/${c}`, { token: hub.agentToken })).status).toBe(204);
    expect((await list('', deal)).body.items).toEqual([]);
    const events = hub.engine.db.prepare("SELECT event_type FROM change_log WHERE resource_type = 'associated_contact' AND resource_id = ? ORDER BY revision").pluck().all(row.id);
    expect(events).toEqual(['created', 'deleted']);
  });
});

describe('associations by their own id (the /v2/associated_contacts extension a replica replays)', () => {
  const flat = (method: string, suffix = '', data?: unknown) => call(hub, method, `/v2/associated_contacts${suffix}`, { token: hub.agentToken, data });

  it('creates, lists, retrieves and deletes an association, the same one the nested paths show', async () => {
    const deal = await newDeal();
    const person = await contact('Flat');
    const created = await flat('POST', '', { deal_id: deal, contact_id: person, role: 'champion' });
    expect(created.status).toBe(200);
    expect(created.body.data).toMatchObject({ deal_id: deal, contact_id: person, role: 'champion' });
    const id = created.body.data.id;
    expect(Object.keys(created.body.data).sort()).toEqual(['contact_id', 'created_at', 'deal_id', 'id', 'role', 'updated_at']);
    expect((await list('', deal)).body.items.map((i: any) => i.data.contact_id)).toEqual([person]);
    expect((await flat('GET', `/${id}`)).body.data).toEqual(created.body.data);
    expect((await flat('GET', `?deal_id=${deal}`)).body.items.map((i: any) => i.data.id)).toEqual([id]);
    // Sent back as GET returned it, it is the same association again: a duplicate.
    expect(codes(await flat('POST', '', created.body.data))).toEqual(['already_exists']);
    expect((await flat('DELETE', `/${id}`)).status).toBe(204);
    expect((await list('', deal)).body.items).toEqual([]);
    expect(codes(await flat('GET', `/${id}`))).toEqual(['not_found']);
  });

  it('needs an existing deal and contact', async () => {
    const person = await contact('Nowhere');
    expect(fields(await flat('POST', '', { contact_id: person }))).toEqual(['/deal_id']);
    expect(fields(await flat('POST', '', { deal_id: 999999, contact_id: person }))).toEqual(['/deal_id']);
    expect(fields(await flat('POST', '', { deal_id: dealId, contact_id: 999999 }))).toEqual(['/contact_id']);
    expect(codes(await call(hub, 'PUT', `/v2/associated_contacts/1`, { token: hub.agentToken, data: { role: 'x' } }))).toEqual(['incorrect_path']);
  });
});
