import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

/**
 * The rule a record page's Owner control relies on: whoever may edit a
 * contact, lead or deal (an agent too) may give it to any active user, with
 * a plain PUT; the owner filter then finds it under its new owner.
 */
let hub: TestHub;
let inactiveId: number;
const records: Record<string, number> = {};

beforeAll(async () => {
  hub = await startTestHub();
  const agent = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.agentToken, data });
  records.contacts = (await agent('POST', '/v2/contacts', { last_name: 'Ownerless' })).body.data.id;
  records.leads = (await agent('POST', '/v2/leads', { last_name: 'Handover' })).body.data.id;
  records.deals = (await agent('POST', '/v2/deals', { name: 'Handed deal', contact_id: records.contacts })).body.data.id;
  const leaver = await call(hub, 'POST', '/v2/users', { token: hub.adminToken, data: { name: 'Lee Leaver', email: 'lee@example.com', role: 'user', password: 'lee-secret-1' } });
  inactiveId = leaver.body.data.id;
  await call(hub, 'PUT', `/v2/users/${inactiveId}`, { token: hub.adminToken, data: { status: 'inactive' } });
});
afterAll(() => hub.close());

describe('changing a record\'s owner', () => {
  for (const plural of ['contacts', 'leads', 'deals']) {
    it(`lets an agent give one of the ${plural} to another active user, and the owner filter follows`, async () => {
      const path = `/v2/${plural}/${records[plural]}`;
      const moved = await call(hub, 'PUT', path, { token: hub.agentToken, data: { owner_id: hub.adminId } });
      expect(moved.status).toBe(200);
      expect(moved.body.data.owner_id).toBe(hub.adminId);
      const admins = await call(hub, 'GET', `/v2/${plural}?owner_id=${hub.adminId}&ids=${records[plural]}`, { token: hub.agentToken });
      expect(admins.body.items.map((i: any) => i.data.id)).toEqual([records[plural]]);
      const agents = await call(hub, 'GET', `/v2/${plural}?owner_id=${hub.agentId}&ids=${records[plural]}`, { token: hub.agentToken });
      expect(agents.body.items).toEqual([]);
    });

    it(`refuses a deactivated or unknown owner for ${plural}, in the error envelope`, async () => {
      const path = `/v2/${plural}/${records[plural]}`;
      for (const owner of [inactiveId, 987654]) {
        const refused = await call(hub, 'PUT', path, { token: hub.agentToken, data: { owner_id: owner } });
        expect(refused.status).toBe(422);
        expect(fields(refused)).toEqual(['/owner_id']);
      }
      const blank = await call(hub, 'PUT', path, { token: hub.agentToken, data: { owner_id: 'me' } });
      expect(blank.status).toBe(422);
      expect(codes(blank).length).toBe(1);
    });
  }
});
