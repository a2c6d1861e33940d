import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openEngine } from '../../electron/engine/engine.js';
import { ManualClock } from '../../electron/engine/clock.js';
import { problem } from '../../electron/engine/problems.js';
import { LEAD_CONVERSION_SYNC } from '../../electron/engine/resources/leadConversions.js';
import { call, codes, fields, startTestHub, ADMIN, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const post = (path: string, data: unknown, token = hub.agentToken) => call(hub, 'POST', path, { token, data });
const convert = (data: unknown, token = hub.agentToken) => post('/v2/lead_conversions', data, token);
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const newLead = async (data: Record<string, unknown>) => {
  const answer = await post('/v2/leads', data);
  expect(answer.status).toBe(200);
  return answer.body.data;
};
const contact = async (id: number) => (await get(`/v2/contacts/${id}`)).body.data;

/** Polls until `check` holds (the activities move in the background), for up to about two seconds. */
async function eventually(check: () => Promise<boolean>): Promise<void> {
  for (let attempt = 0; attempt < 40; attempt++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('the condition did not hold within two seconds');
}

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('converting a lead', () => {
  it('turns a lead with both names into an individual of a new organization and a deal', async () => {
    const lead = await newLead({
      first_name: 'Mark', last_name: 'Johnson', organization_name: 'Design Services Co', title: 'CEO', email: 'mark@design.test',
      phone: '508-778-6516', industry: 'Design', website: 'design.test', description: 'Met at the fair', twitter: 'mj',
      address: { line1: '1 Main St', city: 'Hyannis', postal_code: '02601', state: 'MA', country: 'US' }, tags: ['fair'],
    });
    const answer = await convert({ lead_id: lead.id });
    expect(answer.status).toBe(200);
    expect(answer.body.meta.type).toBe('lead_conversion');
    const conversion = answer.body.data;
    expect(conversion).toMatchObject({ lead_id: lead.id, creator_id: hub.agentId, created_at: '2026-03-02T10:00:00Z' });
    expect(Object.keys(conversion).sort()).toEqual(['created_at', 'creator_id', 'deal_id', 'id', 'individual_id', 'lead_id', 'organization_id']);

    const organization = await contact(conversion.organization_id);
    expect(organization).toMatchObject({
      is_organization: true, name: 'Design Services Co', owner_id: hub.agentId, industry: 'Design', website: 'design.test',
      description: 'Met at the fair', address: { line1: '1 Main St', city: 'Hyannis', country: 'US' }, tags: ['fair'], email: null, title: null,
    });
    const individual = await contact(conversion.individual_id);
    expect(individual).toMatchObject({
      is_organization: false, first_name: 'Mark', last_name: 'Johnson', contact_id: conversion.organization_id, owner_id: hub.agentId,
      title: 'CEO', email: 'mark@design.test', phone: '508-778-6516', twitter: 'mj', address: { city: 'Hyannis' }, tags: ['fair'],
      industry: null, website: null,
    });
    const deal = (await get(`/v2/deals/${conversion.deal_id}`)).body.data;
    expect(deal).toMatchObject({
      name: 'Design Services Co – Mark Johnson', contact_id: conversion.organization_id, organization_id: conversion.organization_id,
      owner_id: hub.agentId, creator_id: hub.agentId, value: '0',
    });
    // The person is on the organization's deal: its associated contact, so the deal is theirs to find too.
    const associated = (await get(`/v2/deals/${conversion.deal_id}/associated_contacts`)).body.items.map((i: any) => i.data);
    expect(associated).toEqual([expect.objectContaining({ contact_id: conversion.individual_id, role: 'involved' })]);

    const origin = new URL(hub.url).origin;
    expect(answer.body.meta.links).toEqual({
      individual: `${origin}/v2/contacts/${conversion.individual_id}`,
      organization: `${origin}/v2/contacts/${conversion.organization_id}`,
      deal: `${origin}/v2/deals/${conversion.deal_id}`,
    });
  });

  it('turns a lead with only a last_name into an individual, whose name the deal takes', async () => {
    const lead = await newLead({ first_name: 'Ada', last_name: 'Solo', email: 'ada@solo.test', website: 'solo.test' });
    const { data, meta } = (await convert({ lead_id: lead.id })).body;
    expect(data.organization_id).toBeNull();
    expect(meta.links.organization).toBeNull();
    expect(await contact(data.individual_id)).toMatchObject({ last_name: 'Solo', contact_id: null, email: 'ada@solo.test', website: 'solo.test' });
    expect((await get(`/v2/deals/${data.deal_id}`)).body.data).toMatchObject({ name: 'Ada Solo', contact_id: data.individual_id });
  });

  it('turns a lead with only an organization_name into an organization', async () => {
    const lead = await newLead({ first_name: 'Nameless', organization_name: 'Org Only Ltd', email: 'hello@orgonly.test' });
    const { data, meta } = (await convert({ lead_id: lead.id })).body;
    expect(data.individual_id).toBeNull();
    expect(meta.links.individual).toBeNull();
    expect(await contact(data.organization_id)).toMatchObject({ is_organization: true, name: 'Org Only Ltd', email: 'hello@orgonly.test' });
    // No person was made (a first name alone makes none), so the deal takes the organization's name and has nobody associated.
    expect((await get(`/v2/deals/${data.deal_id}`)).body.data).toMatchObject({ name: 'Org Only Ltd', contact_id: data.organization_id });
    expect((await get(`/v2/deals/${data.deal_id}/associated_contacts`)).body.items).toEqual([]);
  });

  it("finds the deal made from the lead among the person's deals (contact_id or associated_contact_id, ORed)", async () => {
    const lead = await newLead({ first_name: 'Jane', last_name: 'Doe', organization_name: 'Bernhard LLC' });
    const { data } = (await convert({ lead_id: lead.id })).body;
    const personsDeals = await get(`/v2/deals?contact_id=${data.individual_id}&associated_contact_id=${data.individual_id}&inclusive=false`);
    expect(personsDeals.status).toBe(200);
    expect(personsDeals.body.items.map((i: any) => i.data)).toEqual([expect.objectContaining({ id: data.deal_id, name: 'Bernhard LLC – Jane Doe' })]);
    // As a filter of its own it narrows: only deals the contact is associated with.
    expect(ids(await get(`/v2/deals?associated_contact_id=${data.individual_id}`))).toEqual([data.deal_id]);
    expect(ids(await get(`/v2/deals?associated_contact_id=${data.organization_id}`))).toEqual([]);
    const bad = await get('/v2/deals?associated_contact_id=abc');
    expect(bad.status).toBe(400);
    expect(codes(bad)).toEqual(['invalid_param']);
  });

  it('creates no deal when create_deal is false', async () => {
    const lead = await newLead({ last_name: 'NoDeal' });
    const deals = async () => (await get('/v2/deals?per_page=100')).body.items.length;
    const before = await deals();
    const answer = await convert({ lead_id: lead.id, create_deal: false });
    expect(answer.body.data.deal_id).toBeNull();
    expect(answer.body.meta.links.deal).toBeNull();
    expect(await deals()).toBe(before);
  });

  it("gives every created record the lead's owner, unless owner_id says otherwise", async () => {
    const ownedByAdmin = await newLead({ last_name: 'Owned', organization_name: 'Owned Inc', owner_id: hub.adminId });
    const byDefault = (await convert({ lead_id: ownedByAdmin.id })).body.data;
    expect((await contact(byDefault.individual_id)).owner_id).toBe(hub.adminId);
    expect((await contact(byDefault.organization_id)).owner_id).toBe(hub.adminId);
    expect((await get(`/v2/deals/${byDefault.deal_id}`)).body.data.owner_id).toBe(hub.adminId);
    expect(byDefault.creator_id).toBe(hub.agentId);

    const other = await newLead({ last_name: 'Reassigned', owner_id: hub.adminId });
    const reassigned = (await convert({ lead_id: other.id, owner_id: hub.agentId })).body.data;
    expect((await contact(reassigned.individual_id)).owner_id).toBe(hub.agentId);
    expect((await get(`/v2/deals/${reassigned.deal_id}`)).body.data.owner_id).toBe(hub.agentId);
  });

  it('keeps the lead, marked Converted, and refuses to convert it again', async () => {
    const lead = await newLead({ last_name: 'Twice' });
    const first = await convert({ lead_id: lead.id, create_deal: false });
    expect(first.status).toBe(200);
    const kept = (await get(`/v2/leads/${lead.id}`)).body.data;
    expect(kept.status).toBe('Converted');
    const again = await convert({ lead_id: lead.id });
    expect(again.status).toBe(422);
    expect(codes(again)).toEqual(['already_exists']);
    expect(fields(again)).toEqual(['/lead_id']);
    expect(ids(await get(`/v2/lead_conversions?lead_id=${lead.id}`))).toEqual([first.body.data.id]);
  });

  it('refuses a missing or unknown lead, a bad owner and unknown attributes', async () => {
    expect(codes(await convert({}))).toEqual(['missing']);
    const missing = await convert({ lead_id: 999999 });
    expect(missing.status).toBe(422);
    expect(codes(missing)).toEqual(['incorrect_value']);
    expect(fields(missing)).toEqual(['/lead_id']);
    const lead = await newLead({ last_name: 'BadOwner' });
    expect(fields(await convert({ lead_id: lead.id, owner_id: 999999 }))).toEqual(['/owner_id']);
    expect(codes(await convert({ lead_id: lead.id, create_deal: 'yes' }))).toEqual(['invalid_type']);
    expect(codes(await convert({ lead_id: lead.id, colour: 'red' }))).toEqual(['unknown']);
    expect((await get(`/v2/leads/${lead.id}`)).body.data.status).toBe('New');
  });

  it('creates everything in one transaction: a failing deal leaves no contacts and no conversion', async () => {
    const lead = await newLead({ last_name: 'Atomic', organization_name: 'Atomic Ltd' });
    const contactsBefore = hub.engine.db.prepare('SELECT COUNT(*) FROM contacts').pluck().get();
    const original = hub.engine.deals.create;
    hub.engine.deals.create = () => {
      throw problem('incorrect_value', 'No deals today.', '/name', 'deal');
    };
    try {
      expect((await convert({ lead_id: lead.id })).status).toBe(422);
    } finally {
      hub.engine.deals.create = original;
    }
    expect(hub.engine.db.prepare('SELECT COUNT(*) FROM contacts').pluck().get()).toBe(contactsBefore);
    expect(ids(await get(`/v2/lead_conversions?lead_id=${lead.id}`))).toEqual([]);
    expect((await get(`/v2/leads/${lead.id}`)).body.data.status).toBe('New');
    expect((await convert({ lead_id: lead.id })).status).toBe(200);
  });

  it("gives the deal the name, value and currency the rep chose, with the person among the deal's contacts", async () => {
    const lead = await newLead({ first_name: 'Rosa', last_name: 'Chosen', organization_name: 'Chosen Works' });
    const answer = await convert({ lead_id: lead.id, deal_name: '  Chosen Works – fit-out  ', deal_value: '12500.50', deal_currency: 'eur' });
    expect(answer.status).toBe(200);
    const { deal_id: dealId, individual_id: personId } = answer.body.data;
    expect((await get(`/v2/deals/${dealId}`)).body.data).toMatchObject({ name: 'Chosen Works – fit-out', value: '12500.5', currency: 'EUR' });
    const associated = (await get(`/v2/deals/${dealId}/associated_contacts`)).body.items.map((i: any) => i.data.contact_id);
    expect(associated).toEqual([personId]);
  });

  it("takes the account's currency when only the deal's value is given", async () => {
    const lead = await newLead({ last_name: 'ValueOnly' });
    const account = (await get('/v2/accounts/self')).body.data;
    const { deal_id: dealId } = (await convert({ lead_id: lead.id, deal_value: 900 })).body.data;
    expect((await get(`/v2/deals/${dealId}`)).body.data).toMatchObject({ name: 'ValueOnly', value: '900', currency: account.currency });
  });

  it("refuses a bad deal name, value or currency, or any of them without a deal, and converts nothing", async () => {
    const lead = await newLead({ last_name: 'BadDeal', organization_name: 'Bad Deal Ltd' });
    const contactsBefore = hub.engine.db.prepare('SELECT COUNT(*) FROM contacts').pluck().get();
    const refused = async (data: Record<string, unknown>, field: string, code: string) => {
      const answer = await convert({ lead_id: lead.id, ...data });
      expect(answer.status).toBe(422);
      expect(codes(answer)).toEqual([code]);
      expect(fields(answer)).toEqual([`/${field}`]);
    };
    await refused({ deal_value: '-5' }, 'deal_value', 'incorrect_value');
    await refused({ deal_value: '10.005' }, 'deal_value', 'incorrect_value');
    await refused({ deal_value: 'lots' }, 'deal_value', 'invalid_type');
    await refused({ deal_currency: 'XYZ' }, 'deal_currency', 'incorrect_value');
    await refused({ deal_currency: 12 }, 'deal_currency', 'invalid_type');
    await refused({ deal_name: 'x'.repeat(256) }, 'deal_name', 'incorrect_value');
    await refused({ deal_name: '   ' }, 'deal_name', 'blank');
    await refused({ create_deal: false, deal_value: '100' }, 'deal_value', 'incorrect_value');
    expect(hub.engine.db.prepare('SELECT COUNT(*) FROM contacts').pluck().get()).toBe(contactsBefore);
    expect((await get(`/v2/leads/${lead.id}`)).body.data.status).toBe('New');
  });

  it('lets admins convert too', async () => {
    const lead = await newLead({ last_name: 'ByAdmin' });
    const answer = await convert({ lead_id: lead.id }, hub.adminToken);
    expect(answer.status).toBe(200);
    expect(answer.body.data.creator_id).toBe(hub.adminId);
  });
});

describe("moving the lead's activities", () => {
  it('moves tasks, notes, calls, visits and documents to the individual in the background; calls get the deal', async () => {
    const lead = await newLead({ last_name: 'Busy', organization_name: 'Busy Corp' });
    const on = { resource_type: 'lead', resource_id: lead.id };
    const task = (await post('/v2/tasks', { content: 'Call Busy', ...on })).body.data;
    const note = (await post('/v2/notes', { content: 'Busy likes tea', ...on })).body.data;
    const phoneCall = (await post('/v2/calls', { phone_number: '555-0101', ...on })).body.data;
    const visit = (await post('/v2/visits', { ...on })).body.data;
    const document = (await call(hub, 'POST', `/v2/documents?resource_type=lead&resource_id=${lead.id}&name=brief.txt`, { token: hub.agentToken, raw: 'hello', contentType: 'text/plain' })).body.data;
    const revisionBefore = hub.engine.ctx.changes.currentRevision();

    const conversion = (await convert({ lead_id: lead.id })).body.data;
    const individual = conversion.individual_id;
    await eventually(async () => ids(await get(`/v2/tasks?resource_type=contact&resource_id=${individual}`)).includes(task.id));
    expect((await get(`/v2/tasks/${task.id}`)).body.data).toMatchObject({ resource_type: 'contact', resource_id: individual });
    expect((await get(`/v2/notes/${note.id}`)).body.data).toMatchObject({ resource_type: 'contact', resource_id: individual });
    expect((await get(`/v2/calls/${phoneCall.id}`)).body.data).toMatchObject({ resource_type: 'contact', resource_id: individual, associated_deal_ids: [conversion.deal_id] });
    expect((await get(`/v2/visits/${visit.id}`)).body.data).toMatchObject({ resource_type: 'contact', resource_id: individual });
    expect((await get(`/v2/documents/${document.id}`)).body.data).toMatchObject({ resource_type: 'contact', resource_id: individual });
    expect(ids(await get(`/v2/tasks?resource_type=lead&resource_id=${lead.id}`))).toEqual([]);

    const logged = hub.engine.db.prepare("SELECT resource_type, resource_id FROM change_log WHERE revision > ? AND event_type = 'updated' AND resource_type IN ('task', 'note', 'call', 'visit', 'document')")
      .all(revisionBefore) as { resource_type: string; resource_id: number }[];
    expect(logged.map((r) => `${r.resource_type}:${r.resource_id}`).sort()).toEqual(
      [`call:${phoneCall.id}`, `document:${document.id}`, `note:${note.id}`, `task:${task.id}`, `visit:${visit.id}`].sort());
  });

  it('moves them to the organization when no individual was created', async () => {
    const lead = await newLead({ organization_name: 'Tasks Only Org' });
    const task = (await post('/v2/tasks', { content: 'Visit the org', resource_type: 'lead', resource_id: lead.id })).body.data;
    const conversion = (await convert({ lead_id: lead.id, create_deal: false })).body.data;
    await eventually(async () => (await get(`/v2/tasks/${task.id}`)).body.data.resource_id === conversion.organization_id);
    expect((await get(`/v2/tasks/${task.id}`)).body.data.resource_type).toBe('contact');
  });

  it('finishes a move interrupted by closing the engine when it opens again, and never after close', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-conversion-'));
    try {
      const clock = new ManualClock('2026-03-02T10:00:00Z');
      let engine = openEngine({ dataDir, clock });
      const userId = await engine.users.create({ ...ADMIN, role: 'admin' });
      const actor = { userId, role: 'admin' as const, scopes: new Set(['read', 'write', 'profile'] as const) };
      const leadId = engine.leads.create({ last_name: 'Interrupted' }, actor);
      const taskId = engine.tasks.create({ content: 'Follow up', resource_type: 'lead', resource_id: leadId }, actor);
      const conversionId = engine.leadConversions.create({ lead_id: leadId, create_deal: false }, actor);
      // Nothing may run against the closed database (it would fail and log).
      const logged = vi.spyOn(console, 'error');
      engine.close();
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(logged).not.toHaveBeenCalled();
      logged.mockRestore();

      engine = openEngine({ dataDir, clock });
      const pending = () => engine.db.prepare('SELECT activities_pending FROM lead_conversions WHERE id = ?').pluck().get(conversionId);
      expect(pending()).toBe(1);
      expect(JSON.parse(engine.tasks.json(taskId))).toMatchObject({ resource_type: 'lead', resource_id: leadId });
      const individual = JSON.parse(engine.leadConversions.json(conversionId)).individual_id;
      await eventually(async () => pending() === 0);
      expect(JSON.parse(engine.tasks.json(taskId))).toMatchObject({ resource_type: 'contact', resource_id: individual });
      engine.close();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('listing conversions', () => {
  const made: any[] = [];

  beforeAll(async () => {
    for (const name of ['List-A', 'List-B', 'List-C', 'List-D', 'List-E']) {
      const lead = await newLead({ last_name: name, organization_name: `${name} Org` });
      made.push((await convert({ lead_id: lead.id, create_deal: name === 'List-A' }, name === 'List-E' ? hub.adminToken : hub.agentToken)).body.data);
    }
  });

  it('lists newest first, each with the links of what it created', async () => {
    const all = await get('/v2/lead_conversions?per_page=200');
    expect(all.status).toBe(200);
    const listed: number[] = ids(all);
    expect(listed).toEqual([...listed].sort((a, b) => b - a));
    expect(listed.slice(0, 5)).toEqual(made.map((c) => c.id).reverse());
    const origin = new URL(hub.url).origin;
    const first = all.body.items.find((i: any) => i.data.id === made[0].id);
    expect(first.meta).toEqual({
      type: 'lead_conversion',
      links: { individual: `${origin}/v2/contacts/${made[0].individual_id}`, organization: `${origin}/v2/contacts/${made[0].organization_id}`, deal: `${origin}/v2/deals/${made[0].deal_id}` },
    });
    expect(all.body.items.find((i: any) => i.data.id === made[1].id).meta.links.deal).toBeNull();
    expect(all.body.meta).toMatchObject({ type: 'collection', count: listed.length });
    expect(all.body.meta.links.next_page).toBeUndefined();
  });

  it('filters by lead, individual, organization, deal and creator', async () => {
    expect(ids(await get(`/v2/lead_conversions?lead_id=${made[2].lead_id}`))).toEqual([made[2].id]);
    expect(ids(await get(`/v2/lead_conversions?individual_id=${made[3].individual_id}`))).toEqual([made[3].id]);
    expect(ids(await get(`/v2/lead_conversions?organization_id=${made[1].organization_id}`))).toEqual([made[1].id]);
    expect(ids(await get(`/v2/lead_conversions?deal_id=${made[0].deal_id}`))).toEqual([made[0].id]);
    const byAdmin: number[] = ids(await get(`/v2/lead_conversions?creator_id=${hub.adminId}&per_page=200`));
    expect(byAdmin).toContain(made[4].id);
    expect(byAdmin).not.toContain(made[3].id);
    expect(codes(await get('/v2/lead_conversions?colour=red'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/lead_conversions?lead_id=abc'))).toEqual(['invalid_param']);
  });

  it('pages 25 by default, at most 200 per page and up to page 50', async () => {
    // Enough conversions for more than one default page (made through the engine: quicker than HTTP).
    const actor = { userId: hub.agentId, role: 'user' as const, scopes: new Set(['read', 'write'] as const) };
    for (let n = ids(await get('/v2/lead_conversions?per_page=200')).length; n < 27; n++) {
      const leadId = hub.engine.leads.create({ last_name: `Bulk ${n}` }, actor);
      hub.engine.leadConversions.create({ lead_id: leadId, create_deal: false }, actor);
    }
    const total: number[] = ids(await get('/v2/lead_conversions?per_page=200'));
    expect(total.length).toBeGreaterThanOrEqual(27);
    const first = await get('/v2/lead_conversions');
    expect(ids(first)).toEqual(total.slice(0, 25));
    expect(first.body.meta.links.next_page).toContain('cursor=');
    expect(codes(await get('/v2/lead_conversions?per_page=201'))).toEqual(['invalid_param']);
    expect((await get('/v2/lead_conversions?page=2')).body.items).toHaveLength(total.length - 25);
    expect((await get('/v2/lead_conversions?page=50')).status).toBe(200);
    expect(codes(await get('/v2/lead_conversions?page=51'))).toEqual(['invalid_param']);
  });

  it('follows next_page cursors, present exactly while more conversions exist', async () => {
    const total: number[] = ids(await get('/v2/lead_conversions?per_page=200'));
    const seen: number[] = [];
    let path: string | undefined = '/v2/lead_conversions?per_page=2';
    let pages = 0;
    while (path) {
      const page = await get(path);
      expect(page.status).toBe(200);
      seen.push(...ids(page));
      pages++;
      const next: string | undefined = page.body.meta.links.next_page;
      expect(next !== undefined).toBe(seen.length < total.length);
      if (next) {
        const url = new URL(next);
        expect(url.searchParams.get('cursor')).toBeTruthy();
        expect(url.searchParams.get('page')).toBeNull();
        path = `${url.pathname}${url.search}`;
      } else {
        path = undefined;
      }
    }
    expect(seen).toEqual(total);
    expect(pages).toBe(Math.ceil(total.length / 2));
    // A page holding exactly the last records has no next_page.
    const exact = await get(`/v2/lead_conversions?per_page=${total.length}`);
    expect(exact.body.meta.links.next_page).toBeUndefined();
  });

  it('refuses a cursor it did not issue, and a page together with a cursor', async () => {
    expect(codes(await get('/v2/lead_conversions?cursor=bogus'))).toEqual(['invalid_param']);
    // A page ending at made[4]: its cursor asks for the conversions older than made[4].
    const position = ids(await get('/v2/lead_conversions?per_page=200')).indexOf(made[4].id);
    const next = new URL((await get(`/v2/lead_conversions?per_page=${position + 1}`)).body.meta.links.next_page);
    const cursor = next.searchParams.get('cursor');
    expect(codes(await get(`/v2/lead_conversions?cursor=${cursor}&page=2`))).toEqual(['invalid_param']);
    expect(ids(await get(`/v2/lead_conversions?cursor=${cursor}&lead_id=${made[4].lead_id}`))).toEqual([]);
    expect(ids(await get(`/v2/lead_conversions?cursor=${cursor}&lead_id=${made[3].lead_id}`))).toEqual([made[3].id]);
  });

  it('serves devices the same data as the list, logging each conversion as created', async () => {
    const { json, from, idColumn } = LEAD_CONVERSION_SYNC;
    const synced = hub.engine.db.prepare(`SELECT ${json} FROM ${from} WHERE ${idColumn} = ?`).pluck().get(made[0].id) as string;
    expect(JSON.parse(synced)).toEqual(made[0]);
    const events = hub.engine.db.prepare("SELECT event_type FROM change_log WHERE resource_type = 'lead_conversion' AND resource_id = ?").pluck().all(made[0].id);
    expect(events).toEqual(['created']);
  });
});
