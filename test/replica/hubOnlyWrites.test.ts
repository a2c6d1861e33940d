import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';
import { startCabledReplica, type TestReplica } from '../support/testReplica.js';

/**
 * A write only the hub makes (converting a lead, managing custom fields), on a
 * replica that sends it to the hub, as the browser's engine on the hub's own
 * page does: a real hub, a real replica engine on its own SQLite file, real
 * HTTP on 127.0.0.1; the one stand-in is the replica's network cable.
 */
let hub: TestHub;
let rep: TestReplica & { net: { online: boolean } };

beforeAll(async () => {
  hub = await startTestHub();
  rep = await startCabledReplica(hub, hub.adminId, { hubOnlyWrites: 'send' });
});
afterAll(async () => {
  await rep?.close();
  await hub?.close();
});

const local = (method: string, path: string, data?: unknown, headers?: Record<string, string>) => call(rep.local, method, path, { token: rep.token, data, headers });
const onHub = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });

describe('a write only the hub makes, on the hub\'s own page keeping the rep\'s data', () => {
  it('goes to the hub, answers as the hub did, and what the hub made is here at once', async () => {
    const lead = await onHub('POST', '/v2/leads', { first_name: 'Noor', last_name: 'Haddad', organization_name: 'Haddad Freight' });
    await rep.replica.sync();
    const converted = await local('POST', '/v2/lead_conversions', { lead_id: lead.body.data.id }, { 'Idempotency-Key': 'convert-noor' });
    expect(converted.status).toBe(200);
    const { individual_id: individual, deal_id: deal } = converted.body.data;
    // The hub made it…
    expect((await onHub('GET', `/v2/contacts/${individual}`)).body.data).toMatchObject({ last_name: 'Haddad' });
    // …and the replica holds it already, for the screen that follows.
    expect((await local('GET', `/v2/contacts/${individual}`)).status).toBe(200);
    expect((await local('GET', `/v2/deals/${deal}`)).status).toBe(200);
    // Asked again with the same key (an answer lost on the way): the hub does it once.
    const again = await local('POST', '/v2/lead_conversions', { lead_id: lead.body.data.id }, { 'Idempotency-Key': 'convert-noor' });
    expect(again.body.data.id).toBe(converted.body.data.id);
    expect((await onHub('GET', `/v2/lead_conversions?lead_id=${lead.body.data.id}`)).body.items).toHaveLength(1);
  });

  it('sends a file as it came: a document uploaded from the page is on the hub, its record here', async () => {
    const contact = await onHub('POST', '/v2/contacts', { last_name: 'Filed' });
    await rep.replica.sync();
    const uploaded = await call(rep.local, 'POST', `/v2/documents?resource_type=contact&resource_id=${contact.body.data.id}&name=brief.txt`, { token: rep.token, raw: 'héllo, hub', contentType: 'text/plain' });
    expect(uploaded.status).toBe(200);
    const id = uploaded.body.data.id;
    const link = new URL((await onHub('GET', `/v2/documents/${id}`)).body.data.download_url);
    expect(await (await fetch(`${hub.url}${link.pathname}${link.search}`)).text()).toBe('héllo, hub');
    expect((await local('GET', `/v2/documents/${id}`)).body.data.name).toBe('brief.txt');
  });

  it('reads what a replica does not copy (OAuth applications) from the hub', async () => {
    const made = await local('POST', '/v2/oauth_clients', { name: 'Route planner', redirect_uri: 'https://planner.example.com/callback' });
    expect(made.status).toBe(200);
    const listed = await local('GET', '/v2/oauth_clients');
    expect(listed.body.items.map((item: any) => item.data.name)).toContain('Route planner');
    expect((await local('GET', `/v2/oauth_clients/${made.body.data.client_id}`)).body.data.name).toBe('Route planner');
    rep.net.online = false;
    try {
      expect(codes(await local('GET', '/v2/oauth_clients'))).toEqual(['temporarily_unavailable']);
    } finally {
      rep.net.online = true;
    }
  });

  it('passes the hub\'s refusal on as it is', async () => {
    const refused = await local('POST', '/v2/lead_conversions', { lead_id: 987654 });
    expect(refused.status).toBe(422);
    expect(codes(refused).length).toBeGreaterThan(0);
  });

  it('offline, is refused saying it is made on the hub, in the envelope with Retry-After, and nothing is kept here', async () => {
    rep.net.online = false;
    try {
      const refused = await local('POST', '/v2/contact/custom_fields', { name: 'Segment', type: 'string' });
      expect(refused.status).toBe(503);
      expect(codes(refused)).toEqual(['temporarily_unavailable']);
      expect(refused.body.errors[0].error.message).toMatch(/made on the hub, which cannot be reached now/);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect((await local('GET', '/v2/contact/custom_fields')).body.items.map((item: any) => item.data.name)).not.toContain('Segment');
    } finally {
      rep.net.online = true;
    }
  });

  it('is refused when it names a record made here that the hub has not had yet', async () => {
    rep.net.online = false;
    const lead = await local('POST', '/v2/leads', { last_name: 'Offline lead' });
    expect(lead.body.data.id).toBeLessThan(0);
    rep.net.online = true;
    const refused = await local('POST', '/v2/lead_conversions', { lead_id: lead.body.data.id });
    expect(refused.status).toBe(409);
    expect(refused.body.errors[0].error.message).toMatch(/has not reached the hub yet/);
    // Named in the query too (a file for it).
    const file = await call(rep.local, 'POST', `/v2/documents?resource_type=lead&resource_id=${lead.body.data.id}&name=a.txt`, { token: rep.token, raw: 'x', contentType: 'text/plain' });
    expect([file.status, codes(file)]).toEqual([409, ['conflict']]);
    // Once synced, the lead has the hub's id, and converting it goes to the hub.
    await rep.replica.sync();
    const hubId = (await local('GET', `/v2/replica/ids/lead/${lead.body.data.id}`)).body.data.hub_id;
    expect((await local('POST', '/v2/lead_conversions', { lead_id: hubId })).status).toBe(200);
  });
});
