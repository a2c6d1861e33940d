import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, fields, startTestHub, type TestHub } from '../support/testHub.js';

let hub: TestHub;
const get = (path: string, token = hub.agentToken) => call(hub, 'GET', path, { token });
const admin = (method: string, path: string, data?: unknown) => call(hub, method, path, { token: hub.adminToken, data });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const names = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.name);

let pipelineId: number;

beforeAll(async () => {
  hub = await startTestHub();
  pipelineId = (await get('/v2/pipelines')).body.items[0].data.id;
});
afterAll(() => hub.close());

describe('the seeded pipeline', () => {
  it('is "Sales Pipeline" with its stages in order, readable with per_page=1', async () => {
    const pipelines = await get('/v2/pipelines?per_page=1');
    expect(pipelines.status).toBe(200);
    expect(pipelines.body.items).toHaveLength(1);
    expect(pipelines.body.items[0].meta.type).toBe('pipeline');
    expect(pipelines.body.items[0].data).toMatchObject({ name: 'Sales Pipeline', disabled: false });

    const stages = await get(`/v2/stages?pipeline_id=${pipelineId}`);
    expect(names(stages)).toEqual(['Incoming', 'Qualified', 'Quote', 'Closure', 'Won', 'Lost', 'Unqualified']);
    expect(stages.body.items.map((i: any) => i.data.position)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(stages.body.items[0].meta.type).toBe('stage');
    expect(stages.body.items[0].data).toMatchObject({ category: 'incoming', likelihood: 10, active: true, pipeline_id: pipelineId });
    expect(stages.body.items[4].data).toMatchObject({ name: 'Won', category: 'won', likelihood: 100, active: false });
    expect(stages.body.items[5].data).toMatchObject({ name: 'Lost', category: 'lost', likelihood: 0 });
    expect((await get('/v2/stages?per_page=1')).body.items).toHaveLength(1);
  });

  it('has change-log entries, so devices receive the seeded rows', async () => {
    const logged = hub.engine.db.prepare("SELECT resource_type, COUNT(*) AS n FROM change_log WHERE resource_type IN ('pipeline', 'stage') GROUP BY resource_type ORDER BY resource_type").all();
    expect(logged).toEqual([{ resource_type: 'pipeline', n: 1 }, { resource_type: 'stage', n: 7 }]);
  });

  it('retrieves one pipeline and one stage; unknown ids are 404', async () => {
    expect((await get(`/v2/pipelines/${pipelineId}`)).body.data.name).toBe('Sales Pipeline');
    const stageId = (await get('/v2/stages?name=Quote')).body.items[0].data.id;
    expect((await get(`/v2/stages/${stageId}`)).body.data).toMatchObject({ name: 'Quote', category: 'in_progress', likelihood: 50 });
    expect(codes(await get('/v2/pipelines/9999'))).toEqual(['not_found']);
    expect(codes(await get('/v2/stages/9999'))).toEqual(['not_found']);
  });
});

describe('stage and pipeline lists', () => {
  it('filter by ids, name, active, category and pipeline; unknown parameters are 400', async () => {
    const all = ids(await get('/v2/stages'));
    expect(ids(await get(`/v2/stages?ids=${all[1]},${all[0]}`))).toEqual([all[0], all[1]]);
    expect(names(await get('/v2/stages?name=Won'))).toEqual(['Won']);
    expect(names(await get('/v2/stages?active=false'))).toEqual(['Won', 'Lost', 'Unqualified']);
    expect(names(await get('/v2/stages?category=in_progress'))).toEqual(['Qualified', 'Quote', 'Closure']);
    expect(ids(await get('/v2/stages?pipeline_id=9999'))).toEqual([]);
    expect(codes(await get('/v2/stages?category=maybe'))).toEqual(['invalid_param']);
    expect(codes(await get('/v2/stages?color=red'))).toEqual(['invalid_param']);
    expect(names(await get('/v2/pipelines?name=Sales Pipeline'))).toEqual(['Sales Pipeline']);
    expect(codes(await get('/v2/pipelines?owner_id=1'))).toEqual(['invalid_param']);
  });

  it('sort by the named fields only', async () => {
    const byLikelihood = (await get('/v2/stages?sort_by=likelihood:desc')).body.items.map((i: any) => i.data.likelihood);
    expect(byLikelihood).toEqual([...byLikelihood].sort((a: number, b: number) => b - a));
    expect(names(await get('/v2/stages?sort_by=name')).slice(0, 2)).toEqual(['Closure', 'Incoming']);
    expect(codes(await get('/v2/stages?sort_by=category'))).toEqual(['invalid_param']);
  });
});

describe('managing pipelines and stages', () => {
  it('is for admins only (agents get 403)', async () => {
    expect(codes(await call(hub, 'POST', '/v2/pipelines', { token: hub.agentToken, data: { name: 'Renewals' } }))).toEqual(['forbidden']);
    expect(codes(await call(hub, 'POST', '/v2/stages', { token: hub.agentToken, data: { name: 'X', category: 'incoming', pipeline_id: pipelineId } }))).toEqual(['forbidden']);
    expect(codes(await call(hub, 'PUT', `/v2/pipelines/${pipelineId}`, { token: hub.agentToken, data: { name: 'Mine' } }))).toEqual(['forbidden']);
    expect(codes(await call(hub, 'DELETE', `/v2/pipelines/${pipelineId}`, { token: hub.agentToken }))).toEqual(['forbidden']);
  });

  it('creates a pipeline with stages placed at the end, checks every field', async () => {
    const pipeline = await admin('POST', '/v2/pipelines', { name: 'Renewals' });
    expect(pipeline.status).toBe(200);
    expect(pipeline.body.data).toMatchObject({ name: 'Renewals', disabled: false });
    const renewals = pipeline.body.data.id;
    expect(codes(await admin('POST', '/v2/pipelines', { name: 'Renewals' }))).toEqual(['already_exists']);
    expect(codes(await admin('POST', '/v2/pipelines', {}))).toEqual(['missing']);
    expect(codes(await admin('POST', '/v2/pipelines', { name: ' ' }))).toEqual(['blank']);

    const first = (await admin('POST', '/v2/stages', { name: 'Due', category: 'incoming', pipeline_id: renewals })).body.data;
    expect(first).toMatchObject({ position: 1, likelihood: 0, active: true, pipeline_id: renewals });
    const won = (await admin('POST', '/v2/stages', { name: 'Renewed', category: 'won', pipeline_id: renewals })).body.data;
    expect(won).toMatchObject({ position: 2, likelihood: 100, active: false });

    expect(fields(await admin('POST', '/v2/stages', {}))).toEqual(['/name', '/category', '/pipeline_id']);
    expect(codes(await admin('POST', '/v2/stages', { name: 'Due', category: 'incoming', pipeline_id: renewals }))).toEqual(['already_exists']);
    expect(codes(await admin('POST', '/v2/stages', { name: 'Y', category: 'maybe', pipeline_id: renewals }))).toEqual(['incorrect_value']);
    expect(fields(await admin('POST', '/v2/stages', { name: 'Y', category: 'won', pipeline_id: 9999 }))).toEqual(['/pipeline_id']);
    expect(fields(await admin('POST', '/v2/stages', { name: 'Y', category: 'won', pipeline_id: renewals, likelihood: 101 }))).toEqual(['/likelihood']);
    expect(fields(await admin('POST', '/v2/stages', { name: 'Y', category: 'won', pipeline_id: renewals, likelihood: -1 }))).toEqual(['/likelihood']);

    // A position past the last stage puts the stage last (2 of 2).
    const moved = await admin('PUT', `/v2/stages/${won.id}`, { name: 'Renewed!', position: 5, likelihood: 90, active: true });
    expect(moved.body.data).toMatchObject({ name: 'Renewed!', position: 2, likelihood: 90, active: true });
    expect(fields(await admin('PUT', `/v2/stages/${won.id}`, { pipeline_id: pipelineId }))).toEqual(['/pipeline_id']);
    expect((await admin('PUT', `/v2/stages/${won.id}`, { pipeline_id: renewals })).status).toBe(200);

    const disabled = await admin('PUT', `/v2/pipelines/${renewals}`, { disabled: true });
    expect(disabled.body.data.disabled).toBe(true);
    expect(names(await get('/v2/pipelines?disabled=true'))).toEqual(['Renewals']);
  });

  it('refuses deleting a stage or pipeline that holds deals; deletes them once empty', async () => {
    const pipeline = (await admin('POST', '/v2/pipelines', { name: 'Partners' })).body.data.id;
    const stage = (await admin('POST', '/v2/stages', { name: 'Talking', category: 'incoming', pipeline_id: pipeline })).body.data.id;
    const spare = (await admin('POST', '/v2/stages', { name: 'Signed', category: 'won', pipeline_id: pipeline })).body.data.id;
    const contact = (await call(hub, 'POST', '/v2/contacts', { token: hub.agentToken, data: { last_name: 'Partner' } })).body.data.id;
    const deal = (await call(hub, 'POST', '/v2/deals', { token: hub.agentToken, data: { name: 'Reseller', contact_id: contact, stage_id: stage } })).body.data.id;

    const refused = await admin('DELETE', `/v2/stages/${stage}`);
    expect(refused.status).toBe(422);
    expect(refused.body.errors[0].error.message).toMatch(/holds 1 deal/);
    expect(codes(await admin('DELETE', `/v2/pipelines/${pipeline}`))).toEqual(['incorrect_value']);

    await call(hub, 'PUT', `/v2/deals/${deal}`, { token: hub.agentToken, data: { stage_id: spare } });
    expect((await admin('DELETE', `/v2/stages/${stage}`)).status).toBe(204);
    await call(hub, 'DELETE', `/v2/deals/${deal}`, { token: hub.agentToken });
    expect((await admin('DELETE', `/v2/pipelines/${pipeline}`)).status).toBe(204);
    expect(codes(await get(`/v2/stages/${spare}`))).toEqual(['not_found']);
    expect(codes(await admin('DELETE', `/v2/stages/${stage}`))).toEqual(['not_found']);
  });
});

describe('reordering stages', () => {
  const positions = async (pipeline: number) => (await get(`/v2/stages?pipeline_id=${pipeline}`)).body.items.map((i: any) => [i.data.name, i.data.position]);

  it('moves one stage and renumbers the others 1…n, logging each one that moved', async () => {
    const pipeline = (await admin('POST', '/v2/pipelines', { name: 'Reorder' })).body.data.id;
    const stage: Record<string, number> = {};
    for (const name of ['A', 'B', 'C', 'D']) stage[name] = (await admin('POST', '/v2/stages', { name, category: 'in_progress', pipeline_id: pipeline })).body.data.id;
    const logged = () => hub.engine.db.prepare("SELECT COUNT(*) FROM change_log WHERE resource_type = 'stage'").pluck().get() as number;

    const before = logged();
    expect((await admin('PUT', `/v2/stages/${stage.D}`, { position: 2 })).body.data.position).toBe(2);
    expect(await positions(pipeline)).toEqual([['A', 1], ['D', 2], ['B', 3], ['C', 4]]);
    expect(logged() - before).toBe(3); // D itself, and B and C which moved down

    expect((await admin('PUT', `/v2/stages/${stage.A}`, { position: 3 })).body.data.position).toBe(3);
    expect(await positions(pipeline)).toEqual([['D', 1], ['B', 2], ['A', 3], ['C', 4]]);
    // Out of range is clamped to the first or last place; 0 is refused as before.
    await admin('PUT', `/v2/stages/${stage.C}`, { position: 1 });
    await admin('PUT', `/v2/stages/${stage.D}`, { position: 99 });
    expect(await positions(pipeline)).toEqual([['C', 1], ['B', 2], ['A', 3], ['D', 4]]);
    expect(fields(await admin('PUT', `/v2/stages/${stage.D}`, { position: 0 }))).toEqual(['/position']);
    expect(fields(await admin('PUT', `/v2/stages/${stage.D}`, { position: null }))).toEqual(['/position']);
  });

  it('places a stage created with a position, and closes the gap a deleted one leaves', async () => {
    const pipeline = (await admin('POST', '/v2/pipelines', { name: 'Insert' })).body.data.id;
    for (const name of ['A', 'B']) await admin('POST', '/v2/stages', { name, category: 'incoming', pipeline_id: pipeline });
    const first = (await admin('POST', '/v2/stages', { name: 'Z', category: 'incoming', pipeline_id: pipeline, position: 1 })).body.data;
    expect(first.position).toBe(1);
    expect(await positions(pipeline)).toEqual([['Z', 1], ['A', 2], ['B', 3]]);

    expect((await admin('DELETE', `/v2/stages/${first.id}`)).status).toBe(204);
    expect(await positions(pipeline)).toEqual([['A', 1], ['B', 2]]);
  });

  it('leaves other pipelines alone', async () => {
    const sales = await positions(pipelineId);
    const pipeline = (await admin('POST', '/v2/pipelines', { name: 'Alone' })).body.data.id;
    const x = (await admin('POST', '/v2/stages', { name: 'X', category: 'incoming', pipeline_id: pipeline })).body.data.id;
    await admin('POST', '/v2/stages', { name: 'Y', category: 'incoming', pipeline_id: pipeline });
    await admin('PUT', `/v2/stages/${x}`, { position: 2 });
    expect(await positions(pipelineId)).toEqual(sales);
  });
});
