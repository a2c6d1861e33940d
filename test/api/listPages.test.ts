import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { BROAD_MATCHES } from '../../electron/engine/resources/listing.js';

/**
 * A list page builds the JSON of its own rows only (listing.ts, pageSql): the
 * rows its OFFSET skips and the matches after it are passed by id. Shown by a
 * record whose stored JSON text is broken, which the database refuses to read
 * as JSON (SQLite's json(), PostgreSQL's cast): pages that do not show it
 * answer as if it were whole. (The row after the page is read too: it tells
 * whether there is a next page.)
 */
let hub: TestHub;
const get = (path: string) => call(hub, 'GET', path, { token: hub.adminToken });
const ids = (answer: { body: any }) => answer.body.items.map((i: any) => i.data.id);
const post = async (path: string, data: unknown) => (await call(hub, 'POST', path, { token: hub.adminToken, data })).body.data.id as number;

beforeAll(async () => {
  hub = await startTestHub();
});
afterAll(() => hub.close());

describe('list pages', () => {
  it('builds no JSON for the records before or after the page, searched or sorted either way', async () => {
    const contact = await post('/v2/contacts', { last_name: 'Noted' });
    const notes: number[] = [];
    for (const n of [1, 2, 3, 4]) notes.push(await post('/v2/notes', { resource_type: 'contact', resource_id: contact, content: `Paginated remark ${n}` }));
    const [first, second, third, newest] = notes as [number, number, number, number];
    hub.engine.db.prepare("UPDATE notes SET tags = '[broken' WHERE id IN (?, ?)").run(first, newest);

    // Newest match first: page 2 of one skips the newest; the oldest is two rows after it (one is read to tell the next page).
    const page = await get('/v2/notes?q=paginat&per_page=1&page=2');
    expect(page.status).toBe(200);
    expect(ids(page)).toEqual([third]);
    expect(page.body.meta.links.next_page).toBeDefined();
    // Sorted, the index no longer drives the search: the oldest is skipped, the newest two rows after the page.
    expect(ids(await get('/v2/notes?q=paginat%20remark&sort_by=created_at&per_page=1&page=2'))).toEqual([second]);
    expect(ids(await get('/v2/notes?resource_type=contact&sort_by=created_at:desc&per_page=1&page=2'))).toEqual([third]);
    // The broken records are the database's to refuse, had a page built their JSON.
    for (const id of [first, newest]) expect(() => hub.engine.db.prepare('SELECT json(tags) FROM notes WHERE id = ?').get(id)).toThrow();
  });

  it('walks the sort\'s index past a status many contacts share, finds a rare one by its own index, and pages alike either way', async () => {
    const actor = { userId: hub.adminId, role: 'admin' as const, scopes: new Set(['read', 'write'] as const) };
    // Names in an order of their own (not the ids'), most of them one status, a few another.
    const made = hub.engine.db.transaction(() => Array.from({ length: BROAD_MATCHES + 300 }, (_, i) => {
      const status = i % 100 === 7 ? 'past' : 'current';
      const name = `Walker ${String((i * 7919) % 10007).padStart(5, '0')}`;
      return { id: hub.engine.contacts.create({ last_name: name, customer_status: status }, actor), name, status };
    }))();
    const expected = (status: string) => made.filter((c) => c.status === status)
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : a.id - b.id)).map((c) => c.id);
    const statements = hub.engine.ctx.statements;
    const asked = vi.spyOn(statements, 'get');
    try {
      for (const status of ['current', 'past']) {
        asked.mockClear();
        const page = await get(`/v2/contacts?customer_status=${status}&sort_by=name&per_page=20&page=2`);
        // Other contacts of the suite share the status; only this test's have these names.
        const mine = ids(page).filter((id: number) => made.some((c) => c.id === id));
        expect(mine).toEqual(expected(status).slice(20, 40));
        if (hub.engine.db.dialect !== 'sqlite') continue;
        const pageSql = asked.mock.calls.map(([sql]) => sql).find((sql) => sql.includes('LIMIT ? OFFSET ?'))!;
        const plan = (hub.engine.db.prepare(`EXPLAIN QUERY PLAN ${pageSql}`).all(status, 21, 20) as { detail: string }[]).map((p) => p.detail).join(' | ');
        if (status === 'current') {
          // Thousands match: the page reads contacts_name in order, skipping the others, and sorts nothing.
          expect(pageSql).toContain('+c.customer_status');
          expect(plan).toMatch(/SCAN c USING INDEX contacts_name/);
          expect(plan).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        } else {
          // A few dozen: found by the status's index and sorted (walking would pass most of the table).
          expect(pageSql).not.toContain('+c.customer_status');
          expect(plan).toMatch(/contacts_statuses/);
        }
      }
      // An owner alike: the admin owns thousands, the agent a few.
      const agents = hub.engine.db.transaction(() => [1, 2, 3].map((n) => hub.engine.contacts.create({ last_name: `Walker agent ${n}`, owner_id: hub.agentId }, actor)))();
      for (const [owner, walks] of [[hub.adminId, true], [hub.agentId, false]] as const) {
        asked.mockClear();
        const page = await get(`/v2/contacts?owner_id=${owner}&sort_by=name&per_page=5`);
        if (!walks) expect(ids(page).filter((id: number) => agents.includes(id))).toEqual(agents);
        if (hub.engine.db.dialect !== 'sqlite') continue;
        const pageSql = asked.mock.calls.map(([sql]) => sql).find((sql) => sql.includes('LIMIT ? OFFSET ?'))!;
        expect(pageSql.includes('+c.owner_id'), `owner ${owner}`).toBe(walks);
      }
    } finally {
      asked.mockRestore();
    }
  });
});
