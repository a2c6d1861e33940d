import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { startCabledReplica, type TestReplica } from '../support/testReplica.js';

/**
 * Merges and replicas. A real hub and real replicas over real HTTP;
 * the one stand-in is each replica's network cable, with a switch to cut it.
 */
let hub: TestHub;
const open: TestReplica[] = [];

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(async () => {
  for (const r of open) await r.close();
  await hub.close();
});

async function replicaOf(userId: number): Promise<TestReplica & { net: { online: boolean } }> {
  const r = await startCabledReplica(hub, userId);
  open.push(r);
  return r;
}

const onHub = (path: string) => call(hub, 'GET', path, { token: hub.adminToken });
const onReplica = (r: TestReplica, method: string, path: string, data?: unknown) => call(r.local, method, path, { token: r.token, data });

async function contactOnBoth(r: TestReplica, data: Record<string, unknown>): Promise<number> {
  const made = await call(hub, 'POST', '/v2/contacts', { token: hub.adminToken, data: { owner_id: hub.agentId, ...data } });
  expect(made.status).toBe(200);
  await r.replica.sync();
  expect((await onReplica(r, 'GET', `/v2/contacts/${made.body.data.id}`)).body.data).toMatchObject(data);
  return made.body.data.id;
}

/** Every row of the replica's database that still names the contact: its own row, references, the outbox, conflicts. */
function namingOnReplica(r: TestReplica, id: number): string[] {
  const { db } = r.engine;
  const found: string[] = [];
  const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%'").pluck().all() as string[];
  for (const table of tables) {
    const columns = (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name);
    const checks: string[] = [];
    if (table === 'contacts') checks.push('id = @id');
    for (const column of ['contact_id', 'organization_id', 'individual_id', 'parent_organization_id']) if (columns.includes(column)) checks.push(`${column} = @id`);
    if (columns.includes('resource_id') && columns.includes('resource_type')) checks.push("(resource_id = @id AND resource_type IN ('contact', 'sales_account'))");
    if (table === 'outbox') checks.push("(resource_type = 'contact' AND record_id = @id)");
    // Bookkeeping of what happened (the log of changes, the merge remembered) is history, not a reference.
    if (checks.length === 0 || ['change_log', 'record_revisions', 'merged_records', 'field_changes'].includes(table)) continue;
    const count = db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${checks.join(' OR ')}`).pluck().get({ id }) as number;
    if (count > 0) found.push(`${table}: ${count}`);
  }
  return found;
}

describe('a merge on the hub while a replica edits the merged record offline', () => {
  it('ends with the survivor on the replica, the offline edit and note on it, and nothing naming the merged record', async () => {
    const rep = await replicaOf(hub.agentId);
    const survivor = await contactOnBoth(rep, { first_name: 'Ines', last_name: 'Moreau', email: 'ines@example.com' });
    const other = await contactOnBoth(rep, { first_name: 'Inès', last_name: 'Moreau', phone: '+33 1 11 11 11 11' });
    rep.net.online = false;
    // Offline: B's phone corrected, and a note written on B.
    expect((await onReplica(rep, 'PUT', `/v2/contacts/${other}`, { phone: '+33 6 22 22 22 22' })).status).toBe(200);
    const note = await onReplica(rep, 'POST', '/v2/notes', { resource_type: 'contact', resource_id: other, content: 'Prefers mornings' });
    expect(note.status).toBe(200);
    expect(note.body.data.id).toBeLessThan(0);
    expect(namingOnReplica(rep, other)).toEqual(['contacts: 1', 'notes: 1', 'outbox: 1']);
    // Meanwhile on the hub, a colleague merges B into A (A survives, its blank phone filled from B's).
    const merged = await call(hub, 'POST', `/v2/contacts/${survivor}/merge`, { token: hub.adminToken, data: { merge_with_id: other } });
    expect(merged.status).toBe(200);
    expect(merged.body.data.phone).toBe('+33 1 11 11 11 11');

    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 0 });
    await rep.replica.sync();
    // The rep's phone edit was made against B's old phone, which A took: applied to A, field by field.
    expect((await onHub(`/v2/contacts/${survivor}`)).body.data).toMatchObject({ first_name: 'Ines', email: 'ines@example.com', phone: '+33 6 22 22 22 22' });
    expect((await onReplica(rep, 'GET', `/v2/contacts/${survivor}`)).body.data).toMatchObject({ first_name: 'Ines', phone: '+33 6 22 22 22 22' });
    expect((await onReplica(rep, 'GET', `/v2/contacts/${other}`)).status).toBe(404);
    const hubNotes = (await onHub(`/v2/notes?resource_type=contact&resource_id=${survivor}`)).body.items.map((i: any) => i.data.content);
    const localNotes = (await onReplica(rep, 'GET', `/v2/notes?resource_type=contact&resource_id=${survivor}`)).body.items.map((i: any) => i.data.content);
    expect(hubNotes).toEqual(['Prefers mornings']);
    expect(localNotes).toEqual(['Prefers mornings']);
    expect(namingOnReplica(rep, other)).toEqual([]);
  });

  it('reports an offline edit of a field the survivor holds its own value in as a conflict, as any edit made against an old value', async () => {
    const rep = await replicaOf(hub.agentId);
    const survivor = await contactOnBoth(rep, { last_name: 'Dubois', title: 'Buyer' });
    const other = await contactOnBoth(rep, { last_name: 'Dubois', title: 'Assistant' });
    rep.net.online = false;
    await onReplica(rep, 'PUT', `/v2/contacts/${other}`, { title: 'Office manager' });
    expect((await call(hub, 'POST', `/v2/contacts/${survivor}/merge`, { token: hub.adminToken, data: { merge_with_id: other } })).status).toBe(200);
    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0, conflicts: 1 });
    const conflicts = (await onReplica(rep, 'GET', `/v2/replica/conflicts?resource_type=contact&record_id=${survivor}`)).body.items.map((i: any) => i.data);
    expect(conflicts).toMatchObject([{ record_id: survivor, field: 'title', yours: { value: 'Office manager' }, theirs: { value: 'Buyer' } }]);
    expect(namingOnReplica(rep, other)).toEqual([]);
  });
});

describe('a merge made on a replica', () => {
  it('merges here at once, offline, and on the hub once synced', async () => {
    const rep = await replicaOf(hub.agentId);
    const survivor = await contactOnBoth(rep, { last_name: 'Rossi', email: 'rossi@example.com' });
    const other = await contactOnBoth(rep, { last_name: 'Rossi', mobile: '+39 333 000 0000', tags: ['fair'] });
    const noteOnHub = await call(hub, 'POST', '/v2/notes', { token: hub.adminToken, data: { resource_type: 'contact', resource_id: other, content: 'From the fair' } });
    await rep.replica.sync();
    rep.net.online = false;
    const merged = await onReplica(rep, 'POST', `/v2/contacts/${survivor}/merge`, { merge_with_id: other, fields: { last_name: 'other' } });
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    expect(merged.body.data).toMatchObject({ id: survivor, email: 'rossi@example.com', mobile: '+39 333 000 0000', tags: ['fair'] });
    expect((await onReplica(rep, 'GET', `/v2/contacts/${other}`)).status).toBe(404);
    expect((await onReplica(rep, 'GET', `/v2/notes/${noteOnHub.body.data.id}`)).body.data.resource_id).toBe(survivor);
    // One change queued: the merge itself, which the hub makes again.
    expect(rep.engine.ctx.replica!.outbox.pending().map((e) => [e.method, e.collection])).toEqual([['POST', '/v2/contacts/:id/merge']]);
    expect((await onHub(`/v2/contacts/${other}`)).status).toBe(200);

    rep.net.online = true;
    expect(await rep.replica.sync()).toMatchObject({ pending: 0, issues: 0 });
    await rep.replica.sync();
    expect((await onHub(`/v2/contacts/${other}`)).status).toBe(404);
    expect((await onHub(`/v2/contacts/${survivor}`)).body.data).toMatchObject({ mobile: '+39 333 000 0000', tags: ['fair'] });
    expect((await onHub(`/v2/notes/${noteOnHub.body.data.id}`)).body.data.resource_id).toBe(survivor);
    expect((await onReplica(rep, 'GET', `/v2/contacts/${survivor}`)).body.data).toMatchObject({ mobile: '+39 333 000 0000', tags: ['fair'] });
    expect(namingOnReplica(rep, other)).toEqual([]);
  });
});
