import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { asBulkLoad, PARALLEL_FINISH_ROWS } from '../../electron/engine/replica/bulkLoad.js';
import { BULK_LOAD_SCHEMA } from '../../electron/engine/db/searchIndexes.js';
import { buildSearchIndexesAside } from '../../electron/engine/db/searchBuildAside.js';
import { SEARCH_SLICE_ROWS } from '../../electron/engine/db/searchBuild.js';
import { WriteGate } from '../../electron/engine/replica/writeGate.js';
import Database from 'better-sqlite3';
import { sqliteOf } from '../../electron/engine/db/database.js';

/**
 * A replica's first sync as a bulk load on a real replica engine and its
 * SQLite file: indexes and search triggers off while rows arrive, then put
 * back, the secondary indexes built by a worker thread's connection while
 * this one builds the search indexes aside, and those copied in.
 */
const engines: Engine[] = [];
const dirs: string[] = [];

function replicaEngine(): Engine {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-bulk-'));
  dirs.push(dataDir);
  const engine = openEngine({ dataDir, replica: true });
  engines.push(engine);
  return engine;
}

afterEach(() => {
  vi.restoreAllMocks();
  engines.splice(0).forEach((e) => e.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const schemaOf = (engine: Engine) => engine.db.prepare(`${BULK_LOAD_SCHEMA} ORDER BY name`).all();
/** Contacts and tasks each: together enough rows for the two-thread end. */
const RECORDS = 3000;

/** Rows as a first sync writes them (straight into the tables), a third of them about pricing. */
function loadRows(engine: Engine): void {
  const { db } = engine;
  db.transaction(() => {
    const contact = db.prepare(`INSERT INTO contacts (id, creator_id, owner_id, last_name, name, phone, created_at, updated_at)
      VALUES (?, 1, 1, ?, ?, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`);
    const task = db.prepare(`INSERT INTO tasks (id, creator_id, owner_id, content, created_at, updated_at)
      VALUES (?, 1, 1, ?, '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`);
    for (let i = 1; i <= RECORDS; i++) {
      contact.run(i, `Surname${i}`, `Surname${i}`, `+1 555 ${String(i).padStart(4, '0')}`);
      task.run(i, i % 3 === 0 ? `Send the pricing sheet ${i}` : `Call back ${i}`);
    }
  })();
}

function expectSearchable(engine: Engine): void {
  const { db } = engine;
  expect(db.prepare("SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'pricing'").pluck().get()).toBe(RECORDS / 3);
  expect(db.prepare("SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH 'Surname1234'").pluck().all()).toEqual([1234]);
  // phone_terms (the engine's own SQL function) made the digits-only term.
  expect(db.prepare("SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH '15550042'").pluck().all()).toEqual([42]);
  for (const fts of ['contacts_fts', 'tasks_fts', 'notes_fts', 'leads_fts', 'deals_fts']) {
    db.exec(`INSERT INTO ${fts} (${fts}, rank) VALUES ('integrity-check', 1)`);
    // Built with big segments merged in big steps; FTS5's defaults again for the writes after.
    expect(db.prepare(`SELECT k, v FROM ${fts}_config WHERE k IN ('hashsize', 'automerge') ORDER BY k`).all()).toEqual([{ k: 'automerge', v: 4 }, { k: 'hashsize', v: 1024 * 1024 }]);
  }
  expect(db.prepare("SELECT value FROM replica_settings WHERE name = 'bulk_load_schema'").get()).toBeUndefined();
  expect(existsSync(`${sqliteOf(db).name}-search-build`)).toBe(false);
}

describe('a bulk load', () => {
  it('loads with indexes and search triggers off, then has them all back and every row searchable', async () => {
    expect(2 * RECORDS).toBeGreaterThanOrEqual(PARALLEL_FINISH_ROWS);
    const warn = vi.spyOn(console, 'warn');
    const engine = replicaEngine();
    const before = schemaOf(engine);
    expect(before.length).toBeGreaterThan(30);
    // A search before the load: this connection's FTS5 now holds the index's structure in memory.
    expect(engine.db.prepare("SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'pricing'").pluck().get()).toBe(0);

    const sqlite = sqliteOf(engine.db);
    const { loaded, end, checkpointed } = await asBulkLoad(sqlite, async () => {
      expect(schemaOf(engine)).toEqual([]);
      loadRows(engine);
      return 'rows written';
    });
    expect(loaded).toBe('rows written');
    // The pages the end wrote go from the WAL into the file on the worker, after the load is done; this
    // connection's own automatic checkpoints wait for it meanwhile, and are back after.
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    await checkpointed;
    expect(sqlite.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
    const [wal] = sqlite.pragma('wal_checkpoint(PASSIVE)') as { busy: number; log: number; checkpointed: number }[];
    expect(wal!.log).toBeGreaterThan(100);
    expect(wal).toEqual({ busy: 0, log: wal!.log, checkpointed: wal!.log });

    // Finished on two threads (the fallback to this thread alone says so), with the time of each part.
    expect(warn).not.toHaveBeenCalled();
    for (const part of ['searchMs', 'indexesMs', 'copyMs', 'commitMs'] as const) expect(end![part]).toBeGreaterThan(0);
    expect(schemaOf(engine)).toEqual(before);
    expectSearchable(engine);
    // The triggers are back: a record written now is searchable at once.
    engine.db.prepare(`INSERT INTO tasks (id, creator_id, owner_id, content, created_at, updated_at) VALUES (99999, 1, 1, 'pricing again', 'x', 'x')`).run();
    expect(engine.db.prepare("SELECT count(*) FROM tasks_fts WHERE tasks_fts MATCH 'pricing'").pluck().get()).toBe(RECORDS / 3 + 1);
    // The planner uses the rebuilt indexes.
    const plan = engine.db.prepare("EXPLAIN QUERY PLAN SELECT id FROM contacts WHERE last_name = 'Surname7' ORDER BY id").all() as { detail: string }[];
    expect(plan.map((p) => p.detail).join(' ')).toMatch(/INDEX contacts_last_name|INDEX contacts_kind/);
  });

  it('finishes a small load on this thread, without a worker', async () => {
    const warn = vi.spyOn(console, 'warn');
    const engine = replicaEngine();
    const before = schemaOf(engine);
    const sqlite = sqliteOf(engine.db);
    const tempTriggers = () => sqlite.prepare("SELECT name FROM temp.sqlite_master WHERE type = 'trigger' ORDER BY name").pluck().all();
    const triggersBefore = tempTriggers();
    const prepared = engine.db.prepare("SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH 'pricing'").pluck();
    // A worker would fail here (no such driver build), and say so: a small load never starts one.
    const { end } = await asBulkLoad(sqlite, async () => {
      engine.db.prepare(`INSERT INTO tasks (id, creator_id, owner_id, content, created_at, updated_at) VALUES (1, 1, 1, 'Small pricing note', 'x', 'x')`).run();
    }, { nativeBinding: join(dirs[0], 'missing.node') });
    expect(warn).not.toHaveBeenCalled();
    expect(end).toBeNull();
    expect(schemaOf(engine)).toEqual(before);
    // The schema was reloaded after the build (reconnectSearchIndexes): what the connection had stays usable.
    expect(prepared.all()).toEqual([1]);
    expect(tempTriggers()).toEqual(triggersBefore);
    expect(sqlite.pragma('writable_schema', { simple: true })).toBe(0);
    expect(engine.db.prepare("SELECT phone_terms('+1 555 0100') AS terms").pluck().get()).toMatch(/15550100/);
    engine.db.prepare(`INSERT INTO tasks (id, creator_id, owner_id, content, created_at, updated_at) VALUES (2, 1, 1, 'Pricing once more', 'x', 'x')`).run();
    expect(prepared.all()).toEqual([1, 2]);
  });

  it('finishes on this thread alone when the worker cannot open the database', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const engine = replicaEngine();
    const before = schemaOf(engine);
    // A driver build that does not exist: the worker fails at once, and nothing it began is kept.
    const { end } = await asBulkLoad(sqliteOf(engine.db), async () => loadRows(engine), { nativeBinding: join(dirs[0], 'missing.node') });
    expect(warn).toHaveBeenCalledWith(expect.stringMatching(/could not be built on a second thread/));
    expect(end).toBeNull();
    expect(schemaOf(engine)).toEqual(before);
    expectSearchable(engine);
  });
});

describe('the end of a bulk load, beside the app on this thread', () => {
  it('builds the search indexes a slice at a time, letting this thread answer between slices', async () => {
    const engine = replicaEngine();
    const { db } = engine;
    const contacts = 2 * SEARCH_SLICE_ROWS + 500;
    db.transaction(() => {
      const insert = db.prepare(`INSERT INTO contacts (id, creator_id, owner_id, last_name, name, phone, created_at, updated_at) VALUES (?, 1, 1, ?, ?, ?, 'x', 'x')`);
      // Ids with gaps and one below zero: slices go by the ids there are.
      for (let i = 1; i <= contacts; i++) insert.run(i === 1 ? -7 : i * 3, `Surname${i}`, `Surname${i}`, `+1 555 ${String(i).padStart(5, '0')}`);
    })();
    const sqlite = sqliteOf(db);
    const aside = `${sqlite.name}-aside-test`;
    let turns = 0;
    let building = true;
    const turn = () => {
      if (!building) return;
      turns += 1;
      // This thread's connection reads meanwhile, as the app's requests do.
      expect(db.prepare('SELECT count(*) FROM contacts').pluck().get()).toBe(contacts);
      setImmediate(turn);
    };
    setImmediate(turn);
    const copy = await buildSearchIndexesAside(sqlite.name, aside, { cacheKiB: 1024 });
    building = false;
    // A synchronous build would have kept the loop from turning until it was done.
    expect(turns).toBeGreaterThanOrEqual(2);

    // The index is whole: copied in on another connection (as the end's worker does), every contact is found.
    const copier = new Database(sqlite.name);
    copier.unsafeMode(true);
    copier.prepare('ATTACH ? AS search_build').run(aside);
    copier.transaction(() => copy.forEach((sql) => copier.exec(sql)))();
    copier.close();
    rmSync(aside, { force: true });
    expect(db.prepare("SELECT count(*) FROM contacts_fts WHERE contacts_fts MATCH 'Surname*'").pluck().get()).toBe(contacts);
    expect(db.prepare("SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH 'Surname1'").pluck().all()).toEqual([-7]);
    expect(db.prepare("SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH '155500042'").pluck().all()).toEqual([126]);
    db.exec("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('integrity-check', 1)");
  });

  it('holds the writes given to it from the end\'s start until its commit, so none waits on the worker\'s lock', async () => {
    const engine = replicaEngine();
    const before = schemaOf(engine);
    const writes = new WriteGate();
    let written: unknown[] | null = null;
    const { end } = await asBulkLoad(sqliteOf(engine.db), async () => {
      loadRows(engine);
      // A write asked for now runs once the gate opens: after the end, with every index and trigger back.
      setImmediate(() => {
        expect(writes.held).toBe(true);
        void writes.open().then(() => {
          engine.db.prepare("INSERT INTO tasks (id, creator_id, owner_id, content, created_at, updated_at) VALUES (99999, 1, 1, 'pricing, written at once', 'x', 'x')").run();
          written = schemaOf(engine);
        });
      });
    }, { writes });
    expect(end).not.toBeNull();
    await writes.open();
    expect(written).toEqual(before);
    expect(writes.held).toBe(false);
    expect(engine.db.prepare("SELECT rowid FROM tasks_fts WHERE tasks_fts MATCH 'written'").pluck().all()).toEqual([99999]);
  });
});

describe('a bulk load whose load fails', () => {
  it('still ends: the rows written keep their indexes and are searchable, and the failure is the caller\'s', async () => {
    const engine = replicaEngine();
    const before = schemaOf(engine);
    await expect(asBulkLoad(sqliteOf(engine.db), async () => {
      loadRows(engine);
      throw new Error('the hub went away');
    })).rejects.toThrow('the hub went away');
    expect(schemaOf(engine)).toEqual(before);
    expectSearchable(engine);
  });
});
