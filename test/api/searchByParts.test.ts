import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, startTestHub, type TestHub } from '../support/testHub.js';
import { openEngine } from '../../electron/engine/engine.js';
import { PART_MARK } from '../../electron/engine/db/searchIndexSql.js';

/**
 * What a rep types into a list's search (`q`) or the command palette: any
 * part of a name, and a phone or mobile by its digits in any format. The
 * same assertions run on SQLite (`npx vitest run`) and on PostgreSQL
 * (vitest.postgres.config.ts), so both backends answer the same records.
 */
let hub: TestHub;

const create = async (path: string, data: unknown) => {
  const answer = await call(hub, 'POST', path, { token: hub.adminToken, data });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
};
const update = async (path: string, data: unknown) => {
  const answer = await call(hub, 'PUT', path, { token: hub.adminToken, data });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
};
/** The palette's answers for a text: `type:id`, best first. */
const palette = async (q: string): Promise<string[]> => {
  const answer = await call(hub, 'GET', `/v2/search?q=${encodeURIComponent(q)}&per_page=25`, { token: hub.agentToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.items.map((i: any) => `${i.data.type}:${i.data.id}`);
};
/** The ids a list's `q` finds (`contacts` or `leads`), newest first. */
const listed = async (resource: 'contacts' | 'leads', q: string): Promise<number[]> => {
  const answer = await call(hub, 'GET', `/v2/${resource}?q=${encodeURIComponent(q)}&per_page=100`, { token: hub.agentToken });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.items.map((i: any) => i.data.id);
};

let francisco: any;
let cisco: any;
let mobile: any;
let trunk: any;
let lead: any;
let deal: any;

beforeAll(async () => {
  hub = await startTestHub();
  francisco = await create('/v2/contacts', { first_name: 'Francisco', last_name: 'Quintanilla', phone: '+1 (312) 847-2066' });
  cisco = await create('/v2/contacts', { is_organization: true, name: 'Ciscoworks Trading' });
  mobile = await create('/v2/contacts', { first_name: 'Imogen', last_name: 'Pettigrew', mobile: '+44 7700 900123' });
  trunk = await create('/v2/contacts', { first_name: 'Rhodri', last_name: 'Vaughan', mobile: '07700 900456' });
  lead = await create('/v2/leads', { first_name: 'Océane', last_name: 'Marchetti', organization_name: 'Boulangerie Dufresne', mobile: '+33 6 12 34 56 78' });
  deal = await create('/v2/deals', { name: 'Greenhouse retrofit', contact_id: cisco.id });
});
afterAll(() => hub.close());

describe('search by a part of a name', () => {
  it('finds a person by the middle or the end of a word of the name, in the palette and the list', async () => {
    // "osco" is not a part of "Francisco" ("cisco" is), so it finds nothing: true parts do.
    for (const part of ['ancis', 'cisc', 'rancisco', 'tanil', 'uintan', 'nilla']) {
      expect(await palette(part), part).toContain(`contact:${francisco.id}`);
      expect(await listed('contacts', part), part).toContain(francisco.id);
    }
    expect(await palette('osco')).toEqual([]);
    // Each typed word must be found: a start, or a part of three letters or more.
    expect(await listed('contacts', 'fran tanil')).toEqual([francisco.id]);
    expect(await listed('contacts', 'ancis pettig')).toEqual([]);
  });

  it('finds leads by a part of the person or organization name (accents aside), and deals by a part of their name', async () => {
    for (const part of ['ceane', 'chetti', 'langerie', 'fresne']) {
      expect(await palette(part), part).toEqual([`lead:${lead.id}`]);
      expect(await listed('leads', part), part).toEqual([lead.id]);
    }
    expect(await palette('cean')).toEqual([`lead:${lead.id}`]);
    expect(await palette('house retro')).toEqual([`deal:${deal.id}`]);
    expect(await palette('trofit')).toEqual([`deal:${deal.id}`]);
  });

  it('ranks names that begin with the text above names that only have it inside a word', async () => {
    // "cisco": the organization's name begins with it; Francisco has it at a word's end.
    expect(await palette('cisco')).toEqual([`contact:${cisco.id}`, `contact:${francisco.id}`]);
    const older = await create('/v2/contacts', { first_name: 'Abel', last_name: 'Sancisco' });
    const newer = await create('/v2/contacts', { first_name: 'Ancis', last_name: 'Newcombe' });
    const ranked = await palette('ancis');
    expect(ranked[0]).toBe(`contact:${newer.id}`);
    expect(ranked.slice(1).sort()).toEqual([`contact:${older.id}`, `contact:${francisco.id}`].sort());
  });

  it('follows a rename', async () => {
    const person = await create('/v2/contacts', { first_name: 'Wilhelmina', last_name: 'Oakes' });
    expect(await listed('contacts', 'helmin')).toEqual([person.id]);
    await update(`/v2/contacts/${person.id}`, { first_name: 'Henrietta' });
    expect(await listed('contacts', 'helmin')).toEqual([]);
    expect(await listed('contacts', 'rietta')).toEqual([person.id]);
  });
});

describe('search by phone digits in any format', () => {
  it('finds a phone by its last seven digits, with or without area or country code, in any punctuation', async () => {
    for (const typed of ['8472066', '847-2066', '847 2066', '3128472066', '(312) 847-2066', '312.847.2066', '13128472066', '+1 (312) 847-2066', '+1 312 847 2066', '001 312 847 2066']) {
      expect(await palette(typed), typed).toEqual([`contact:${francisco.id}`]);
      expect(await listed('contacts', typed), typed).toEqual([francisco.id]);
    }
    // A run of seven digits or more begins one of the number's indexed runs (here its middle), another number's finds nothing.
    expect(await palette('1284720')).toEqual([`contact:${francisco.id}`]);
    for (const typed of ['8472067', '312 847 2067', '+1 312 847 2067', '4472066']) expect(await palette(typed), typed).toEqual([]);
  });

  it('finds a mobile by its digits with or without the country code or a trunk 0', async () => {
    for (const typed of ['07700 900123', '07700900123', '7700900123', '7700 900123', '+44 7700 900123', '447700900123', '0044 7700 900123', '900123', '0900123']) {
      expect(await palette(typed), typed).toEqual([`contact:${mobile.id}`]);
      expect(await listed('contacts', typed), typed).toEqual([mobile.id]);
    }
  });

  it('finds a number stored with a trunk 0 by its national part, or with the country code', async () => {
    for (const typed of ['7700 900456', '7700900456', '07700 900456', '+44 7700 900456', '447700900456', '0900456']) {
      expect(await palette(typed), typed).toEqual([`contact:${trunk.id}`]);
      expect(await listed('contacts', typed), typed).toEqual([trunk.id]);
    }
  });

  it("finds a lead's mobile the same ways", async () => {
    for (const typed of ['0612345678', '06 12 34 56 78', '612345678', '+33 6 12 34 56 78', '33612345678', '2345678']) {
      expect(await palette(typed), typed).toEqual([`lead:${lead.id}`]);
      expect(await listed('leads', typed), typed).toEqual([lead.id]);
    }
  });

  it('follows a change of the number, and the detail shown is the phone found', async () => {
    const person = await create('/v2/contacts', { first_name: 'Tobias', last_name: 'Renwick', phone: '+1 415 555 0199' });
    expect(await listed('contacts', '5550199')).toEqual([person.id]);
    await update(`/v2/contacts/${person.id}`, { phone: null, mobile: '+1 415 555 0177' });
    expect(await listed('contacts', '5550199')).toEqual([]);
    expect(await listed('contacts', '415 5550177')).toEqual([person.id]);
    const answer = await call(hub, 'GET', '/v2/search?q=5550177', { token: hub.agentToken });
    expect(answer.body.items.map((i: any) => i.data.detail)).toEqual(['+1 415 555 0177']);
  });
});

describe('a PostgreSQL hub made before the name parts and digit runs', () => {
  it.runIf(process.env.OUTPOST_TEST_POSTGRES_URL)('gets its search tables made and filled again by migration 35 when a node opens it', () => {
    const db = hub.engine.db;
    const found = (engine = hub.engine) => engine.db.prepare('SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ?').pluck().all(`"${PART_MARK}ancis"*`);
    expect(found()).toContain(francisco.id);
    // As an older version left it: schema 34, a contact's terms without parts or runs.
    db.prepare('UPDATE outpost_schema SET version = 34').run();
    db.prepare("UPDATE contacts_fts SET terms = search_terms('Francisco Quintanilla', NULL, '+1 (312) 847-2066 13128472066') WHERE id = ?").run(francisco.id);
    expect(found()).not.toContain(francisco.id);

    const url = new URL(process.env.OUTPOST_TEST_POSTGRES_URL!);
    url.pathname = `/${db.prepare('SELECT current_database()').pluck().get() as string}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-node-'));
    const node = openEngine({ dataDir, clock: hub.clock, databaseUrl: url.toString() });
    try {
      expect(node.db.prepare('SELECT version FROM outpost_schema').pluck().get()).toBe(35);
      expect(found(node)).toContain(francisco.id);
    } finally {
      node.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
