import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, codes, startTestHub, type TestHub } from '../support/testHub.js';
import { openEngine } from '../../electron/engine/engine.js';
import { createHttpApp } from '../../electron/engine/http/app.js';
import { Replica } from '../../electron/engine/replica/replica.js';
import { switchedCable } from '../support/testReplica.js';

let hub: TestHub;
const dirs: string[] = [];

const search = (query: string, token = hub.agentToken, target: { url: string } = hub) => call(target, 'GET', `/v2/search?${query}`, { token });
const found = async (q: string, extra = '') => {
  const answer = await search(`q=${encodeURIComponent(q)}${extra}`);
  expect(answer.status).toBe(200);
  return answer.body.items.map((i: any) => i.data);
};
const names = async (q: string) => (await found(q)).map((r: any) => r.name);
const create = async (path: string, data: unknown, token = hub.adminToken) => {
  const answer = await call(hub, 'POST', path, { token, data });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body.data;
};

let organization: any;
let person: any;
let lead: any;
let deal: any;

beforeAll(async () => {
  hub = await startTestHub();
  organization = await create('/v2/contacts', { is_organization: true, name: 'Northwind Traders', email: 'hello@northwind.test' });
  person = await create('/v2/contacts', {
    first_name: 'Johanna', last_name: 'Smithers', email: 'jo.smithers@acme.test', phone: '+1 (555) 123-4567', contact_id: organization.id,
  });
  lead = await create('/v2/leads', { first_name: 'Quentin', last_name: 'Lavoie', organization_name: 'Café Boréal', mobile: '(555) 987-6543' });
  deal = await create('/v2/deals', { name: 'Northwind fleet renewal', contact_id: organization.id, value: '12500.50', currency: 'EUR' });
});
afterAll(async () => {
  await hub.close();
  dirs.forEach((d) => rmSync(d, { recursive: true, force: true }));
});

describe('GET /v2/search', () => {
  it('answers records as {type, id, name, detail, path} in the collection envelope', async () => {
    const answer = await search('q=johanna');
    expect(answer.status).toBe(200);
    expect(answer.body.meta).toMatchObject({ type: 'collection', count: 1 });
    expect(answer.body.meta.links.self).toContain('/v2/search?q=johanna');
    expect(answer.body.items).toEqual([{
      data: { type: 'contact', id: person.id, name: 'Johanna Smithers', detail: 'jo.smithers@acme.test', path: `/contacts/${person.id}` },
      meta: { type: 'search_result' },
    }]);
  });

  it('finds a contact by a name prefix, an email fragment, or phone digits', async () => {
    expect(await names('smith')).toEqual(['Johanna Smithers']);
    expect(await names('joh smi')).toEqual(['Johanna Smithers']);
    expect(await names('jo.smith')).toEqual(['Johanna Smithers']);
    expect(await names('acme.test')).toEqual(['Johanna Smithers']);
    // Digits as groups, or as one run from the number's start; a phone match shows the phone.
    for (const digits of ['555 12', '555-123', '15551234', '+1 555 123 4567', '(555) 123-4567']) {
      const results = await found(digits);
      expect(results.map((r: any) => r.name), digits).toEqual(['Johanna Smithers']);
      expect(results[0].detail).toBe('+1 (555) 123-4567');
    }
    expect(await names('555 98')).toEqual(['Quentin Lavoie']);
  });

  it('finds leads (by person or organization name, accents aside) and deals by name', async () => {
    expect(await found('quent')).toEqual([{ type: 'lead', id: lead.id, name: 'Quentin Lavoie', detail: '(555) 987-6543', path: `/leads/${lead.id}` }]);
    expect((await found('cafe boreal')).map((r: any) => r.id)).toEqual([lead.id]);
    expect(await found('fleet')).toEqual([{
      type: 'deal', id: deal.id, name: 'Northwind fleet renewal', detail: 'Northwind Traders', amount: { value: '12500.5', currency: 'EUR' }, path: `/deals/${deal.id}`,
    }]);
    // Deals are found by their current name: the index follows renames and deletes.
    await call(hub, 'PUT', `/v2/deals/${deal.id}`, { token: hub.adminToken, data: { name: 'Northwind fleet extension' } });
    expect(await names('renewal')).toEqual([]);
    expect(await names('extension')).toEqual(['Northwind fleet extension']);
    const doomed = await create('/v2/deals', { name: 'Doomed deal', contact_id: person.id });
    expect(await names('doomed')).toEqual(['Doomed deal']);
    await call(hub, 'DELETE', `/v2/deals/${doomed.id}`, { token: hub.adminToken });
    expect(await names('doomed')).toEqual([]);
  });

  it('lists name matches first: the exact name, names beginning with the text, names with its words, then email and phone matches', async () => {
    const made = [
      { first_name: 'Berg', last_name: 'Annabel' }, // the words in another order: a name match, not a prefix
      { first_name: 'Anna', last_name: 'Bergström' }, // begins with the text, longer
      { first_name: 'Anne', last_name: 'Other', email: 'anna.berg@mail.test' }, // only the email matches
      { first_name: 'Anna', last_name: 'Berg' }, // exact, made before the longer one
      { first_name: 'Anna', last_name: 'Bergen' },
    ];
    const ids: number[] = [];
    for (const contact of made) ids.push((await create('/v2/contacts', contact)).id);
    const deal2 = await create('/v2/deals', { name: 'Anna Berg', contact_id: person.id });
    expect(await names('anna berg')).toEqual(['Anna Berg', 'Anna Berg', 'Anna Bergen', 'Anna Bergström', 'Berg Annabel', 'Anne Other']);
    // Exact names of two types: contacts before leads before deals.
    const [first, second] = await found('anna berg');
    expect([first.type, second.type]).toEqual(['contact', 'deal']);
    expect(second.id).toBe(deal2.id);
    // Equally good matches of one type: the newest first.
    const newer = await create('/v2/contacts', { first_name: 'Anna', last_name: 'Bergen' });
    expect((await found('anna bergen')).map((r: any) => r.id)).toEqual([newer.id, ids[4]]);
  });

  it('still puts an older name match first when more than a hundred newer records match only by email', async () => {
    const olga = await create('/v2/contacts', { is_organization: true, name: 'Olga' });
    for (let i = 0; i < 110; i++) await create('/v2/contacts', { last_name: `Filler ${i}`, email: `olga.${i}@mail.test` });
    const results = await found('olga');
    expect(results).toHaveLength(10);
    expect(results[0]).toMatchObject({ id: olga.id, name: 'Olga' });
    expect(results.slice(1).every((r: any) => r.name.startsWith('Filler'))).toBe(true);
  });

  it('shows at most per_page results (default 10, at most 25), over every type', async () => {
    for (let i = 0; i < 14; i++) await create('/v2/contacts', { last_name: `Pagesize${i}` });
    for (let i = 0; i < 14; i++) await create('/v2/leads', { last_name: `Pagesize lead ${i}` });
    expect(await found('pagesize')).toHaveLength(10);
    expect(await found('pagesize', '&per_page=25')).toHaveLength(25);
    expect(await found('pagesize', '&per_page=3')).toHaveLength(3);
  });

  it('is a 400 in the /v2 error style for a missing, blank or too long q, a bad per_page, or an unknown parameter', async () => {
    for (const query of ['', 'q=', 'q=%20%20', `q=${'a'.repeat(201)}`, 'q=a&per_page=26', 'q=a&per_page=0', 'q=a&per_page=x', 'q=a&q=b', 'q=a&page=2']) {
      const answer = await search(query);
      expect(answer.status, query).toBe(400);
      expect(codes(answer), query).toEqual(['invalid_param']);
      expect(answer.body.meta.http_status).toBe('400 Bad Request');
    }
    expect((await search('')).body.errors[0].error.field).toBe('q');
  });

  it('finds nothing (200) for text without letters or digits, and needs a token with the read scope', async () => {
    expect(await found('--- ()')).toEqual([]);
    expect(await found('zzzznothing')).toEqual([]);
    expect((await search('q=jo', null as unknown as string)).status).toBe(401);
    expect((await search('q=jo', hub.tokenFor(hub.agentId, ['profile']))).status).toBe(403);
  });

  it('treats what is typed as words, never as FTS5 syntax', async () => {
    for (const text of ['"', 'smith"*', 'NEAR(jo', 'name : jo', '^jo', 'jo OR x', '*', 'AND']) {
      expect((await search(`q=${encodeURIComponent(text)}`)).status, text).toBe(200);
    }
    expect(await names('name : johan')).toEqual([]);
    expect(await names('^johan')).toEqual(['Johanna Smithers']);
  });
});

describe('on a desktop replica', () => {
  it('finds the records of its first sync, records made offline, and those same records under their hub ids afterwards', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-replica-search-'));
    dirs.push(dataDir);
    const engine = openEngine({ dataDir, clock: hub.clock, replica: true });
    const net = { online: true };
    const replica = new Replica(engine, { hubUrl: hub.url, token: hub.tokenFor(hub.agentId, ['read', 'write', 'profile', 'sync']), fetch: switchedCable(net) });
    const app = await createHttpApp(engine, { rateLimitPerHour: 0, replica });
    const device = { url: await app.listen({ host: '127.0.0.1', port: 0 }) };
    const token = engine.tokens.createPersonal(hub.agentId, ['read', 'write', 'profile']);
    try {
      await replica.sync();
      const onDevice = async (q: string) => (await search(`q=${encodeURIComponent(q)}`, token, device)).body.items.map((i: any) => i.data);
      // The first sync is a bulk load with the index triggers off: the indexes are built at its end.
      expect((await onDevice('northwind fleet')).map((r: any) => r.path)).toEqual([`/deals/${deal.id}`]);
      expect((await onDevice('555 12')).map((r: any) => r.id)).toEqual([person.id]);

      net.online = false;
      const offline = (await call(device, 'POST', '/v2/deals', { token, data: { name: 'Offline harbour deal', contact_id: person.id } })).body.data;
      expect(offline.id).toBeLessThan(0);
      expect((await onDevice('harbour')).map((r: any) => r.path)).toEqual([`/deals/${offline.id}`]);

      net.online = true;
      await replica.sync();
      const onHub = (await found('harbour')).map((r: any) => r.id);
      expect(onHub).toHaveLength(1);
      expect((await onDevice('harbour')).map((r: any) => r.path)).toEqual([`/deals/${onHub[0]}`]);
      // The index entry moved with the record: none is left under the temporary id.
      const ids = (sql: string) => engine.db.prepare(sql).pluck().all();
      expect(ids('SELECT rowid FROM deals_fts ORDER BY rowid')).toEqual(ids('SELECT id FROM deals ORDER BY id'));
    } finally {
      await app.close();
      engine.close();
    }
  });
});
