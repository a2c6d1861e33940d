import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const get = (token = hub.agentToken) => call(hub, 'GET', '/v2/accounts/self', { token });
const put = (data: unknown, token = hub.adminToken) => call(hub, 'PUT', '/v2/accounts/self', { token, data });

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('account settings', () => {
  it('starts on the top plan with every add-on and commerce changes allowed', async () => {
    expect((await get()).body.data).toMatchObject({ plan: 'elite', addons: ['outbound_sequences'], commerce_changes: 'enabled' });
  });

  it('lets an admin change the plan, add-ons and the commerce switch; agents get 403', async () => {
    expect(codes(await put({ plan: 'growth' }, hub.agentToken))).toEqual(['forbidden']);
    hub.clock.advance(1000);
    const changed = await put({ plan: 'growth', addons: [], commerce_changes: 'disabled', currency: 'EUR', name: 'Field Team' });
    expect(changed.status).toBe(200);
    expect(changed.body.data).toMatchObject({ plan: 'growth', addons: [], commerce_changes: 'disabled', currency: 'EUR', name: 'Field Team', updated_at: '2026-03-02T10:00:01Z' });
    expect((await get()).body.data).toEqual(changed.body.data);
    // What GET returned can be sent back.
    expect((await put(changed.body.data)).status).toBe(200);
    expect((await put({ plan: 'elite', addons: ['outbound_sequences'], commerce_changes: 'enabled' })).body.data.plan).toBe('elite');
  });

  it('refuses unknown settings and values with the valid ones named', async () => {
    const bad = await put({ plan: 'platinum', addons: ['teleportation'], commerce_changes: 'maybe', currency: 'euro', colour: 'red' });
    expect(bad.status).toBe(422);
    expect(fields(bad).sort()).toEqual(['/addons/0', '/colour', '/commerce_changes', '/currency', '/plan']);
    const plan = bad.body.errors.find((e: any) => e.error.field === '/plan').error.message;
    expect(plan).toContain('starter, team, growth, professional, enterprise, elite');
    expect((await get()).body.data.plan).toBe('elite');
  });

  it('tells devices of a change', async () => {
    const before = hub.engine.ctx.changes.currentRevision();
    await put({ time_format: '12H' });
    const logged = hub.engine.db.prepare("SELECT event_type FROM change_log WHERE revision > ? AND resource_type = 'account'").pluck().all(before);
    expect(logged).toEqual(['updated']);
  });
});
