import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, SchemaTooNewError, type SqliteDb } from '../../electron/engine/db/database.js';
import { SCHEMA_VERSION } from '../../electron/engine/db/migrations/index.js';
import { migratePostgres, POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from '../../electron/engine/db/postgres/schema.js';
import { HUB_WRITE_LOCK, PostgresDatabase } from '../../electron/engine/db/postgres/database.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * PostgreSQL's migrations against SQLite's (docs/design/postgres-hub.md):
 * the PostgreSQL schema must be the SQLite one, table by table, with the agreed
 * type mapping, or the engine's statements would mean different things on the
 * two backends; and it must start with the rows SQLite's migrations insert, with
 * their ids, its identities numbering past them. Also how migratePostgres
 * behaves when hub nodes start together.
 * On a real throwaway cluster and a real freshly migrated SQLite file.
 */
it('has a PostgreSQL migration for every SQLite schema version', () => {
  // A new SQLite migration without its PostgreSQL counterpart fails here.
  expect(POSTGRES_SCHEMA_VERSION).toBe(SCHEMA_VERSION);
  const versions = POSTGRES_MIGRATIONS.map((m) => m.version);
  expect(versions).toEqual([...versions].sort((a, b) => a - b));
  expect(new Set(versions).size).toBe(versions.length);
});

const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL schema tests skipped: ${missing}`);

const SCHEMA_TABLE = 'outpost_schema';

describe.skipIf(missing !== null)('the PostgreSQL schema', () => {
  let cluster: PostgresCluster;
  let dir: string;
  let sqlite: SqliteDb;
  const open: PostgresDatabase[] = [];

  beforeAll(async () => {
    cluster = await startPostgresCluster();
    dir = mkdtempSync(join(tmpdir(), 'outpost-parity-'));
    sqlite = openDatabase(join(dir, 'hub.db'));
  });
  afterAll(async () => {
    for (const db of open) await db.close();
    sqlite?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
    cluster?.stop();
  });

  /** A new empty database in the cluster, and its URL. */
  function freshDatabase(name: string): string {
    cluster.sql(`CREATE DATABASE ${name}`);
    return cluster.url.replace(/\/postgres$/, `/${name}`);
  }
  function connect(url: string): PostgresDatabase {
    const db = new PostgresDatabase(url);
    open.push(db);
    return db;
  }
  // PostgreSQL's own SQL goes through query(), not prepare() (which translates the engine's SQLite SQL).
  const version = (db: PostgresDatabase) => db.query(`SELECT version FROM ${SCHEMA_TABLE}`).rows.map((r) => r.version);
  const catalog = (db: PostgresDatabase) =>
    db.query("SELECT string_agg(relname || ':' || relkind::text, ',' ORDER BY relname) AS objects FROM pg_class WHERE relnamespace = 'public'::regnamespace").rows[0].objects;

  describe('migratePostgres', () => {
    it('brings an empty database to the current version, and a second run changes nothing', () => {
      const db = connect(freshDatabase('once'));
      migratePostgres(db);
      expect(version(db)).toEqual([POSTGRES_SCHEMA_VERSION]);
      const before = catalog(db);
      migratePostgres(db);
      expect(version(db)).toEqual([POSTGRES_SCHEMA_VERSION]);
      expect(catalog(db)).toBe(before);
    });

    it('refuses a database written by a newer version', () => {
      const db = connect(freshDatabase('newer'));
      migratePostgres(db);
      db.query(`UPDATE ${SCHEMA_TABLE} SET version = $1`, [POSTGRES_SCHEMA_VERSION + 1]);
      expect(() => migratePostgres(db)).toThrow(SchemaTooNewError);
    });

    it('runs the baseline once when two hub nodes start together on an empty database', async () => {
      const url = freshDatabase('race');
      // Holds the hub's write lock while both nodes start, so both find the database empty and then
      // queue on the lock: the first to get it runs the baseline, the second must then see it and skip.
      const holder = new pg.Client({ connectionString: url });
      await holder.connect();
      try {
        await holder.query('SELECT pg_advisory_lock($1)', [HUB_WRITE_LOCK]);
        const nodes = [migrateInAnotherProcess(url, dir, 'first'), migrateInAnotherProcess(url, dir, 'second')];
        await vi.waitFor(async () => {
          const { rows } = await holder.query("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted");
          expect(rows[0].n).toBe(2);
        }, { timeout: 60_000, interval: 50 });
        await holder.query('SELECT pg_advisory_unlock($1)', [HUB_WRITE_LOCK]);
        // A second baseline would have failed on "relation already exists" and ended its process with an error.
        const ended = await Promise.all(nodes);
        expect(ended.map((node) => node.code), ended.map((node) => node.stderr).join('\n')).toEqual([0, 0]);
      } finally {
        await holder.end();
      }
      const db = connect(url);
      expect(version(db)).toEqual([POSTGRES_SCHEMA_VERSION]);
      expect(catalog(db)).toBe(catalog(parity()));
    }, 120_000);
  });

  let parityDb: PostgresDatabase | undefined;
  /** A database migrated once, shared by the comparisons below. */
  function parity(): PostgresDatabase {
    if (!parityDb) {
      parityDb = connect(freshDatabase('parity'));
      migratePostgres(parityDb);
    }
    return parityDb;
  }

  describe('parity with SQLite', () => {
    it('has every SQLite table, and no other but its version table', () => {
      const pgTables = parity().query("SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename").rows.map((r) => r.tablename as string);
      const sqliteNames = sqliteTables(sqlite).map((t) => t.name).sort();
      expect(pgTables.filter((t) => !sqliteNames.includes(t)), 'tables only on PostgreSQL').toEqual([SCHEMA_TABLE]);
      expect(sqliteNames.filter((t) => !pgTables.includes(t)), 'tables missing on PostgreSQL').toEqual([]);
    });

    it('has the same columns, types, NOT NULL, defaults, keys, unique sets and CHECK counts in every table', () => {
      const differences = sqliteTables(sqlite).flatMap((t) => compareTable(sqlite, parity(), t.name, t.sql));
      expect(differences).toEqual([]);
    });

    it('has every SQLite index by name, on the same columns, as unique and as partial', () => {
      const differences = sqliteTables(sqlite).flatMap((t) => compareIndexes(sqlite, parity(), t.name, nocaseColumns(t.sql)));
      expect(differences).toEqual([]);
    });

    // Runs before 'on PostgreSQL' below adds rows to the same database.
    it('has the rows of a fresh SQLite hub in every table, with their ids, each time the migration\'s in the engine\'s shape', () => {
      const tables = sqliteTables(sqlite).map((t) => t.name);
      const sqliteRows = Object.fromEntries(tables.map((t) => [t, tableRows(t, primaryKey(sqlite, t), (sql) => sqlite.prepare(sql).all() as Row[])]));
      const pgTimes = new Set<string>();
      const pgRows = Object.fromEntries(tables.map((t) => [t, tableRows(t, primaryKey(sqlite, t), (sql) => parity().query(sql).rows, pgTimes)]));
      expect(Object.values(sqliteRows).flat().length, 'SQLite\'s migrations insert rows').toBeGreaterThan(0);
      expect(pgRows).toEqual(sqliteRows);
      // One time for all, the migration's own: none written into the baseline when it was generated.
      expect(pgTimes.size).toBe(1);
      expect(POSTGRES_MIGRATIONS[0].sql).not.toMatch(/'\d{4}-\d{2}-\d{2}T/);
    });
  });

  describe('after the baseline', () => {
    let db: PostgresDatabase;
    beforeAll(() => {
      db = connect(freshDatabase('numbering'));
      migratePostgres(db);
    });
    const sqliteMax = (table: string, column: string) => sqlite.prepare(`SELECT coalesce(max(${column}), 0) FROM ${table}`).pluck().get() as number;

    it('has every identity past its table\'s highest value', () => {
      const identities = db.query("SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public' AND is_identity = 'YES' ORDER BY table_name").rows as { table_name: string; column_name: string }[];
      expect(identities.length).toBeGreaterThan(0);
      const behind = identities.flatMap(({ table_name: table, column_name: column }) => {
        const [sequence] = db.query('SELECT pg_get_serial_sequence($1, $2) AS name', [table, column]).rows;
        const [state] = db.query(`SELECT last_value, is_called FROM ${sequence.name as string}`).rows as { last_value: number; is_called: number }[];
        const next = state.is_called ? state.last_value + 1 : state.last_value;
        const [{ highest }] = db.query(`SELECT coalesce(max(${column}), 0) AS highest FROM ${table}`).rows as { highest: number }[];
        return next > highest ? [] : [`${table}.${column}: next value ${next}, highest ${highest}`];
      });
      expect(behind).toEqual([]);
    });

    it('logs the next change with the revision after SQLite\'s last (42 at schema 26), and numbers a new stage after the seeded ones', () => {
      const now = '2026-11-25T00:00:00Z';
      const [change] = db.query('INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at) VALUES ($1, $2, $3, $4, $5) RETURNING revision',
        ['stage', 8, 'created', null, now]).rows;
      expect(change.revision).toBe(sqliteMax('change_log', 'revision') + 1);
      const [stage] = db.query("INSERT INTO stages (pipeline_id, name, category, position, likelihood, active, created_at, updated_at) VALUES (1, 'Negotiation', 'in_progress', 8, 90, 1, $1, $1) RETURNING id", [now]).rows;
      expect(stage.id).toBe(sqliteMax('stages', 'id') + 1);
    });
  });

  describe('on PostgreSQL', () => {
    it('gives a row inserted without an id the next one, and keeps an id given', () => {
      const db = parity();
      const now = '2026-11-25T00:00:00Z';
      const [user] = db.query("INSERT INTO users (name, email, role, created_at, updated_at) VALUES ('Ada', 'ada@example.com', 'admin', $1, $1) RETURNING id", [now]).rows;
      expect(user.id).toBeGreaterThan(0);
      const insertContact = 'INSERT INTO contacts (creator_id, owner_id, name, created_at, updated_at) VALUES ($1, $1, $2, $3, $3) RETURNING id';
      const [first] = db.query(insertContact, [user.id, 'Grace', now]).rows;
      const [second] = db.query(insertContact, [user.id, 'Linus', now]).rows;
      expect(first.id).toBeGreaterThan(0);
      expect(second.id).toBe((first.id as number) + 1);
      expect(db.query('SELECT name, is_organization, custom_fields FROM contacts WHERE id = $1', [first.id]).rows).toEqual([{ name: 'Grace', is_organization: 0, custom_fields: '{}' }]);
      // BY DEFAULT: an id given (the engine's own, or one copied from a SQLite hub) is kept.
      expect(db.query("INSERT INTO contacts (id, creator_id, owner_id, name, created_at, updated_at) VALUES (5000, $1, $1, 'Copied', '', '') RETURNING id", [user.id]).rows).toEqual([{ id: 5000 }]);
    });

    it('compares users.email without case: found in any case, refused as a duplicate in another', () => {
      const db = parity();
      expect(db.query('SELECT name FROM users WHERE email = $1', ['ADA@Example.COM']).rows).toEqual([{ name: 'Ada' }]);
      expect(() => db.query("INSERT INTO users (name, email, role, created_at, updated_at) VALUES ('Other', 'Ada@Example.com', 'user', '', '')"))
        .toThrow(/duplicate key value violates unique constraint "users_email_key"/);
    });
  });
});

type Row = Record<string, unknown>;

const ISO_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

/**
 * A table's rows in primary key order (the same SQL on both databases), each time
 * (the engine's ISO text) as '<time>', added to `times`: the rows' times are when each
 * database was migrated; a time in another shape stays as it is, to show in the difference.
 */
function tableRows(table: string, key: string[], all: (sql: string) => Row[], times = new Set<string>()): Row[] {
  const order = key.length > 0 ? key.join(', ') : '1';
  const masked = (value: unknown) => {
    if (typeof value !== 'string' || !ISO_TIME.test(value)) return value;
    times.add(value);
    return '<time>';
  };
  return all(`SELECT * FROM ${table} ORDER BY ${order}`).map((row) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, masked(value)])));
}

/** Runs migratePostgres in a process of its own (another hub node), with its own connection. */
function migrateInAnotherProcess(url: string, dir: string, name: string): Promise<{ code: number | null; stderr: string }> {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const module = (path: string) => JSON.stringify(pathToFileURL(join(root, path)).href);
  // A file, not --eval: the bridge's worker inherits the process's flags, and --input-type=module would make it ESM.
  const program = join(dir, `${name}.mts`);
  writeFileSync(program, `
    import { PostgresDatabase } from ${module('electron/engine/db/postgres/database.ts')};
    import { migratePostgres } from ${module('electron/engine/db/postgres/schema.ts')};
    const db = new PostgresDatabase(${JSON.stringify(url)});
    try { migratePostgres(db); } finally { await db.close(); }`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', program], { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stderr }));
  });
}

// ---- SQLite's schema, read from the file ----

interface SqliteColumn { name: string; type: string; notnull: number; dflt_value: string | null; pk: number }
interface SqliteForeignKey { id: number; table: string; from: string; to: string | null; on_delete: string }
interface SqliteIndex { name: string; unique: number; origin: string; partial: number }
interface SqliteIndexColumn { name: string | null; cid: number; coll: string; key: number }

/** SQLite's tables, without its own (sqlite_*), the FTS5 tables and their shadow tables. */
function sqliteTables(db: SqliteDb): { name: string; sql: string }[] {
  const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'").all() as { name: string; sql: string }[];
  const fts = tables.filter((t) => /^CREATE VIRTUAL TABLE/i.test(t.sql)).map((t) => t.name);
  const shadow = (name: string) => fts.some((f) => /^_(data|idx|content|docsize|config)$/.test(name.slice(f.length)) && name.startsWith(f));
  return tables.filter((t) => !fts.includes(t.name) && !shadow(t.name));
}

/** The columns declared COLLATE NOCASE: their definitions, split at the top-level commas of CREATE TABLE. */
function nocaseColumns(createSql: string): Set<string> {
  const body = createSql.slice(createSql.indexOf('(') + 1, createSql.lastIndexOf(')')).replace(/--[^\n]*/g, '');
  const definitions: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of body.replace(/'(?:[^']|'')*'/g, "''")) {
    if (ch === '(') depth++;
    if (ch === ')') depth--;
    if (ch === ',' && depth === 0) {
      definitions.push(current);
      current = '';
    } else current += ch;
  }
  definitions.push(current);
  return new Set(definitions.filter((d) => /\bCOLLATE\s+NOCASE\b/i.test(d)).map((d) => /^\s*["`]?(\w+)/.exec(d)![1]));
}

/** The agreed mapping (see electron/engine/db/postgres/schema.ts), from a SQLite declared type to format_type()'s name. */
function expectedType(declared: string, nocase: boolean): string {
  const type = declared.toUpperCase();
  if (type === 'INTEGER') return 'bigint';
  if (type === 'TEXT' || type === '') return nocase ? 'citext' : 'text';
  if (type === 'REAL') return 'double precision';
  if (type === 'BLOB') return 'bytea';
  if (type === 'NUMERIC') return 'numeric';
  return `(no mapping for SQLite's ${declared})`;
}

const ON_DELETE: Record<string, string> = { a: 'NO ACTION', r: 'RESTRICT', c: 'CASCADE', n: 'SET NULL', d: 'SET DEFAULT' };

function sqliteForeignKeys(db: SqliteDb, table: string): string[] {
  const rows = db.prepare('SELECT id, "table", "from", "to", on_delete FROM pragma_foreign_key_list(?) ORDER BY id, seq').all(table) as SqliteForeignKey[];
  const ids = [...new Set(rows.map((r) => r.id))];
  return ids.map((id) => {
    const parts = rows.filter((r) => r.id === id);
    const target = parts[0].table;
    // No column named: the referenced table's primary key.
    const to = parts[0].to === null ? primaryKey(db, target) : parts.map((p) => p.to!);
    return `(${parts.map((p) => p.from).join(', ')}) → ${target}(${to.join(', ')}) ON DELETE ${parts[0].on_delete}`;
  }).sort();
}

function primaryKey(db: SqliteDb, table: string): string[] {
  return (db.prepare('SELECT name, pk FROM pragma_table_info(?) WHERE pk > 0 ORDER BY pk').all(table) as SqliteColumn[]).map((c) => c.name);
}

/**
 * An index's key columns as pgIndexes names them: NOCASE on a plain text column is PostgreSQL's collation `nocase`, on citext nothing;
 * an expression (the duplicate keys of migration 30) as `sameExpression` writes it, from the index's CREATE statement.
 */
function sqliteIndexColumns(db: SqliteDb, index: string, nocase: Set<string>): string[] {
  const sql = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'index' AND name = ?").pluck().get(index) as string | null) ?? '';
  const parts = topLevelParts(keyList(sql));
  return (db.prepare('SELECT name, cid, coll, "key" FROM pragma_index_xinfo(?) WHERE "key" = 1 ORDER BY seqno').all(index) as SqliteIndexColumn[]).map((c, i) => {
    if (c.cid < 0 || c.name === null) return sameExpression(parts[i] ?? '');
    return c.coll.toUpperCase() === 'NOCASE' && !nocase.has(c.name) ? `${c.name} COLLATE nocase` : c.name;
  });
}

/** The key list of a CREATE INDEX statement: what its parentheses after ON hold (a WHERE clause after it may have parentheses too). */
function keyList(sql: string): string {
  const open = sql.indexOf('(', sql.search(/\sON\s/i));
  let depth = 0;
  for (let i = open; i < sql.length; i++) {
    if (sql[i] === '(') depth++;
    else if (sql[i] === ')' && --depth === 0) return sql.slice(open + 1, i);
  }
  return '';
}

/** A key list split at its commas outside parentheses and quotes: `lower(trim(a)), b` → [`lower(trim(a))`, `b`]. */
function topLevelParts(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quoted = false;
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const ch = list[i];
    if (ch === "'") quoted = !quoted;
    else if (!quoted && ch === '(') depth++;
    else if (!quoted && ch === ')') depth--;
    else if (!quoted && depth === 0 && ch === ',') {
      parts.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  parts.push(list.slice(start).trim());
  return parts;
}

/**
 * An index expression in one spelling for both databases: PostgreSQL prints
 * `lower(TRIM(BOTH FROM name))` with casts (`''::text`), `GREATEST` and the
 * parentheses of its own precedence, for SQLite's `lower(trim(name))` and `max`;
 * and `right(x, 9)` for SQLite's `substr(x, -9)` (the phone keys, migration 33).
 * Case, casts, spaces and parentheses go; what is left names the same functions
 * on the same columns in the same order.
 */
function sameExpression(expression: string): string {
  if (!expression.includes('(')) return expression;
  const words = expression.toLowerCase().replace(/::[a-z ]+?(?=[,)|\s]|$)/g, '').replace(/trim\(both from /g, 'trim(').replace(/greatest\(/g, 'max(')
    .replace(/^right\((.*),\s*(\d+)\)$/, 'substr($1, -$2)');
  return `expression ${words.replace(/[()\s]/g, '')}`;
}

// ---- PostgreSQL's schema, read from its catalog ----

// Booleans are read as integers (::int), whatever the bridge makes of PostgreSQL's booleans.
interface PgColumn { name: string; type: string; not_null: number; identity: string; default: string | null }
interface PgConstraint { contype: string; columns: string; ref_table: string; ref_columns: string | null; confdeltype: string }
interface PgIndex { name: string; unique: number; primary: number; partial: number; columns: string }

function pgColumns(db: PostgresDatabase, table: string): PgColumn[] {
  return db.query(`SELECT a.attname AS name, format_type(a.atttypid, a.atttypmod) AS type, a.attnotnull::int AS not_null,
      a.attidentity AS identity, pg_get_expr(d.adbin, d.adrelid) AS "default"
    FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
    WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`, [table]).rows as unknown as PgColumn[];
}

function pgConstraints(db: PostgresDatabase, table: string): PgConstraint[] {
  const names = (keys: string, relation: string) => `(SELECT string_agg(a.attname::text, ', ' ORDER BY k.n) FROM unnest(${keys}) WITH ORDINALITY k(attnum, n)
      JOIN pg_attribute a ON a.attrelid = ${relation} AND a.attnum = k.attnum)`;
  return db.query(`SELECT contype, ${names('conkey', 'conrelid')} AS columns, confrelid::regclass::text AS ref_table,
      ${names('confkey', 'confrelid')} AS ref_columns, confdeltype
    FROM pg_constraint WHERE conrelid = $1::regclass`, [table]).rows as unknown as PgConstraint[];
}

function pgIndexes(db: PostgresDatabase, table: string): PgIndex[] {
  return db.query(`SELECT c.relname AS name, i.indisunique::int AS "unique", i.indisprimary::int AS "primary", (i.indpred IS NOT NULL)::int AS partial,
      (SELECT string_agg(replace(pg_get_indexdef(i.indexrelid, k, true), '"', '')
          || coalesce((SELECT ' COLLATE ' || collname FROM pg_collation WHERE oid = i.indcollation[k - 1] AND collname <> 'default'), ''),
        ', ' ORDER BY k) FROM generate_series(1, i.indnkeyatts) k) AS columns
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = $1::regclass`, [table]).rows as unknown as PgIndex[];
}

/** A default as PostgreSQL prints it, without its casts: 'USD'::text → 'USD'. */
const bareDefault = (expression: string | null) => expression?.replace(/::[a-z ]+$/, '') ?? null;

// ---- the comparisons: each difference a sentence naming the table ----

function compareTable(db: SqliteDb, pgDb: PostgresDatabase, table: string, createSql: string): string[] {
  const differences: string[] = [];
  const columns = db.prepare('SELECT name, type, "notnull", dflt_value, pk FROM pragma_table_info(?)').all(table) as SqliteColumn[];
  const pgCols = pgColumns(pgDb, table);
  if (pgCols.length === 0) return [`${table}: no such table on PostgreSQL`];
  const names = (list: { name: string }[]) => list.map((c) => c.name).join(', ');
  if (names(columns) !== names(pgCols)) differences.push(`${table}: columns are (${names(pgCols)}) on PostgreSQL, (${names(columns)}) on SQLite`);
  const nocase = nocaseColumns(createSql);
  const keys = primaryKey(db, table);
  const foreignKeyColumns = new Set((db.prepare('SELECT "from" FROM pragma_foreign_key_list(?)').pluck().all(table) as string[]));
  for (const column of columns) {
    const pgColumn = pgCols.find((c) => c.name === column.name);
    if (!pgColumn) continue;
    const where = `${table}.${column.name}`;
    const type = expectedType(column.type, nocase.has(column.name));
    if (pgColumn.type !== type) differences.push(`${where}: type is ${pgColumn.type}, SQLite's ${column.type || '(none)'} maps to ${type}`);
    // A one-column INTEGER PRIMARY KEY is SQLite's rowid: PostgreSQL numbers it with an identity (not when it is also a foreign key).
    const identity = keys.length === 1 && keys[0] === column.name && column.type.toUpperCase() === 'INTEGER' && !foreignKeyColumns.has(column.name);
    if ((pgColumn.identity === 'd') !== identity) differences.push(`${where}: ${identity ? 'is not' : 'is'} GENERATED BY DEFAULT AS IDENTITY`);
    const notNull = column.notnull === 1 || column.pk > 0;
    if ((pgColumn.not_null === 1) !== notNull) differences.push(`${where}: ${notNull ? 'allows NULL, SQLite does not' : 'is NOT NULL, SQLite allows NULL'}`);
    if (bareDefault(pgColumn.default) !== column.dflt_value) differences.push(`${where}: default is ${pgColumn.default ?? 'none'}, SQLite's is ${column.dflt_value ?? 'none'}`);
  }
  const constraints = pgConstraints(pgDb, table);
  const pgKey = constraints.find((c) => c.contype === 'p')?.columns ?? '';
  if (pgKey !== keys.join(', ')) differences.push(`${table}: primary key is (${pgKey}) on PostgreSQL, (${keys.join(', ')}) on SQLite`);
  const pgForeign = constraints.filter((c) => c.contype === 'f').map((c) => `(${c.columns}) → ${c.ref_table}(${c.ref_columns}) ON DELETE ${ON_DELETE[c.confdeltype]}`);
  differences.push(...setDifferences(`${table}: foreign key`, pgForeign, sqliteForeignKeys(db, table)));
  const uniques = (db.prepare('SELECT name, "unique", origin, partial FROM pragma_index_list(?)').all(table) as SqliteIndex[])
    .filter((i) => i.unique === 1 && i.origin !== 'pk')
    .map((i) => `(${sqliteIndexColumns(db, i.name, nocase).join(', ')})${i.partial ? ' where …' : ''}`);
  const pgUniques = pgIndexes(pgDb, table).filter((i) => i.unique && !i.primary).map((i) => `(${i.columns})${i.partial ? ' where …' : ''}`);
  differences.push(...setDifferences(`${table}: unique column set`, pgUniques, uniques));
  const checks = constraints.filter((c) => c.contype === 'c').length;
  const sqliteChecks = createSql.replace(/--[^\n]*/g, '').replace(/'(?:[^']|'')*'/g, "''").match(/\bCHECK\s*\(/gi)?.length ?? 0;
  if (checks !== sqliteChecks) differences.push(`${table}: ${checks} CHECK constraints on PostgreSQL, ${sqliteChecks} on SQLite`);
  return differences;
}

/** What one side has and the other lacks, as sentences. */
function setDifferences(what: string, postgres: string[], sqlite: string[]): string[] {
  return [
    ...postgres.filter((x) => !sqlite.includes(x)).map((x) => `${what} ${x} is only on PostgreSQL`),
    ...sqlite.filter((x) => !postgres.includes(x)).map((x) => `${what} ${x} is missing on PostgreSQL`),
  ];
}

function compareIndexes(db: SqliteDb, pgDb: PostgresDatabase, table: string, nocase: Set<string>): string[] {
  const pgIndex = pgIndexes(pgDb, table);
  return (db.prepare("SELECT name, \"unique\", origin, partial FROM pragma_index_list(?) WHERE origin = 'c'").all(table) as SqliteIndex[]).flatMap((index) => {
    const where = `${table}: index ${index.name}`;
    const found = pgIndex.find((i) => i.name === index.name);
    if (!found) return [`${where} is missing on PostgreSQL`];
    const differences: string[] = [];
    const columns = sqliteIndexColumns(db, index.name, nocase).join(', ');
    const pgColumns = topLevelParts(found.columns).map(sameExpression).join(', ');
    if (pgColumns !== columns) differences.push(`${where} is on (${found.columns}) on PostgreSQL, (${columns}) on SQLite`);
    if (found.unique !== index.unique) differences.push(`${where} is ${found.unique ? '' : 'not '}unique on PostgreSQL but is ${index.unique ? '' : 'not '}on SQLite`);
    if (found.partial !== index.partial) differences.push(`${where} is ${found.partial ? '' : 'not '}partial on PostgreSQL but is ${index.partial ? '' : 'not '}on SQLite`);
    return differences;
  });
}
