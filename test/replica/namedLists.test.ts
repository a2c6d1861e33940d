import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startTestReplica, type TestReplica } from '../support/testReplica.js';

/**
 * A replica's named lists accept what the hub's do: names that repeat (deal
 * sources, reasons) and a unique name handed from one record to another (the
 * queue serves each record once, at its latest revision, so the one taking the
 * name may arrive before the one giving it up): lead sources, pipelines, a
 * pipeline's stages, email templates and sequences.
 */

let hub: TestHub;
let copy: TestReplica;
const onHub = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const onCopy = (method: string, path: string, data?: unknown) => call(copy.local, method, path, { token: copy.token, data });
const synced = async () => expect(await copy.replica.sync()).toMatchObject({ state: 'up_to_date', pending: 0, issues: 0, last_error: null });

beforeAll(async () => {
  hub = await startTestHub();
  copy = await startTestReplica(hub, hub.agentId);
});
afterAll(async () => {
  await copy.close();
  await hub.close();
});

describe('named lists on a replica', () => {
  it('take deal sources and reasons sharing a name, from the hub and written locally', async () => {
    for (const path of ['/v2/deal_sources', '/v2/deal_sources', '/v2/loss_reasons', '/v2/loss_reasons']) expect((await onHub('POST', path, { name: 'Expo' })).status).toBe(200);
    await synced();
    expect((await onCopy('POST', '/v2/deal_sources', { name: 'Expo' })).status).toBe(200);
    await synced();
    for (const path of ['/v2/deal_sources?name=Expo', '/v2/loss_reasons?name=Expo']) {
      expect((await onCopy('GET', path)).body.items, path).toEqual((await onHub('GET', path)).body.items);
    }
    expect((await onHub('GET', '/v2/deal_sources?name=Expo')).body.items).toHaveLength(3);
  });

  it('follow a lead source name handed from one source to another', async () => {
    const giver = (await onHub('POST', '/v2/lead_sources', { name: 'Trade fair' })).body.data;
    const taker = (await onHub('POST', '/v2/lead_sources', { name: 'Podcast' })).body.data;
    const lead = (await onHub('POST', '/v2/leads', { last_name: 'Sourced', source_id: giver.id })).body.data;
    await synced();
    for (const [id, name] of [[giver.id, 'Passing'], [taker.id, 'Trade fair'], [giver.id, 'Podcast']] as const) {
      expect((await onHub('PUT', `/v2/lead_sources/${id}`, { name })).status).toBe(200);
    }
    await synced();
    expect((await onCopy('GET', '/v2/lead_sources?per_page=100')).body.items).toEqual((await onHub('GET', '/v2/lead_sources?per_page=100')).body.items);
    expect((await onCopy('GET', `/v2/leads/${lead.id}`)).body.data.source_id).toBe(giver.id);
  });

  /** Names A and B on two records; then the first gives A up, the second takes it, the first takes B. */
  async function handOver(path: string, make: (name: string) => Record<string, unknown>): Promise<{ giver: any; taker: any }> {
    const giver = (await onHub('POST', path, make('First name'))).body.data;
    const taker = (await onHub('POST', path, make('Second name'))).body.data;
    await synced();
    for (const [id, name] of [[giver.id, 'Passing'], [taker.id, 'First name'], [giver.id, 'Second name']] as const) {
      expect((await onHub('PUT', `${path}/${id}`, { name })).status, `${path} ${name}`).toBe(200);
    }
    await synced();
    return { giver, taker };
  }

  it('follow pipeline, stage, email template and sequence names handed from one to another, keeping what refers to them', async () => {
    await handOver('/v2/pipelines', (name) => ({ name }));
    const pipeline = (await onHub('POST', '/v2/pipelines', { name: 'Handover pipeline' })).body.data;
    const { giver } = await handOver('/v2/stages', (name) => ({ name, category: 'in_progress', pipeline_id: pipeline.id }));
    const contact = (await onHub('POST', '/v2/contacts', { last_name: 'Staged', owner_id: hub.agentId })).body.data;
    const deal = (await onHub('POST', '/v2/deals', { name: 'Staged', contact_id: contact.id, stage_id: giver.id, owner_id: hub.agentId })).body.data;
    expect(deal.stage_id).toBe(giver.id);
    await handOver('/v2/email_templates', (name) => ({ name, subject: 'Hello', body: 'Hi {{contact.first_name}}' }));
    await handOver('/v2/sequences', (name) => ({ name }));
    await synced();
    for (const path of ['/v2/pipelines?per_page=100', `/v2/stages?pipeline_id=${pipeline.id}&per_page=100`, '/v2/email_templates?per_page=100', '/v2/sequences?per_page=100']) {
      expect((await onCopy('GET', path)).body.items, path).toEqual((await onHub('GET', path)).body.items);
    }
    expect((await onCopy('GET', `/v2/deals/${deal.id}`)).body.data.stage_id).toBe(giver.id);
  });
});
