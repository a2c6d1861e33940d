import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import sqlite3InitModule from '@sqlite.org/sqlite-wasm';
import { asSqliteDb, openDatabase, type SqliteConnection, type SqliteDb } from '../../electron/engine/db/database.js';
import { MIGRATIONS } from '../../electron/engine/db/migrations/index.js';
import { rebuildSearchIndexes } from '../../electron/engine/db/searchIndexes.js';
import { buildSearchIndexesAside } from '../../electron/engine/db/searchBuildAside.js';
import { buildSearchIndexesOfCopy, copySearchIndexesIn, loadBytes, searchIndexesNamed } from '../../electron/engine/db/searchBuildCopy.js';
import { nameParts, phoneTerms, registerSearchFunctions } from '../../electron/engine/db/sqlFunctions.js';
import { WasmDatabase, type OoDatabase } from '../../electron/engine/db/wasmDatabase.js';
import { withoutWal } from '../support/wasmSqlite.js';
import { PART_MARK } from '../../electron/engine/db/searchIndexSql.js';

/** A part's term as indexed: the mark, then the part. */
const M = PART_MARK;

/**
 * The search indexes' terms on SQLite: the functions that make them, the
 * migration that adds them to an existing database, and the three ways an
 * index is written (the triggers row by row, a bulk load's rebuild, a
 * replica's first sync building aside) giving the same terms.
 */
const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-search-'));
  dirs.push(dir);
  return join(dir, 'test.sqlite');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const NOW = '2026-01-01T00:00:00Z';
const INDEXES = ['contacts_fts', 'leads_fts', 'deals_fts', 'tasks_fts', 'notes_fts'];

const match = (db: SqliteConnection, fts: string, query: string) =>
  db.prepare(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid`).pluck().all(query);

/** Every term of an index with its row and column, sorted (FTS5's own view of the index, fts5vocab). */
function termsOf(db: SqliteConnection, schema: string, fts: string): string[] {
  const vocab = `vocab_${schema}_${fts}`;
  db.exec(`CREATE VIRTUAL TABLE IF NOT EXISTS temp.${vocab} USING fts5vocab(${schema}, ${fts}, 'instance')`);
  return (db.prepare(`SELECT term, doc, col FROM temp.${vocab}`).all() as { term: string; doc: number; col: string }[])
    .map(({ term, doc, col }) => `${doc} ${col} ${term}`).sort();
}

function insertRecords(db: SqliteConnection): void {
  db.prepare("INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES (1, 'A', 'a@example.com', 'admin', ?, ?)").run(NOW, NOW);
  const contact = db.prepare('INSERT INTO contacts (id, creator_id, owner_id, name, last_name, email, phone, mobile, created_at, updated_at) VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?, ?)');
  contact.run(1, 'Francisco Quintanilla', 'Quintanilla', 'fq@example.com', '+1 (312) 847-2066', null, NOW, NOW);
  contact.run(2, 'Imogen Pettigrew', 'Pettigrew', null, null, '07700 900123', NOW, NOW);
  db.prepare('INSERT INTO leads (id, creator_id, owner_id, first_name, last_name, organization_name, mobile, created_at, updated_at) VALUES (3, 1, 1, ?, ?, ?, ?, ?, ?)')
    .run('Océane', 'Marchetti', 'Boulangerie Dufresne', '+33 6 12 34 56 78', NOW, NOW);
  db.prepare(`INSERT INTO deals (id, creator_id, owner_id, name, currency, stage_id, contact_id, dropbox_email, added_on, created_at, updated_at)
    VALUES (4, 1, 1, 'Greenhouse retrofit', 'USD', (SELECT id FROM stages LIMIT 1), 1, 'd4@deals.invalid', '2026-01-01', ?, ?)`).run(NOW, NOW);
}

describe('the search terms', () => {
  it("are a phone as written, its digits and its marked runs of last digits (seven or more), and a name's marked word endings (three letters or more)", () => {
    expect(phoneTerms('+1 (312) 847-2066', null, '')).toBe(`+1 (312) 847-2066 13128472066 ${M}13128472066 ${M}3128472066 ${M}128472066 ${M}28472066 ${M}8472066`);
    expect(phoneTerms('07700 900123')).toBe(`07700 900123 07700900123 ${M}07700900123 ${M}7700900123 ${M}700900123 ${M}00900123 ${M}0900123`);
    expect(phoneTerms('ext 12')).toBe('ext 12 12');
    expect(nameParts('Francisco Li', null, 'Boréal')).toBe(['rancisco', 'ancisco', 'ncisco', 'cisco', 'isco', 'sco', 'oréal', 'réal', 'éal'].map((p) => M + p).join(' '));
    expect(nameParts('Anna-Lou')).toBe(`${M}nna`);
  });
});

describe('migration 35', () => {
  it('adds the name parts and the phone digit runs to an existing database, and its triggers keep them', () => {
    const file = tempFile();
    const raw = new Database(file);
    // As the engine registered them before migration 35: a phone as written and its bare digits.
    raw.function('now_utc', () => NOW);
    raw.function('phone_terms', { deterministic: true, varargs: true }, (...phones: unknown[]) =>
      phones.filter((p): p is string => typeof p === 'string' && p.length > 0).map((p) => `${p} ${p.replace(/\D/g, '')}`).join(' '));
    for (const migration of MIGRATIONS.filter((m) => m.version <= 34)) raw.exec(migration.sql);
    raw.pragma('user_version = 34');
    insertRecords(raw);
    expect(match(raw, 'contacts_fts', `"${M}ancis"*`)).toEqual([]);
    expect(match(raw, 'contacts_fts', `"${M}8472066"*`)).toEqual([]);
    raw.close();

    const db = openDatabase(file);
    expect(match(db, 'contacts_fts', `"${M}ancis"*`)).toEqual([1]);
    expect(match(db, 'contacts_fts', `"${M}8472066"*`)).toEqual([1]);
    expect(match(db, 'contacts_fts', `"${M}7700900123"*`)).toEqual([2]);
    expect(match(db, 'leads_fts', `"${M}langerie"*`)).toEqual([3]);
    expect(match(db, 'leads_fts', `"${M}612345678"*`)).toEqual([3]);
    expect(match(db, 'deals_fts', `"${M}trofit"*`)).toEqual([4]);
    // The name tiers still ask the name alone.
    expect(match(db, 'contacts_fts', `name : "${M}ancis"*`)).toEqual([]);
    // A word typed is never a part's prefix: parts are found only when asked for by the mark.
    expect(match(db, 'contacts_fts', '"ancis"* OR "8472066"*')).toEqual([]);

    db.prepare("UPDATE contacts SET name = 'Wilhelmina Oakes', phone = '+1 415 555 0199' WHERE id = 1").run();
    db.prepare("UPDATE leads SET mobile = '020 7946 0958' WHERE id = 3").run();
    db.prepare("UPDATE deals SET name = 'Orchard survey' WHERE id = 4").run();
    expect(match(db, 'contacts_fts', `"${M}ancis"* OR "${M}8472066"*`)).toEqual([]);
    expect(match(db, 'contacts_fts', `"${M}helmin"*`)).toEqual([1]);
    expect(match(db, 'contacts_fts', `"${M}5550199"*`)).toEqual([1]);
    expect(match(db, 'leads_fts', `"${M}2079460958"*`)).toEqual([3]);
    expect(match(db, 'deals_fts', `"${M}chard"*`)).toEqual([4]);
    db.prepare('DELETE FROM contacts WHERE id = 2').run();
    expect(match(db, 'contacts_fts', `"${M}7700900123"*`)).toEqual([]);
    for (const fts of INDEXES) db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('integrity-check', 1)`);
    db.close();
  });
});

describe('the triggers, a bulk rebuild and the build aside (a replica first sync)', () => {
  it('write the same terms', async () => {
    const file = tempFile();
    const db: SqliteDb = openDatabase(file);
    insertRecords(db);
    const byTriggers = Object.fromEntries(INDEXES.map((fts) => [fts, termsOf(db, 'main', fts)]));
    expect(byTriggers.contacts_fts).toContain(`1 name_parts ${M}ancisco`);
    expect(byTriggers.contacts_fts).toContain(`1 phones ${M}8472066`);
    expect(byTriggers.leads_fts).toContain(`3 name_parts ${M}eane`);
    expect(byTriggers.deals_fts).toContain(`4 name_parts ${M}trofit`);

    const aside = `${file}-aside`;
    await buildSearchIndexesAside(file, aside, { cacheKiB: 1024 });
    db.prepare('ATTACH ? AS aside').run(aside);
    for (const fts of INDEXES) expect(termsOf(db, 'aside', fts), fts).toEqual(byTriggers[fts]);
    db.exec('DETACH aside');

    rebuildSearchIndexes(db);
    for (const fts of INDEXES) expect(termsOf(db, 'main', fts), fts).toEqual(byTriggers[fts]);
    db.close();
  });
});

describe("the browser's build of a copy (a first sync's end on two threads in the browser)", () => {
  /** The database file's bytes as a browser's pool holds them: a rollback journal (a native file is in WAL mode). */
  const fileBytes = (file: string) => withoutWal(new Uint8Array(readFileSync(file)));

  it('writes the same terms as the triggers, and the connection that copies them in finds them and keeps them current', async () => {
    const file = tempFile();
    const db: SqliteDb = openDatabase(file);
    insertRecords(db);
    const byTriggers = termsOf(db, 'main', 'contacts_fts');
    db.close();

    const sqlite3 = await sqlite3InitModule();
    const built = await buildSearchIndexesOfCopy(sqlite3, fileBytes(file), ['contacts_fts']);
    // The engine's connection: the same tables, the contacts' index empty, as after a bulk load's rows.
    const DB = sqlite3.oo1.DB as unknown as new (filename: string, flags: string) => OoDatabase;
    const engine = new WasmDatabase(sqlite3, new DB(':memory:', 'c'), { name: ':memory:' });
    loadBytes(sqlite3, engine, 'main', fileBytes(file));
    registerSearchFunctions(engine);
    engine.function('now_utc', { deterministic: true }, () => NOW);
    engine.exec("INSERT INTO contacts_fts (contacts_fts) VALUES ('delete-all')");
    // A search now: FTS5 keeps the empty index's structure for this connection, to be read again after the copy.
    expect(match(engine, 'contacts_fts', `"${M}ancis"*`)).toEqual([]);
    const attachBuilt = (schema: string) => {
      engine.exec(`ATTACH ':memory:' AS ${schema}`);
      loadBytes(sqlite3, engine, schema, built);
      return () => engine.exec(`DETACH ${schema}`);
    };
    const attached = () => engine.prepare('SELECT name FROM pragma_database_list ORDER BY seq').pluck().all();
    const contactsIndex = searchIndexesNamed(['contacts_fts']);

    // A failure in the same transaction keeps nothing of the copy, and detaches what it attached.
    expect(() => copySearchIndexesIn(asSqliteDb(engine), attachBuilt, contactsIndex, ['INSERT INTO no_such_table VALUES (1)'])).toThrow(/no such table/);
    expect(match(engine, 'contacts_fts', `"${M}ancis"*`)).toEqual([]);
    expect(attached()).toEqual(['main']);

    copySearchIndexesIn(asSqliteDb(engine), attachBuilt, contactsIndex, ["INSERT INTO replica_settings (name, value) VALUES ('copied', '1')"]);
    expect(attached()).toEqual(['main']);
    expect(engine.prepare("SELECT value FROM replica_settings WHERE name = 'copied'").pluck().get()).toBe('1');
    expect(termsOf(engine, 'main', 'contacts_fts')).toEqual(byTriggers);
    expect(match(engine, 'contacts_fts', `"${M}ancis"*`)).toEqual([1]);
    expect(match(engine, 'contacts_fts', `"${M}7700900123"*`)).toEqual([2]);
    // Written through the index's current structure: a change found, the index whole.
    engine.prepare("UPDATE contacts SET name = 'Wilhelmina Oakes' WHERE id = 1").run();
    expect(match(engine, 'contacts_fts', `"${M}ancis"*`)).toEqual([]);
    expect(match(engine, 'contacts_fts', `"${M}helmin"*`)).toEqual([1]);
    engine.exec("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('integrity-check', 1)");
    engine.close();
  });
});
