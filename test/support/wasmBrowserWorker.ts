import { openDatabase, storageFault } from '../../electron/engine/db/database.js';
import { prepareSqlite } from '../../electron/engine/db/sqliteDriver.js';

/**
 * A dedicated worker for test/engine/wasmBrowser.test.ts, bundled with the
 * browser's platform (db/sqliteDriver.web.ts): opens the engine's database in
 * the Origin Private File System, does what the page's query asks
 * (`?write=n`: n more rows), and posts back what it found.
 */

const FILE = '/outpost/browser-check.sqlite3';

async function run(write: number): Promise<unknown> {
  await prepareSqlite({ directory: '/outpost-test', poolName: 'outpost-test' });
  const db = openDatabase(FILE, { pageSize: 16384, foreignKeys: false });
  try {
    const insert = db.prepare("INSERT INTO replica_settings (name, value) VALUES (?, 'x')");
    db.transaction(() => {
      const first = db.prepare("SELECT count(*) FROM replica_settings WHERE name LIKE 'check-%'").pluck().get() as number;
      for (let i = 0; i < write; i++) insert.run(`check-${first + i}`);
    })();
    let duplicate: { code?: string } = {};
    try {
      insert.run('check-0');
    } catch (err) {
      duplicate = err as { code?: string };
    }
    return {
      journal: db.pragma('journal_mode', { simple: true }),
      locking: db.pragma('locking_mode', { simple: true }),
      tempStore: db.pragma('temp_store', { simple: true }),
      pageSize: db.pragma('page_size', { simple: true }),
      schema: db.pragma('user_version', { simple: true }),
      searchIndexes: db.prepare("SELECT count(*) FROM sqlite_master WHERE sql LIKE 'CREATE VIRTUAL TABLE%fts5%'").pluck().get(),
      now: db.prepare('SELECT now_utc()').pluck().get(),
      rows: db.prepare("SELECT count(*) FROM replica_settings WHERE name LIKE 'check-%'").pluck().get(),
      duplicateCode: duplicate.code,
      notStorageFault: storageFault(duplicate) === null,
    };
  } finally {
    db.close();
  }
}

const write = Number(new URL(location.href).searchParams.get('write') ?? 0);
run(write).then(
  (found) => postMessage({ found }),
  (err: Error) => postMessage({ error: String(err.stack ?? err) }),
);
