import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ignoresConflicts, toPostgres, type Schema } from '../../electron/engine/db/postgres/dialect.js';
import { PostgresDatabase, PostgresStatement } from '../../electron/engine/db/postgres/database.js';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * The translation of the engine's SQLite statements for PostgreSQL
 * (db/postgres/dialect.ts): each rule on its own, then every statement an
 * engine prepares when it opens, checked by PostgreSQL itself (PREPARE parses
 * and types a statement without running it), so a SQLite-only spelling fails
 * here rather than on a hub.
 */
const schema: Schema = new Map([
  ['contacts', { primaryKey: ['id'], returning: 'id' }],
  ['change_log', { primaryKey: ['revision'], returning: 'revision' }],
  ['replica_settings', { primaryKey: ['name'], returning: null }],
]);
const pg = (sql: string) => toPostgres(sql, schema).replace(/\s+/g, ' ').trim();

describe('SQLite statements as PostgreSQL runs them', () => {
  it('renames the JSON functions and keeps [] for an empty group', () => {
    expect(pg("SELECT json_object('a', c.id, 'b', json_array(1, 2)) FROM contacts c")).toBe("SELECT json_build_object('a', c.id, 'b', json_build_array(1, 2)) FROM contacts c");
    expect(pg('SELECT json_group_array(t.name) FROM tags t')).toBe("SELECT coalesce(json_agg(t.name), '[]'::json) FROM tags t");
    expect(pg('SELECT json(c.custom_fields), ifnull(c.a, 0) FROM contacts c')).toBe('SELECT CAST(c.custom_fields AS json), coalesce(c.a, 0) FROM contacts c');
  });

  it('turns several-argument max and min into greatest and least, and leaves the aggregates', () => {
    expect(pg('SELECT MAX((SELECT MAX(id) FROM contacts), ?) + 1, min(a, b), min(c) FROM t')).toBe('SELECT greatest((SELECT MAX(id) FROM contacts), ?) + 1, least(a, b), min(c) FROM t');
  });

  it('turns substr from a negative start into right, and leaves other starts to substr', () => {
    // SQLite's substr('5551234567', -9) is the last nine characters; PostgreSQL's would be the whole text.
    expect(pg("SELECT substr(replace(c.phone, '+', ''), -9), substr(name, 2), substr(name, - 3), substr(name, -n) FROM contacts c"))
      .toBe("SELECT right(replace(c.phone, '+', ''), 9), substr(name, 2), right(name, 3), substr(name, -n) FROM contacts c");
  });

  it('makes conditions booleans, LIKE case-blind and IS a comparison of any two values', () => {
    expect(pg("SELECT CASE WHEN c.is_organization THEN 'true' ELSE 'false' END, CASE c.kind WHEN 'a' THEN 1 END FROM contacts c"))
      .toBe("SELECT CASE WHEN truth( c.is_organization ) THEN 'true' ELSE 'false' END, CASE c.kind WHEN 'a' THEN 1 END FROM contacts c");
    expect(pg("SELECT 1 FROM t WHERE a LIKE ? ESCAPE '\\' AND b IS ? AND c IS NOT @x AND d IS NOT NULL"))
      .toBe("SELECT 1 FROM t WHERE a ILIKE ? ESCAPE '\\' AND b IS NOT DISTINCT FROM ? AND c IS DISTINCT FROM @x AND d IS NOT NULL");
  });

  it('casts to 64-bit integers and double precision', () => {
    expect(pg('SELECT CAST(a AS INTEGER), CAST(b AS REAL), CAST(c AS TEXT) FROM t')).toBe('SELECT CAST(a AS bigint), CAST(b AS double precision), CAST(c AS TEXT) FROM t');
  });

  it('spells INSERT OR IGNORE and OR REPLACE as upserts, and returns an inserted integer key', () => {
    expect(pg('INSERT OR IGNORE INTO contacts (id, name) VALUES (?, ?)')).toBe('INSERT INTO contacts (id, name) VALUES (?, ?) ON CONFLICT DO NOTHING RETURNING id');
    expect(pg('INSERT OR REPLACE INTO replica_settings (name, value) VALUES (?, ?);')).toBe('INSERT INTO replica_settings (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value');
    expect(pg('INSERT INTO change_log (resource_type) VALUES (?)')).toBe('INSERT INTO change_log (resource_type) VALUES (?) RETURNING revision');
    expect(pg('INSERT OR IGNORE INTO contacts (name) VALUES (?) RETURNING name')).toBe('INSERT INTO contacts (name) VALUES (?) ON CONFLICT DO NOTHING RETURNING name');
    expect(pg('UPDATE OR IGNORE taggings SET tag_id = ? WHERE tag_id = ?')).toBe('UPDATE taggings SET tag_id = ? WHERE tag_id = ?');
    expect(ignoresConflicts('UPDATE OR IGNORE taggings SET tag_id = ?')).toBe(true);
    expect(() => pg('INSERT OR REPLACE INTO unknown_table (a) VALUES (?)')).toThrow(/primary key/);
  });

  it('places NULLs as SQLite does: first ascending, last descending (ids, never NULL, as the primary keys have them)', () => {
    expect(pg('SELECT 1 FROM contacts c ORDER BY c.last_name DESC, c.id DESC')).toBe('SELECT 1 FROM contacts c ORDER BY c.last_name DESC NULLS LAST, c.id DESC');
    expect(pg('SELECT a FROM t WHERE x IN (SELECT y FROM z ORDER BY y DESC LIMIT 2) ORDER BY a COLLATE NOCASE, b DESC, c NULLS LAST LIMIT ? OFFSET ?'))
      .toBe('SELECT a FROM t WHERE x IN (SELECT y FROM z ORDER BY y DESC NULLS LAST LIMIT 2) ORDER BY a COLLATE NOCASE NULLS FIRST, b DESC NULLS LAST, c NULLS LAST LIMIT ? OFFSET ?');
  });

  it('names subqueries in FROM, reads sqlite_schema from the catalog and matches search tables', () => {
    expect(pg('SELECT count(*) FROM (SELECT 1 FROM t)')).toMatch(/^SELECT count\(\*\) FROM \(SELECT 1 FROM t\) AS subquery_\d+$/);
    expect(pg("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?")).toContain('information_schema.tables');
    expect(pg('SELECT rowid FROM notes_fts WHERE notes_fts MATCH ? ORDER BY rowid DESC')).toBe('SELECT id FROM notes_fts WHERE notes_fts.terms @@ fts_query(?) ORDER BY id DESC');
    expect(pg('SELECT c.id FROM oauth_clients c ORDER BY c.created_at, c.rowid')).toBe('SELECT c.id FROM oauth_clients c ORDER BY c.created_at NULLS FIRST, c.ctid');
  });

  it('leaves quoted text, quoted names and comments alone', () => {
    expect(pg(`SELECT 'json_object( LIKE ?', "max" FROM t -- json_object(\n`)).toBe(`SELECT 'json_object( LIKE ?', "max" FROM t`);
  });
});

const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL statement checks skipped: ${missing}`);

describe.skipIf(missing !== null)('every statement an engine prepares as it opens', () => {
  let cluster: PostgresCluster;
  let engine: Engine;
  const prepared = new Map<string, PostgresStatement>();
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-dialect-'));
  beforeAll(async () => {
    cluster = await startPostgresCluster();
    // Records what the engine prepares (prepare only translates; nothing reaches PostgreSQL until a statement runs).
    const original = PostgresDatabase.prototype.prepare;
    PostgresDatabase.prototype.prepare = function record(this: PostgresDatabase, sql: string) {
      const statement = original.call(this, sql);
      prepared.set(sql, statement);
      return statement;
    };
    try {
      engine = openEngine({ dataDir, databaseUrl: cluster.url, runSequences: false });
    } finally {
      PostgresDatabase.prototype.prepare = original;
    }
  });
  afterAll(async () => {
    engine?.close();
    cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('is accepted by PostgreSQL: parsed, its columns found and its parameters typed', () => {
    const db = engine.db as PostgresDatabase;
    const refused: string[] = [];
    for (const [sql, statement] of prepared) {
      const { text } = (statement as unknown as { compiled: { text: string } }).compiled;
      if (/^\s*(BEGIN|COMMIT|ROLLBACK|END)\b/i.test(text)) continue;
      try {
        db.query(`PREPARE outpost_check AS ${text}`);
        db.query('DEALLOCATE outpost_check');
      } catch (err) {
        refused.push(`${(err as Error).message}\n  in: ${sql.replace(/\s+/g, ' ').slice(0, 300)}`);
      }
    }
    expect(refused).toEqual([]);
    // The services' own statements (about a hundred today): the check saw them, not an empty list.
    expect(prepared.size).toBeGreaterThan(80);
  });
});
