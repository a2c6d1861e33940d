import { afterAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openEngine } from '../../electron/engine/engine.js';
import { ManualClock } from '../../electron/engine/clock.js';
import { seedDemoData } from '../../electron/engine/seed/demoData.js';
import { CONTACT_JSON } from '../../electron/engine/resources/contacts.js';
import type { SyncSource, SyncSources } from '../../electron/engine/sync/sources.js';

/**
 * SQLite 3.54 no longer carries the JSON subtype of json_group_array()/json_object() out of a
 * scalar subquery, so `json_object('t', (SELECT json_group_array(x) …))` embeds the array as a string.
 * The engine wraps every such subquery in json() (db/sqlJson.ts, jsonOfSubquery). This file:
 * - scans the engine's SQL so an unwrapped one cannot come back (runs everywhere);
 * - with SQLite 3.54's WASM build (@sqlite.org/sqlite-wasm ≥ 3.54, or the package folder named by
 *   OUTPOST_SQLITE_WASM), shows the bare pattern's change and runs every record type's JSON builder on a
 *   copy of a seeded database there, expecting the same JSON as better-sqlite3's SQLite gives.
 */

const ENGINE = resolve(__dirname, '../../electron/engine');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') && !path.endsWith('.test.ts') ? [path] : [];
  });
}

/** Scalar subqueries whose first result column is built by a JSON function: `(SELECT json_group_array(`. */
const JSON_SUBQUERY = /\(\s*SELECT\s+(?:DISTINCT\s+)?(json_group_array|json_group_object|json_object|json_array|json_patch|json_set|json_insert|json_replace|json_remove|json)\s*\(/gi;

/** What may stand right before such a subquery: json( — or an assignment, whose value is stored as text. */
function unwrapped(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(JSON_SUBQUERY)) {
    const before = text.slice(0, match.index).replace(/\s+$/, '');
    // jsonOfSubquery(`SELECT …`) writes json((SELECT …)); the scan sees the helper's own template only.
    if (/\bjson\($/i.test(before) || /(^|[^=!<>])=$/.test(before)) continue;
    const line = text.slice(0, match.index).split('\n').length;
    found.push(`${line}: ${text.slice(match.index, match.index + 60).replace(/\s+/g, ' ')}`);
  }
  return found;
}

describe('JSON built from scalar subqueries', () => {
  it('has every JSON-yielding scalar subquery in the engine wrapped in json()', () => {
    const problems = sourceFiles(ENGINE)
      .filter((file) => !file.includes('/db/postgres/'))
      .flatMap((file) => unwrapped(readFileSync(file, 'utf8')).map((where) => `${file.slice(ENGINE.length + 1)}:${where}`));
    expect(problems).toEqual([]);
  });

  it('the scan itself catches the pattern and lets the wrapped and assigned forms through', () => {
    expect(unwrapped("json_object('t', (SELECT json_group_array(x) FROM y))")).toHaveLength(1);
    expect(unwrapped("json_object('t', (\n  SELECT json_object('a', 1)))")).toHaveLength(1);
    expect(unwrapped("json_object('t', json((SELECT json_group_array(x) FROM y)))")).toEqual([]);
    expect(unwrapped('UPDATE t SET ids = (SELECT json_group_array(v) FROM json_each(ids))')).toEqual([]);
  });
});

// ---- SQLite 3.54 (WASM) ----

interface WasmDb {
  selectValue(sql: string): unknown;
  selectArrays(sql: string, bind?: Record<string, unknown>): unknown[][];
  exec(sql: string): unknown;
  createFunction(name: string, fn: (ctx: number, ...args: unknown[]) => unknown, options?: { arity?: number; deterministic?: boolean }): unknown;
  close(): void;
}
interface WasmSqlite {
  oo1: { DB: new (file: string, mode?: string) => WasmDb };
  capi: { sqlite3_js_posix_create_file(name: string, data: Uint8Array): void };
}

async function loadWasm(): Promise<WasmSqlite | null> {
  const dir = process.env.OUTPOST_SQLITE_WASM;
  const specifier = dir ? pathToFileURL(join(resolve(dir), 'dist/node.mjs')).href : '@sqlite.org/sqlite-wasm';
  try {
    const { default: init } = (await import(/* @vite-ignore */ specifier)) as { default: () => Promise<WasmSqlite> };
    return await init();
  } catch {
    return null;
  }
}

const wasm = await loadWasm();
const wasmVersion = wasm ? String(new wasm.oo1.DB(':memory:').selectValue('SELECT sqlite_version()')) : null;
const newer = (version: string | null, than: number[]) => {
  if (!version) return false;
  const parts = version.split('.').map(Number);
  for (let i = 0; i < than.length; i++) if ((parts[i] ?? 0) !== than[i]) return (parts[i] ?? 0) > than[i]!;
  return true;
};
const has354 = newer(wasmVersion, [3, 54, 0]);
const why = wasm ? `SQLite ${wasmVersion} from WASM is older than 3.54` : 'no @sqlite.org/sqlite-wasm (or OUTPOST_SQLITE_WASM) to load';

const dirs: string[] = [];
afterAll(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

describe.skipIf(!has354)(`on SQLite ${wasmVersion ?? '3.54'} (WASM)${has354 ? '' : ` — skipped: ${why}`}`, () => {
  it('drops the JSON type of a scalar subquery, and json() around it restores it', () => {
    const db = new wasm!.oo1.DB(':memory:');
    db.exec('CREATE TABLE x (a INTEGER); INSERT INTO x VALUES (1), (2)');
    expect(db.selectValue("SELECT json_object('t', (SELECT json_group_array(a) FROM x))")).toBe('{"t":"[1,2]"}');
    expect(db.selectValue("SELECT json_object('t', (SELECT json_group_array(a) FROM x WHERE 0))")).toBe('{"t":"[]"}');
    expect(db.selectValue("SELECT json_object('t', json((SELECT json_group_array(a) FROM x)))")).toBe('{"t":[1,2]}');
    expect(db.selectValue("SELECT json_object('t', json((SELECT json_object('a', 1))))")).toBe('{"t":{"a":1}}');
    db.close();
  });

  it('builds every record type the same JSON as the engine’s own SQLite does', async () => {
    const clock = new ManualClock('2026-03-02T10:00:00Z');
    const dir = mkdtempSync(join(tmpdir(), 'outpost-sqlite-json-'));
    dirs.push(dir);
    const engine = openEngine({ dataDir: dir, clock });
    await engine.users.create({ email: 'admin@example.com', name: 'Admin', role: 'admin', password: 'long-enough' });
    seedDemoData(engine, { contacts: 60 });
    const actor = { userId: 1, role: 'admin' as const, scopes: new Set(['read', 'write'] as const) };
    for (const contactId of [2, 3]) engine.enrollments.create({ sequence_id: 1, resource_type: 'contact', resource_id: contactId }, actor);

    const sources = (engine.sync['sources'] as SyncSources).list();
    const builders: SyncSource[] = [...sources, { type: 'contact (built)', from: 'contacts c', idColumn: 'c.id', json: CONTACT_JSON }];
    const statement = (s: SyncSource) => `SELECT ${s.idColumn}, ${s.json} FROM ${s.from} ORDER BY 1`;
    // Products' JSON depends on who reads it (@user): the admin, here.
    const params = (s: SyncSource) => (s.json.includes('@user') ? { user: 1 } : {});
    const expected = new Map(builders.map((s) => [s.type, engine.db.prepare(statement(s)).raw().all(params(s)) as unknown[][]]));

    const now = String(engine.db.prepare('SELECT now_utc()').pluck().get());
    engine.close();
    // A copy of the database file (checkpointed on close) for the WASM SQLite, out of WAL mode: its file
    // system has no shared memory for WAL.
    const bytes = new Uint8Array(readFileSync(join(dir, 'outpost.sqlite')));
    bytes[18] = 1;
    bytes[19] = 1;

    wasm!.capi.sqlite3_js_posix_create_file('/engine.sqlite', bytes);
    const db = new wasm!.oo1.DB('/engine.sqlite', 'r');
    db.createFunction('now_utc', () => now, { arity: 0, deterministic: true });
    const differing: string[] = [];
    for (const s of builders) {
      const got = db.selectArrays(statement(s), Object.fromEntries(Object.entries(params(s)).map(([k, v]) => [`@${k}`, v])));
      const want = expected.get(s.type)!;
      if (JSON.stringify(got) !== JSON.stringify(want)) differing.push(`${s.type}: ${JSON.stringify(got[0])} vs ${JSON.stringify(want[0])}`);
    }
    db.close();
    expect(differing).toEqual([]);
    // The data reaches the subqueries this is about: tags, sequence steps, enrollment steps.
    const rows = (type: string) => expected.get(type)!.map((r) => JSON.parse(String(r[1])) as Record<string, any>);
    for (const type of ['contact (built)', 'deal', 'lead']) expect(rows(type).some((r) => r.tags.length > 0), type).toBe(true);
    expect(rows('sequence').length).toBeGreaterThan(0);
    expect(rows('sequence').every((s) => s.steps.length > 0)).toBe(true);
    expect(rows('sequence_enrollment')).toHaveLength(2);
    expect(rows('sequence_enrollment').every((e) => e.enrollment_steps.items.length > 0)).toBe(true);
  });
});
