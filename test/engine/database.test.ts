import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openDatabase, sqliteOf } from '../../electron/engine/db/database.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../electron/engine/db/migrations/index.js';
import { openEngine } from '../../electron/engine/engine.js';
import { phoneDigitsSql, phoneKeySql } from '../../electron/engine/db/phoneKeySql.js';

const dirs: string[] = [];
const tempFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-db-'));
  dirs.push(dir);
  return join(dir, 'test.sqlite');
};
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe('database', () => {
  it('opens in WAL mode with foreign keys and migrates to the current schema version', () => {
    const db = openDatabase(tempFile());
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    db.close();
  });

  it('reopens an existing database without re-running migrations', () => {
    const file = tempFile();
    const first = openDatabase(file);
    first.prepare("INSERT INTO account (id, name, created_at, updated_at) VALUES (1, 'Kept', 'x', 'x')").run();
    first.close();
    const second = openDatabase(file);
    expect(second.prepare('SELECT name FROM account').pluck().get()).toBe('Kept');
    second.close();
  });

  it('gives a new file the page size asked for, and an existing file keeps its own', () => {
    const file = tempFile();
    const created = openDatabase(file, { pageSize: 16384 });
    expect(created.pragma('page_size', { simple: true })).toBe(16384);
    created.close();
    const reopened = openDatabase(file, { pageSize: 8192 });
    expect(reopened.pragma('page_size', { simple: true })).toBe(16384);
    reopened.close();
    const plain = openDatabase(tempFile());
    expect(plain.pragma('page_size', { simple: true })).toBe(4096);
    plain.close();
    // A desktop replica's new file: bigger pages for its first sync's bulk load.
    const replica = openEngine({ dataDir: join(tempFile(), '..'), replica: true });
    expect(sqliteOf(replica.db).pragma('page_size', { simple: true })).toBe(16384);
    replica.close();
  });

  it('refuses a database written by a newer version with a clear message', () => {
    const file = tempFile();
    const raw = new Database(file);
    raw.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    raw.close();
    expect(() => openDatabase(file)).toThrow(/newer version of Outpost/);
  });

  it('keeps migrations additive: no DROP or destructive ALTER in any migration but a rebuild that keeps every row (migration 23 is tested for it)', () => {
    for (const migration of MIGRATIONS.filter((m) => !m.rebuildsTables)) {
      // A search index holds nothing of its own: one dropped is made again and filled from its table in the same migration (32).
      const rest = migration.sql.replace(/\bDROP TABLE (\w+_fts);/g, (_, fts: string) => {
        expect(migration.sql, migration.name).toMatch(new RegExp(`CREATE VIRTUAL TABLE ${fts} USING fts5`));
        expect(migration.sql, migration.name).toMatch(new RegExp(`INSERT INTO ${fts} \\(rowid, [^)]+\\) SELECT`));
        return '';
      });
      expect(rest, migration.name).not.toMatch(/\bDROP\s+(TABLE|COLUMN)\b|\bRENAME\b/i);
    }
  });
});

describe('migration to sync (7)', () => {
  it('gives every existing record its latest revision, and a change-log entry to records that had none', () => {
    const file = tempFile();
    const raw = new Database(file);
    for (const migration of MIGRATIONS.filter((m) => m.version <= 6)) raw.exec(migration.sql);
    raw.pragma('user_version = 6');
    const now = '2026-01-01T00:00:00Z';
    raw.prepare("INSERT INTO account (id, name, created_at, updated_at) VALUES (1, 'Old', ?, ?)").run(now, now);
    raw.prepare("INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES (1, 'A', 'a@example.com', 'admin', ?, ?)").run(now, now);
    raw.prepare("INSERT INTO tasks (id, creator_id, owner_id, content, created_at, updated_at) VALUES (5, 1, 1, 'Kept', ?, ?)").run(now, now);
    const log = raw.prepare("INSERT INTO change_log (resource_type, resource_id, event_type, changed_at) VALUES (?, ?, ?, ?)");
    for (const event of ['created', 'updated']) log.run('task', 5, event, now);
    log.run('user', 1, 'created', now);
    log.run('task', 9, 'deleted', now);
    raw.close();

    const db = openDatabase(file);
    const revision = (type: string, id: number) => db.prepare('SELECT revision FROM record_revisions WHERE resource_type = ? AND resource_id = ?').pluck().get(type, id);
    expect(revision('task', 5)).toBe(2);
    expect(revision('user', 1)).toBe(3);
    expect(revision('task', 9)).toBe(4);
    // The account and the default outcome lists (inserted by earlier migrations) get a 'created' entry.
    expect(revision('account', 1)).toBeGreaterThan(4);
    const outcomes = db.prepare('SELECT COUNT(*) FROM call_outcomes').pluck().get();
    expect(db.prepare("SELECT COUNT(*) FROM record_revisions WHERE resource_type = 'call_outcome'").pluck().get()).toBe(outcomes);
    // From now on the trigger keeps the latest revision.
    db.prepare("INSERT INTO change_log (resource_type, resource_id, event_type, changed_at) VALUES ('task', 5, 'updated', ?)").run(now);
    expect(revision('task', 5)).toBe(db.prepare('SELECT MAX(revision) FROM change_log').pluck().get());
    db.close();
  });
});

describe('change log', () => {
  it('gives every mutation a monotonically increasing revision in the same transaction', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'outpost-eng-'));
    dirs.push(dir);
    const engine = openEngine({ dataDir: dir });
    const userId = await engine.users.create({ email: 'x@example.com', name: 'X', role: 'admin', password: 'long-enough' });
    const actor = { userId, role: 'admin' as const, scopes: new Set(['read', 'write'] as const) };
    const before = engine.ctx.changes.currentRevision();
    const id = engine.contacts.create({ last_name: 'Logged' }, actor);
    engine.contacts.update(id, { title: 'Boss' }, actor);
    engine.contacts.delete(id, actor);
    const rows = engine.db.prepare('SELECT revision, event_type FROM change_log WHERE revision > ? ORDER BY revision').all(before) as { revision: number; event_type: string }[];
    expect(rows.map((r) => r.event_type)).toEqual(['created', 'updated', 'deleted']);
    expect(rows[1].revision).toBeGreaterThan(rows[0].revision);
    // A failing write rolls back the record and its change together.
    expect(() => engine.contacts.create({ last_name: 'Bad', owner_id: 9999 }, actor)).toThrow();
    expect(engine.ctx.changes.currentRevision()).toBe(rows[2].revision);
    engine.close();
  });
});

describe('migration to contentless search indexes (32)', () => {
  it('keeps every row findable, drops the copy of the text, and the triggers keep the indexes current', () => {
    const file = tempFile();
    const raw = new Database(file);
    // As the engine's own (db/database.ts): migrations and triggers call them.
    raw.function('now_utc', () => '2026-01-01T00:00:00Z');
    raw.function('phone_terms', { deterministic: true, varargs: true }, (...phones: unknown[]) =>
      phones.filter((p): p is string => typeof p === 'string' && p.length > 0).map((p) => `${p} ${p.replace(/\D/g, '')}`).join(' '));
    for (const migration of MIGRATIONS.filter((m) => m.version <= 31)) raw.exec(migration.sql);
    raw.pragma('user_version = 31');
    const now = '2026-01-01T00:00:00Z';
    raw.prepare("INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES (1, 'A', 'a@example.com', 'admin', ?, ?)").run(now, now);
    const contact = raw.prepare(`INSERT INTO contacts (id, creator_id, owner_id, name, last_name, email, phone, created_at, updated_at)
      VALUES (?, 1, 1, ?, ?, ?, ?, ?, ?)`);
    for (let i = 1; i <= 300; i++) contact.run(i, `Person Surname${i}`, `Surname${i}`, `p${i}@example.com`, `+1 555 ${String(i).padStart(4, '0')}`, now, now);
    raw.prepare("INSERT INTO tasks (id, creator_id, owner_id, content, created_at, updated_at) VALUES (7, 1, 1, 'Send the pricing sheet', ?, ?)").run(now, now);
    raw.prepare("INSERT INTO leads (id, creator_id, owner_id, first_name, last_name, organization_name, created_at, updated_at) VALUES (3, 1, 1, 'Ada', 'Lovelace', 'Engines Ltd', ?, ?)").run(now, now);
    expect(raw.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_fts_content'").pluck().get()).toBe(5);
    raw.close();

    const db = openDatabase(file);
    const match = (fts: string, query: string) => db.prepare(`SELECT rowid FROM ${fts} WHERE ${fts} MATCH ? ORDER BY rowid`).pluck().all(query);
    expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name LIKE '%_fts_content'").pluck().get()).toBe(0);
    expect(match('contacts_fts', 'surname12*')).toEqual([12, 120, 121, 122, 123, 124, 125, 126, 127, 128, 129]);
    expect(match('contacts_fts', '15550042')).toEqual([42]);
    expect(match('tasks_fts', 'pric*')).toEqual([7]);
    expect(match('leads_fts', 'engines')).toEqual([3]);
    // FTS5's own hash size and merging, back to their defaults after the fill (only the bulk fill uses big segments merged in big steps).
    expect(db.prepare("SELECT v FROM contacts_fts_config WHERE k = 'hashsize'").pluck().get()).toBe(1024 * 1024);
    expect(db.prepare("SELECT v FROM contacts_fts_config WHERE k = 'automerge'").pluck().get()).toBe(4);

    // The triggers, unchanged, delete an entry by its rowid alone.
    db.prepare("UPDATE contacts SET name = 'Renamed Person' WHERE id = 42").run();
    db.prepare('DELETE FROM contacts WHERE id = 43').run();
    expect(match('contacts_fts', 'renamed')).toEqual([42]);
    expect(match('contacts_fts', 'surname42 OR surname43')).toEqual([]);
    for (const fts of ['contacts_fts', 'tasks_fts', 'notes_fts', 'leads_fts', 'deals_fts']) db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('integrity-check', 1)`);
    db.close();
  });
});

describe('migration to one index per phone column (33)', () => {
  it('keeps every phone key as it was, drops the plain phone indexes, and the phone filters and duplicates read the keys', () => {
    const file = tempFile();
    const raw = new Database(file);
    raw.function('now_utc', () => '2026-01-01T00:00:00Z');
    raw.function('phone_terms', { deterministic: true, varargs: true }, () => '');
    for (const migration of MIGRATIONS.filter((m) => m.version <= 32)) raw.exec(migration.sql);
    raw.pragma('user_version = 32');
    const now = '2026-01-01T00:00:00Z';
    raw.prepare("INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES (1, 'A', 'a@example.com', 'admin', ?, ?)").run(now, now);
    // Longer and shorter than nine digits, separators of every kind, letters, empty and missing.
    const phones = ['+1 (555) 123-4567', '555.123.4567', '0044 20/7946 0958', '12345', '123456789', '', null, 'ext. 12', '+33 1 23 45 67 89'];
    const contact = raw.prepare('INSERT INTO contacts (id, creator_id, owner_id, name, phone, mobile, created_at, updated_at) VALUES (?, 1, 1, ?, ?, ?, ?, ?)');
    const lead = raw.prepare('INSERT INTO leads (id, creator_id, owner_id, last_name, phone, mobile, created_at, updated_at) VALUES (?, 1, 1, ?, ?, ?, ?, ?)');
    phones.forEach((phone, i) => {
      contact.run(i + 1, `Person ${i}`, phone, phones[phones.length - 1 - i], now, now);
      lead.run(i + 1, `Lead ${i}`, phone, phones[phones.length - 1 - i], now, now);
    });
    // Each row's key as migration 30's expression computes it, and (after the migration) as the new one does.
    const keysSql = (key: 'old' | 'new') => ['contacts', 'leads'].flatMap((table) => ['phone', 'mobile'].map((column) => {
      const digits = phoneDigitsSql(column);
      const expression = key === 'old' ? `substr(${digits}, max(1, length(${digits}) - 8))` : phoneKeySql(column);
      return `SELECT '${table}.${column}' AS col, id, ${expression} AS k FROM ${table}`;
    })).join(' UNION ALL ') + ' ORDER BY col, id';
    const before = raw.prepare(keysSql('old')).all();
    raw.close();

    const db = openDatabase(file);
    const indexes = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND (name LIKE '%phone%' OR name LIKE '%mobile%') ORDER BY name").pluck().all();
    expect(indexes).toEqual(['contacts_mobile_key', 'contacts_phone_key', 'leads_mobile_key', 'leads_phone_key']);
    expect(db.prepare(keysSql('new')).all()).toEqual(before);
    expect(before).toContainEqual({ col: 'contacts.phone', id: 1, k: '551234567' });
    expect(before).toContainEqual({ col: 'contacts.phone', id: 4, k: '12345' });

    // What the lists' phone filters and the duplicate finder ask, answered from the keys' indexes.
    const plan = (sql: string, ...params: string[]) => (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as { detail: string }[]).map((row) => row.detail).join(' | ');
    const filter = (table: string, column: string) => `SELECT id FROM ${table} WHERE ${phoneKeySql(column)} = ${phoneKeySql('?')} AND ${column} = ?`;
    expect(plan(filter('contacts', 'phone'), '1', '1')).toMatch(/USING (COVERING )?INDEX contacts_phone_key/);
    expect(plan(filter('leads', 'mobile'), '1', '1')).toMatch(/USING (COVERING )?INDEX leads_mobile_key/);
    expect(db.prepare(filter('contacts', 'phone')).pluck().all('555.123.4567', '555.123.4567')).toEqual([2]);
    expect(plan(`SELECT id FROM contacts WHERE ${phoneKeySql('mobile')} = ?`, '1')).toMatch(/USING (COVERING )?INDEX contacts_mobile_key/);
    db.close();
  });
});

describe('migration to people or organizations by name (34)', () => {
  it('lists a kind of contacts by name walking one index, with no sort', () => {
    const db = openDatabase(tempFile());
    const now = '2026-01-01T00:00:00Z';
    db.prepare("INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES (1, 'A', 'a@example.com', 'admin', ?, ?)").run(now, now);
    const contact = db.prepare('INSERT INTO contacts (id, creator_id, owner_id, is_organization, name, last_name, created_at, updated_at) VALUES (?, 1, 1, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let i = 1; i <= 2000; i++) contact.run(i, i % 10 === 0 ? 1 : 0, `Name ${String(2000 - i).padStart(4, '0')}`, `Last ${i}`, now, now);
    })();
    // With the statistics the engine keeps (PRAGMA optimize at open), as a hub or replica has them.
    db.exec('ANALYZE');
    // The contacts list's page of ids (resources/listing.ts), as the screen asks it: a kind, by name.
    const page = 'SELECT c.id FROM contacts c WHERE c.is_organization = ? ORDER BY c.name ASC, c.id ASC LIMIT ? OFFSET ?';
    const plan = (db.prepare(`EXPLAIN QUERY PLAN ${page}`).all(0, 100, 0) as { detail: string }[]).map((row) => row.detail).join(' | ');
    expect(plan).toMatch(/USING (COVERING )?INDEX contacts_kind_name/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
    const ids = db.prepare(page).pluck().all(1, 3, 0);
    expect(ids).toEqual([2000, 1990, 1980]);
    db.close();
  });
});
