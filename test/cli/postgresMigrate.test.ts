import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { accessToken, cleanUp, outpost, serve, stop, tempDir, type Served } from '../support/cliProcess.js';
import { openDatabase } from '../../electron/engine/db/database.js';
import { openEngine } from '../../electron/engine/engine.js';
import { plan } from '../../electron/engine/db/postgres/copy.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * `outpost migrate`: a SQLite hub seeded by `outpost seed`, copied
 * into a real PostgreSQL cluster, then served by `outpost serve
 * --database-url` beside the SQLite hub itself: the REST API answers the same
 * records with the same ids (JSON compared parsed: PostgreSQL spaces its JSON
 * text differently), the same search results, and new records and changes
 * number on from the highest copied. Also its refusals, and `outpost seed` on
 * PostgreSQL. Real processes, real HTTP on 127.0.0.1.
 */
const missing = whyNoPostgres();
if (missing) console.warn(`Skipping outpost migrate tests: ${missing}`);

let cluster: PostgresCluster;
let dataDir: string;
let token: string;
let documentId: number;
/** Every byte value, so no conversion on the way can pass unnoticed. */
const DOCUMENT = Buffer.from(Array.from({ length: 4096 }, (_, i) => i % 256));
let databases = 0;

/** A new database in the cluster, and its URL. */
function database(): string {
  const name = `migrate_${++databases}`;
  cluster.sql(`CREATE DATABASE ${name}`);
  return cluster.url.replace(/\/postgres$/, `/${name}`);
}

/** The first row of a query on the database at `url`, as an array of values. */
async function row(url: string, statement: string): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query({ text: statement, rowMode: 'array' })).rows[0] as unknown[];
  } finally {
    await client.end();
  }
}

async function get(hub: Served, path: string): Promise<any> {
  const response = await fetch(`${hub.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
  expect(response.status, `${path} on ${hub.url}`).toBe(200);
  return response.json();
}

/** Every item of a list, page by page, in a stable order (tasks and notes sort by no id; their ties are broken by id). */
async function everything(hub: Served, resource: string): Promise<unknown[]> {
  const items: unknown[] = [];
  const sort = resource === 'tasks' || resource === 'notes' ? 'created_at' : 'id';
  for (let page = 1; ; page++) {
    const body = await get(hub, `/v2/${resource}?sort_by=${sort}&per_page=100&page=${page}`);
    items.push(...body.items);
    if (!body.meta.links.next_page) return items;
  }
}

beforeAll(async () => {
  if (missing) return;
  cluster = await startPostgresCluster();
  dataDir = tempDir();
  const seeded = await outpost(['seed', '--contacts', '300', '--data-dir', dataDir]);
  expect(seeded.code, seeded.stderr).toBe(0);
  token = await accessToken(dataDir, 'admin@outpost.local');
  // A person linked to an organization made after them: a reference to a row further on, set by the copy's second pass.
  const db = openDatabase(join(dataDir, 'outpost.sqlite'));
  db.prepare(`UPDATE contacts SET contact_id = (SELECT max(id) FROM contacts WHERE is_organization = 1)
    WHERE id = (SELECT min(id) FROM contacts WHERE is_organization = 0)`).run();
  db.close();
  // A document, whose bytes live in the folder on SQLite and go into the database on PostgreSQL.
  const engine = openEngine({ dataDir, runSequences: false });
  const admin = { userId: 1, role: 'admin' as const, scopes: new Set(['read', 'write'] as const) };
  documentId = engine.documents.create({ resource_type: 'contact', resource_id: 1, name: 'bytes.bin', content_type: 'application/octet-stream', content: DOCUMENT }, admin);
  engine.close();
}, 60_000);

afterAll(() => {
  cleanUp();
  cluster?.stop();
});

describe.skipIf(missing)('outpost migrate --from-data-dir D --to postgres://…', { timeout: 60_000 }, () => {
  it('copies the hub with its ids: served on PostgreSQL, the API answers the same records, searches and numbers on past them', async () => {
    const url = database();
    const copied = await outpost(['migrate', '--from-data-dir', dataDir, '--to', url]);
    expect(copied.code, copied.stderr).toBe(0);
    const contacts = /^contacts +(\d+)$/m.exec(copied.stdout);
    expect(Number(contacts?.[1])).toBeGreaterThanOrEqual(300);
    expect(copied.stdout).toMatch(/^Copied \d+ rows of \d+ tables in \d+\.\d s into postgres:\/\//m);
    expect(copied.stdout).toMatch(/^1 documents: 1 with their contents from .*, now stored in the database\.$/m);

    // A second copy into a database that holds a hub: refused, unless --force, which replaces what is there.
    const again = await outpost(['migrate', '--from-data-dir', dataDir, '--to', url]);
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/^outpost: the target database already holds a hub's data \(\d+ users?\); add --force to replace it/);
    const forced = await outpost(['migrate', '--from-data-dir', dataDir, '--to', url, '--force']);
    expect(forced.code, forced.stderr).toBe(0);
    const tableLines = (stdout: string) => stdout.split('\n').filter((line) => /^\w+ +\d+$/.test(line));
    expect(tableLines(forced.stdout)).toEqual(tableLines(copied.stdout));

    const source = new Database(join(dataDir, 'outpost.sqlite'), { readonly: true });
    const highest = source.prepare('SELECT (SELECT max(id) FROM contacts), (SELECT max(revision) FROM change_log)').raw().get() as [number, number];
    source.close();

    const [sqlite, postgres] = await Promise.all([serve(dataDir), serve(tempDir(), {}, ['--database-url', url])]);
    for (const resource of ['contacts', 'deals', 'leads', 'tasks', 'notes']) {
      const [mine, theirs] = await Promise.all([everything(sqlite, resource), everything(postgres, resource)]);
      expect(theirs.length, resource).toBe(mine.length);
      expect(theirs, resource).toEqual(mine);
    }
    const contactsThere = (await everything(postgres, 'contacts')) as { data: { id: number; contact_id: number | null } }[];
    expect(contactsThere.some(({ data }) => data.contact_id !== null && data.contact_id > data.id)).toBe(true);
    const someone = ((await get(sqlite, '/v2/contacts?sort_by=id&per_page=1&page=7')).items[0].data.name as string).split(' ')[0]!;
    const ids = async (hub: Served) => (await get(hub, `/v2/contacts?per_page=100&q=${encodeURIComponent(someone)}`)).items.map((i: any) => i.data.id).sort();
    expect((await ids(sqlite)).length).toBeGreaterThan(0);
    expect(await ids(postgres)).toEqual(await ids(sqlite));

    const made = await fetch(`${postgres.url}/v2/contacts`, {
      method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ data: { first_name: 'Fresh', last_name: 'Contact' } }),
    });
    expect(made.status).toBe(200);
    const id = (await made.json()).data.id as number;
    expect(id).toBeGreaterThan(highest[0]);
    const [revision] = await row(url, `SELECT max(revision) FROM change_log WHERE resource_type = 'contact' AND resource_id = ${id}`);
    expect(Number(revision)).toBeGreaterThan(highest[1]);

    // The document's bytes, through its signed link on the PostgreSQL hub.
    const link = (await get(postgres, `/v2/documents/${documentId}`)).data.download_url as string;
    const download = await fetch(link);
    expect(download.status).toBe(200);
    expect(Buffer.from(await download.arrayBuffer()).equals(DOCUMENT)).toBe(true);

    // While a hub runs on the source folder, migrate refuses.
    const busy = await outpost(['migrate', '--from-data-dir', dataDir, '--to', database()]);
    expect(busy.code).toBe(2);
    expect(busy.stderr).toMatch(/^outpost: Another Outpost hub is already running on the data folder/);
    expect(await stop(sqlite)).toBe(0);
    expect(await stop(postgres)).toBe(0);
  });

  it('refuses, with one line and exit 2, a --to that is not a postgres URL and a folder with no database', async () => {
    const empty = tempDir();
    const [badUrl, none] = await Promise.all([
      outpost(['migrate', '--from-data-dir', dataDir, '--to', 'mysql://127.0.0.1/hub']),
      outpost(['migrate', '--from-data-dir', empty, '--to', cluster.url]),
    ]);
    expect([badUrl.code, badUrl.stderr]).toEqual([2, 'outpost: --to must be a postgres:// URL (outpost help for usage)']);
    expect(none.code).toBe(2);
    expect(none.stderr).toBe(`outpost: no Outpost database in ${empty} (outpost.sqlite is missing) (outpost help for usage)`);
  });
});

describe.skipIf(missing)('outpost seed --database-url', { timeout: 60_000 }, () => {
  it('seeds a PostgreSQL hub: every kind of record, found by search (the search tables follow by trigger)', async () => {
    const url = database();
    const seeded = await outpost(['seed', '--contacts', '50', '--database-url', url, '--data-dir', tempDir()]);
    expect(seeded.code, seeded.stderr).toBe(0);
    expect(seeded.stdout).toMatch(/^Seeded 50 contacts \(5 organizations, 45 people\)/m);
    expect(seeded.stdout).toMatch(/^Seeded 50 contacts, 10 leads, 10 deals, .*10 tasks, 10 notes and 5 text messages in/m);
    const counts = await row(url, `SELECT (SELECT count(*) FROM contacts), (SELECT count(*) FROM contacts_fts),
      (SELECT count(*) FROM notes), (SELECT count(*) FROM notes_fts), (SELECT count(*) FROM record_revisions WHERE resource_type = 'contact')`);
    const [contacts, searchable, notes, notesSearchable, revisions] = counts.map(Number);
    expect(contacts).toBeGreaterThanOrEqual(50);
    expect([searchable, notesSearchable, revisions]).toEqual([contacts, notes, contacts]);
  });
});

describe('the copy\'s order of tables', () => {
  type Tables = Parameters<typeof plan>[0];
  const table = (name: string, references: [string, string][]): Tables[number] => ({
    name, key: 'id', columns: ['id', ...references.map(([column]) => column)].map((column) => ({ name: column, type: 'bigint' })),
    references: references.map(([column, to]) => ({ column, table: to, to: 'id' })),
  });

  it('puts each table after those it refers to; a reference to itself goes in ahead, a cycle\'s last link later', () => {
    const steps = plan([
      table('notes', [['contact_id', 'contacts'], ['creator_id', 'users']]),
      table('contacts', [['contact_id', 'contacts'], ['owner_id', 'users']]),
      table('users', [['reports_to', 'users']]),
      table('a', [['b_id', 'b']]),
      table('b', [['a_id', 'a']]),
    ]);
    const shape = steps.map((s) => [s.table.name, s.later.map((c) => c.name), s.ahead.map((c) => c.name)]);
    expect(shape).toEqual([
      ['users', [], ['reports_to']],
      ['contacts', [], ['contact_id']],
      ['notes', [], []],
      ['a', ['b_id'], []],
      ['b', [], []],
    ]);
  });
});
