import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { asSqliteDb, openDatabase, type Db } from '../../electron/engine/db/database.js';
import { MIGRATIONS, SCHEMA_VERSION } from '../../electron/engine/db/migrations/index.js';

/**
 * Migration 23 rebuilds the named lists' tables to drop their UNIQUE names:
 * on a database of version 22 holding records that name their entries, every
 * row, id, column and reference must survive, and no ON DELETE action may run.
 */

const REBUILT = ['call_outcomes', 'visit_outcomes', 'loss_reasons', 'deal_unqualified_reasons', 'lead_unqualified_reasons', 'sources'];
const NOW = '2026-01-01T00:00:00Z';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A database file at version 22 with a user, a lead naming a lead source and an unqualified reason, a deal naming the deal lists, a call naming an outcome. */
function databaseOfVersion22(): string {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-db-'));
  dirs.push(dir);
  const file = join(dir, 'old.sqlite');
  const raw = new Database(file);
  raw.pragma('foreign_keys = ON');
  // The functions the engine registers, for the triggers that run on these inserts.
  raw.function('now_utc', () => NOW);
  raw.function('phone_terms', { varargs: true }, () => '');
  for (const migration of MIGRATIONS.filter((m) => m.version <= 22)) raw.exec(migration.sql);
  raw.pragma('user_version = 22');
  raw.prepare("INSERT INTO users (id, name, email, role, created_at, updated_at) VALUES (1, 'A', 'a@example.com', 'admin', ?, ?)").run(NOW, NOW);
  const id = (sql: string) => raw.prepare(sql).pluck().get() as number;
  const leadSource = id("SELECT id FROM sources WHERE resource_type = 'lead' LIMIT 1");
  const leadReason = id('SELECT id FROM lead_unqualified_reasons LIMIT 1');
  raw.prepare('INSERT INTO leads (id, creator_id, owner_id, last_name, source_id, unqualified_reason_id, created_at, updated_at) VALUES (1, 1, 1, ?, ?, ?, ?, ?)')
    .run('Kept', leadSource, leadReason, NOW, NOW);
  raw.prepare("INSERT INTO contacts (id, creator_id, owner_id, is_organization, last_name, name, created_at, updated_at) VALUES (1, 1, 1, 0, 'Buyer', 'Buyer', ?, ?)").run(NOW, NOW);
  raw.prepare(`INSERT INTO deals (id, creator_id, owner_id, name, currency, stage_id, contact_id, source_id, loss_reason_id, unqualified_reason_id, dropbox_email, added_on, created_at, updated_at)
    VALUES (1, 1, 1, 'Kept deal', 'EUR', (SELECT MIN(id) FROM stages), 1, (SELECT MIN(id) FROM sources WHERE resource_type = 'deal'),
            (SELECT MIN(id) FROM loss_reasons), (SELECT MIN(id) FROM deal_unqualified_reasons), 'd@x.invalid', '2026-01-01', ?, ?)`).run(NOW, NOW);
  raw.prepare('INSERT INTO calls (id, user_id, creator_id, outcome_id, phone_number, made_at, created_at, updated_at) VALUES (1, 1, 1, (SELECT MIN(id) FROM call_outcomes), ?, ?, ?, ?)').run('+1 555', NOW, NOW, NOW);
  raw.close();
  return file;
}

/** What must survive: every row of the rebuilt tables, their columns, and the references to them. */
function snapshot(db: Db) {
  return {
    rows: Object.fromEntries(REBUILT.map((t) => [t, db.prepare(`SELECT * FROM ${t} ORDER BY id`).all()])),
    columns: Object.fromEntries(REBUILT.map((t) => [t, db.prepare(`PRAGMA table_info(${t})`).all()])),
    references: ['leads', 'deals', 'calls', 'visits'].map((t) => db.prepare(`PRAGMA foreign_key_list(${t})`).all()),
    lead: db.prepare('SELECT source_id, unqualified_reason_id FROM leads').get(),
    deal: db.prepare('SELECT source_id, loss_reason_id, unqualified_reason_id FROM deals').get(),
    call: db.prepare('SELECT outcome_id FROM calls').get(),
  };
}

describe('migration 23: list names unique only for lead sources', () => {
  it('keeps every row, id, column and reference, and runs no ON DELETE action', () => {
    const file = databaseOfVersion22();
    const before = asSqliteDb(new Database(file, { readonly: true }));
    const kept = snapshot(before);
    before.close();
    expect(kept.lead).toEqual({ source_id: expect.any(Number), unqualified_reason_id: expect.any(Number) });

    const db = openDatabase(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    expect(snapshot(db)).toEqual(kept);
    expect(db.pragma('foreign_key_check')).toEqual([]);
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
  });

  it('lets names repeat, except a lead source’s among lead sources', () => {
    const db = openDatabase(databaseOfVersion22());
    for (const table of REBUILT.filter((t) => t !== 'sources')) {
      const add = db.prepare(`INSERT INTO ${table} (name, created_at, updated_at) VALUES ('Twice', ?, ?)`);
      add.run(NOW, NOW);
      expect(() => add.run(NOW, NOW), table).not.toThrow();
    }
    const source = db.prepare('INSERT INTO sources (name, resource_type, created_at, updated_at) VALUES (?, ?, ?, ?)');
    source.run('Twice', 'deal', NOW, NOW);
    expect(() => source.run('Twice', 'deal', NOW, NOW)).not.toThrow();
    source.run('Twice', 'lead', NOW, NOW);
    expect(() => source.run('Twice', 'lead', NOW, NOW)).toThrow(/UNIQUE/);
    db.close();
  });
});
