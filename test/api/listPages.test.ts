import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';

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
});
