import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { asSqliteDb, openDatabase, SchemaTooNewError, type SqliteDb } from '../database.js';
import { SCHEMA_VERSION } from '../migrations/index.js';
import { HUB_WRITE_LOCK } from './database.js';
import { SEARCH_INDEXES } from '../searchIndexSql.js';
import { DATABASE_FILE, DOCUMENTS_FOLDER } from '../dataFolder.js';
import { systemClock } from '../../clock.js';
import { lockDataDir } from '../../dataDirLock.js';
import { CLUSTER_TABLES } from './clusterTables.js';
import { openPostgres } from './open.js';
import { SEARCH } from './search.js';

/**
 * `outpost migrate`: copies a SQLite hub's database into a
 * PostgreSQL hub's, ids and all, so the hub's devices, links and tokens keep
 * working against the new one.
 *
 * The copy talks to PostgreSQL through node-postgres directly, awaited, not
 * through the engine's synchronous PostgresDatabase: it is a one-off bulk
 * load, not engine code, so it gains nothing from SQLite's SQL or the
 * translation, and with a promise it can send one batch while it reads the
 * next from SQLite (the bridge would block the thread on every batch).
 *
 * All of it is one PostgreSQL transaction under the hub's write lock: a copy
 * that fails leaves the target as it was. The engine's triggers are off
 * while rows go in (a copied change log must not grow record_revisions or
 * log deals again: those rows come from the source), and the search tables
 * are filled once at the end from the copied rows: with 100 000 contacts,
 * tasks and notes that took 48 s against 104 s for their triggers row by row
 * (a busy 2-core machine; the search tables' GIN indexes kept by the INSERT).
 */

/** A reason not to copy, found before anything was written: the CLI says it in one line (exit 2). */
export class MigrateRefusal extends Error {}

export interface CopyOptions {
  dataDir: string;
  url: string;
  /** Replace the target's data when it already holds a hub's. */
  force?: boolean;
  /** One line per table copied, and notes. */
  log?: (line: string) => void;
  /** Rows per INSERT. */
  batchRows?: number;
}

export interface CopyReport {
  tables: { table: string; rows: number }[];
  rows: number;
  seconds: number;
  /** Records of the documents resource. */
  documents: number;
  /** Of those, the ones whose file was in the data folder: their bytes went into document_contents (the others had none to copy). */
  documentBytes: number;
  /** The source's schema before this command migrated it, when it was older than this version's. */
  upgradedFrom: number | null;
}

/** Tables only SQLite has: its own, and FTS5's (the search indexes and their shadow tables). */
const SQLITE_ONLY = /^sqlite_|_fts($|_)/;
/**
 * Tables only PostgreSQL has: the schema version, the search tables (filled
 * from the copied rows) and the cluster's own (clusterTables.ts: documents'
 * bytes, rate-limit counts), left empty.
 */
const POSTGRES_ONLY = new Set<string>([
  'outpost_schema', ...SEARCH_INDEXES.map((index) => index.fts), ...[...CLUSTER_TABLES.matchAll(/CREATE TABLE IF NOT EXISTS (\w+)/g)].map((m) => m[1]!),
]);
/** Stored API documents: a PostgreSQL hub builds the JSON when read and keeps this table empty (db/documents.ts). */
const NOT_COPIED = new Set(['contact_docs']);

interface Column {
  name: string;
  type: string;
}

interface Table {
  name: string;
  columns: Column[];
  key: string | null;
  /** Foreign-key columns, the table each refers to, and the column there. */
  references: { column: string; table: string; to: string }[];
}

/**
 * A planned table, and the references it cannot copy as they are: `later`
 * (to a table not copied yet, in a cycle) go in as NULL; `ahead` (to the
 * table's own key: contacts.contact_id, users.reports_to) go in as they are
 * when they point back at a row sent before (rows go in key order, and
 * PostgreSQL checks a foreign key at the end of each INSERT), as NULL when
 * they point ahead. Both are set by a second pass once every table is in.
 */
interface Step {
  table: Table;
  later: Column[];
  ahead: Column[];
}

/**
 * Copies the SQLite hub in `dataDir` into the PostgreSQL database at `url`
 * (migrated to the current schema first). Holds the data folder's lock
 * throughout, so no hub starts on the source meanwhile.
 */
export async function copyHub(options: CopyOptions): Promise<CopyReport> {
  const file = join(options.dataDir, DATABASE_FILE);
  if (!existsSync(file)) throw new MigrateRefusal(`no Outpost database in ${options.dataDir} (${DATABASE_FILE} is missing)`);
  const lock = lockDataDir(options.dataDir);
  try {
    const upgradedFrom = prepareSource(file);
    // Not openDatabase's readonly open: its closing `PRAGMA optimize` writes statistics, and fails, on a file just seeded.
    const source = asSqliteDb(new Database(file, { readonly: true, fileMustExist: true }));
    try {
      await openPostgres(options.url, systemClock).close();
      return { ...(await copyInto(source, options)), upgradedFrom };
    } finally {
      source.close();
    }
  } finally {
    lock.release();
  }
}

/**
 * Checks that `file` is an Outpost database this version can read. One at an
 * older schema is migrated in place first, as any command of this version
 * (or starting the hub) would do to it: the copy is then of the current
 * schema, column for column. Returns the version it had, or null if current.
 */
function prepareSource(file: string): number | null {
  const raw = new Database(file, { readonly: true, fileMustExist: true });
  let version: number;
  try {
    version = raw.pragma('user_version', { simple: true }) as number;
    const tables = raw.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('users', 'change_log', 'contacts')").pluck().get();
    if (version === 0 || tables !== 3) throw new MigrateRefusal(`${file} is not an Outpost database`);
  } catch (err) {
    if (err instanceof MigrateRefusal) throw err;
    throw new MigrateRefusal(`${file} is not an Outpost database (${(err as Error).message})`);
  } finally {
    raw.close();
  }
  if (version > SCHEMA_VERSION) throw new MigrateRefusal(new SchemaTooNewError(version).message);
  if (version === SCHEMA_VERSION) return null;
  openDatabase(file).close();
  return version;
}

/**
 * The documents' bytes: a file per document in the SQLite hub's folder, a row
 * of document_contents on PostgreSQL, where every node can serve it
 * (resources/documentContents.ts). One at a time: documents may be tens of MB.
 */
async function copyDocumentFiles(source: SqliteDb, client: pg.Client, dataDir: string): Promise<number> {
  let copied = 0;
  for (const id of source.prepare('SELECT id FROM documents ORDER BY id').pluck().all() as number[]) {
    const file = join(dataDir, DOCUMENTS_FOLDER, String(id));
    if (!existsSync(file)) continue;
    await client.query('INSERT INTO document_contents (id, bytes) VALUES ($1, $2)', [id, readFileSync(file)]);
    copied++;
  }
  return copied;
}

async function copyInto(source: SqliteDb, options: CopyOptions): Promise<Omit<CopyReport, 'upgradedFrom'>> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const started = performance.now();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [HUB_WRITE_LOCK]);
    await refuseOccupied(client, options.force === true);
    const targets = await targetTables(client);
    const steps = plan(matchTables(source, targets));
    // The baseline's starting rows (pipeline, stages, reasons…) and, with --force, the hub that was there: the source's come instead.
    await client.query(`TRUNCATE ${[...targets.keys()].filter((name) => name !== 'outpost_schema').join(', ')}`);
    const tables = await copyTables(source, client, steps, options);
    const documentBytes = await copyDocumentFiles(source, client, options.dataDir);
    await setIdentities(client, steps);
    // Fills each search table from its records (the statements a node runs on open; the tables are empty now).
    await client.query(SEARCH);
    await client.query('COMMIT');
    // The planner's statistics for the new rows (autovacuum would get there, later).
    await client.query(`ANALYZE ${steps.map((s) => s.table.name).join(', ')}`);
    const documents = tables.find((t) => t.table === 'documents')?.rows ?? 0;
    return { tables, rows: tables.reduce((sum, t) => sum + t.rows, 0), seconds: (performance.now() - started) / 1000, documents, documentBytes };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}

/** The rows of every table, with the tables' own triggers off meanwhile (their work comes from the source, or after). */
async function copyTables(source: SqliteDb, client: pg.Client, steps: Step[], options: CopyOptions): Promise<CopyReport['tables']> {
  const size = options.batchRows ?? 500;
  for (const { table } of steps) await client.query(`ALTER TABLE ${table.name} DISABLE TRIGGER USER`);
  const tables: CopyReport['tables'] = [];
  for (const step of steps) {
    const rows = await copyRows(source, client, step, size);
    tables.push({ table: step.table.name, rows });
    options.log?.(`${step.table.name.padEnd(28)} ${String(rows).padStart(9)}`);
  }
  for (const step of steps) await setLater(source, client, step, size);
  for (const { table } of steps) await client.query(`ALTER TABLE ${table.name} ENABLE TRIGGER USER`);
  return tables;
}

/** A hub's data is its users: the baseline makes none, every hub has one from its first start. */
async function refuseOccupied(client: pg.Client, force: boolean): Promise<void> {
  const { rows } = await client.query<{ n: string }>('SELECT count(*) AS n FROM users');
  const users = Number(rows[0]!.n);
  if (users > 0 && !force) {
    throw new MigrateRefusal(`the target database already holds a hub's data (${users} user${users === 1 ? '' : 's'}); add --force to replace it`);
  }
}

/** The target's tables from PostgreSQL's catalog: columns with their types, primary key, foreign keys. */
async function targetTables(client: pg.Client): Promise<Map<string, Table>> {
  const tables = new Map<string, Table>();
  const table = (name: string) => tables.get(name) ?? tables.set(name, { name, columns: [], key: null, references: [] }).get(name)!;
  const columns = await client.query<{ table: string; column: string; type: string }>(`
    SELECT c.relname AS table, a.attname AS column, format_type(a.atttypid, a.atttypmod) AS type
    FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE c.relnamespace = current_schema()::regnamespace AND c.relkind = 'r' AND a.attnum > 0 AND NOT a.attisdropped AND a.attgenerated = ''
    ORDER BY c.relname, a.attnum`);
  for (const row of columns.rows) table(row.table).columns.push({ name: row.column, type: row.type });
  const constraints = await client.query<{ table: string; kind: string; columns: string[]; refers: string | null; to: string[] | null }>(`
    SELECT c.relname AS table, k.contype AS kind, r.relname AS refers,
           ARRAY(SELECT a.attname::text FROM unnest(k.conkey) AS n JOIN pg_attribute a ON a.attrelid = k.conrelid AND a.attnum = n) AS columns,
           ARRAY(SELECT a.attname::text FROM unnest(k.confkey) AS n JOIN pg_attribute a ON a.attrelid = k.confrelid AND a.attnum = n) AS to
    FROM pg_constraint k JOIN pg_class c ON c.oid = k.conrelid LEFT JOIN pg_class r ON r.oid = k.confrelid
    WHERE c.relnamespace = current_schema()::regnamespace AND k.contype IN ('p', 'f')`);
  for (const row of constraints.rows) {
    if (row.kind === 'p') table(row.table).key = row.columns.length === 1 ? row.columns[0]! : null;
    else if (row.columns.length === 1) table(row.table).references.push({ column: row.columns[0]!, table: row.refers!, to: row.to![0]! });
    else throw new Error(`${row.table} has a foreign key of several columns (${row.columns.join(', ')}), which the copy does not handle`);
  }
  return tables;
}

/** The tables to copy: the same on both sides, with the same columns, or the copy stops and says what differs. */
function matchTables(source: SqliteDb, targets: Map<string, Table>): Table[] {
  const names = (source.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name").pluck().all() as string[])
    .filter((name) => !SQLITE_ONLY.test(name));
  const missing = names.filter((name) => !targets.has(name));
  const extra = [...targets.keys()].filter((name) => !POSTGRES_ONLY.has(name) && !names.includes(name));
  if (missing.length + extra.length > 0) {
    throw new Error(`the two schemas differ: ${[...missing.map((n) => `${n} only in SQLite`), ...extra.map((n) => `${n} only in PostgreSQL`)].join(', ')}`);
  }
  return names.filter((name) => !NOT_COPIED.has(name)).map((name) => {
    const target = targets.get(name)!;
    // table_xinfo's hidden 2 and 3 are generated columns, which are computed, not copied.
    const sourceColumns = (source.prepare(`SELECT name FROM pragma_table_xinfo(?) WHERE hidden NOT IN (2, 3)`).pluck().all(name) as string[]);
    const targetColumns = target.columns.map((c) => c.name);
    const differ = [
      ...sourceColumns.filter((c) => !targetColumns.includes(c)).map((c) => `${c} only in SQLite`),
      ...targetColumns.filter((c) => !sourceColumns.includes(c)).map((c) => `${c} only in PostgreSQL`),
    ];
    if (differ.length > 0) throw new Error(`the columns of ${name} differ: ${differ.join(', ')}`);
    return target;
  });
}

/**
 * The tables in foreign-key order: each after the tables it refers to. A
 * reference to itself (contacts.contact_id, users.reports_to) or, in a
 * cycle, to a table not yet copied, is copied as NULL and set afterwards.
 */
export function plan(tables: Table[]): Step[] {
  const names = new Set(tables.map((t) => t.name));
  const done = new Set<string>();
  const steps: Step[] = [];
  const pending = [...tables].sort((a, b) => a.name.localeCompare(b.name));
  const unmet = (t: Table) => t.references.filter((r) => names.has(r.table) && !done.has(r.table) && r.table !== t.name).length;
  while (pending.length > 0) {
    // The first table whose references are all in; in a cycle, the one missing the fewest.
    const next = pending.reduce((best, t) => (unmet(t) < unmet(best) ? t : best));
    pending.splice(pending.indexOf(next), 1);
    const open = next.references.filter((r) => names.has(r.table) && !done.has(r.table));
    const toKey = (r: Table['references'][number]) => r.table === next.name && r.to === next.key;
    const of = (refs: Table['references']) => next.columns.filter((c) => refs.some((r) => r.column === c.name));
    steps.push({ table: next, later: of(open.filter((r) => !toKey(r))), ahead: of(open.filter(toKey)) });
    done.add(next.name);
  }
  for (const { table, later } of steps) {
    if (later.length > 0 && table.key === null) throw new Error(`${table.name} refers to a table copied after it but has no one-column primary key to set that by`);
  }
  return steps;
}

/** Sends batches of rows, reading the next from SQLite while PostgreSQL inserts the last. */
async function inBatches(rows: Iterable<unknown[]>, size: number, send: (batch: unknown[][]) => Promise<unknown>): Promise<number> {
  let pending: Promise<unknown> | null = null;
  let batch: unknown[][] = [];
  let count = 0;
  const flush = async () => {
    if (pending) await pending;
    const sending = send(batch);
    sending.catch(() => undefined); // awaited before the next batch or at the end
    pending = sending;
    batch = [];
  };
  for (const row of rows) {
    batch.push(row);
    count++;
    if (batch.length === size) await flush();
  }
  if (batch.length > 0) await flush();
  if (pending) await pending;
  return count;
}

/** Column-wise arrays of a batch of rows, for `unnest`: one parameter per column, whatever the rows. */
const columnsOf = (batch: unknown[][], width: number) => Array.from({ length: width }, (_, i) => batch.map((row) => row[i] ?? null));

/** `unnest($1::bigint[], $2::text[], …)`: the batch as rows of the columns' own types. */
const unnest = (columns: Column[]) => `unnest(${columns.map((c, i) => `$${i + 1}::${c.type}[]`).join(', ')})`;

async function copyRows(source: SqliteDb, client: pg.Client, { table, later, ahead }: Step, size: number): Promise<number> {
  const now = table.columns.filter((c) => !later.includes(c));
  const list = now.map((c) => c.name).join(', ');
  const text = `INSERT INTO ${table.name} (${list}) SELECT * FROM ${unnest(now)}`;
  const values = now.map((c) => (ahead.includes(c) ? `CASE WHEN ${c.name} <= ${table.key} THEN ${c.name} END` : c.name));
  const order = ahead.length > 0 ? ` ORDER BY ${table.key}` : '';
  // Integers as BigInt: money in cents and the like stay exact past 2^53.
  const rows = source.prepare(`SELECT ${values.join(', ')} FROM ${table.name}${order}`).raw().safeIntegers().iterate() as Iterable<unknown[]>;
  return inBatches(rows, size, (batch) => client.query(text, columnsOf(batch, now.length)));
}

/** The second pass: the references copied as NULL, set now that every row they point at is in. */
async function setLater(source: SqliteDb, client: pg.Client, { table, later, ahead }: Step, size: number): Promise<void> {
  if (later.length + ahead.length === 0) return;
  const key = table.columns.find((c) => c.name === table.key)!;
  const columns = [key, ...later, ...ahead];
  const set = [...later, ...ahead].map((c) => `${c.name} = v.${c.name}`).join(', ');
  const text = `UPDATE ${table.name} t SET ${set} FROM ${unnest(columns)} AS v(${columns.map((c) => c.name).join(', ')}) WHERE t.${key.name} = v.${key.name}`;
  const left = [...later.map((c) => `${c.name} IS NOT NULL`), ...ahead.map((c) => `${c.name} > ${key.name}`)];
  const rows = source.prepare(`SELECT ${columns.map((c) => c.name).join(', ')} FROM ${table.name} WHERE ${left.join(' OR ')}`)
    .raw().safeIntegers().iterate() as Iterable<unknown[]>;
  await inBatches(rows, size, (batch) => client.query(text, columnsOf(batch, columns.length)));
}

/** Every identity past its table's highest value, so the next record gets a new id (as the baseline does). */
async function setIdentities(client: pg.Client, steps: Step[]): Promise<void> {
  const { rows } = await client.query<{ table: string; column: string }>(`
    SELECT c.relname AS table, a.attname AS column FROM pg_class c JOIN pg_attribute a ON a.attrelid = c.oid
    WHERE c.relnamespace = current_schema()::regnamespace AND a.attidentity <> '' AND c.relname = ANY ($1)`, [steps.map((s) => s.table.name)]);
  for (const { table, column } of rows) {
    await client.query(`SELECT setval(pg_get_serial_sequence($1, $2), coalesce(max(${column}), 0) + 1, false) FROM ${table}`, [table, column]);
  }
}
