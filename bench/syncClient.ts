// A device for `npm run bench`, in its own process (run with tsx's loader):
//   outpost <hub url> <token> <device uuid> <db file>  — the sync protocol through the engine's pull loop
//   plain   <bare url> -       -             <db file>  — the baseline: pages of each table by id, as plain JSON
// Both write into the same store (replica/serverState.ts: one SQLite row per record, one transaction per page)
// and print one JSON line: records, seconds, peak memory (maxRSS) of this process.
import Database from 'better-sqlite3';
import { pullOnce } from '../electron/engine/replica/pull.js';
import { hubFetch } from '../electron/engine/replica/hubFetch.js';
import { ServerState } from '../electron/engine/replica/serverState.js';
import { asSqliteDb } from '../electron/engine/db/database.js';

const [mode, base, token, deviceUuid, file] = process.argv.slice(2);
const PLAIN_PAGE = 1000;

const db = asSqliteDb(new Database(file));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
const state = new ServerState(db);

/** The baseline: each table read page by page (keyset on id), each page upserted in one transaction. */
async function plainDownload(): Promise<number> {
  const upsert = db.prepare('INSERT OR REPLACE INTO server_records (resource_type, resource_id, revision, doc) VALUES (?, ?, 0, ?)');
  const store = db.transaction((type: string, items: { data: { id: number } }[]) => {
    for (const item of items) upsert.run(type, item.data.id, JSON.stringify(item.data));
  });
  let records = 0;
  for (const type of ['contact', 'task', 'note']) {
    for (let after = 0; ;) {
      // The replica's own HTTP client, so the baseline differs from the replica only in what it does with the pages.
      const response = await hubFetch(`${base}/dump/${type}?after=${after}&limit=${PLAIN_PAGE}`);
      const { items } = (await response.json()) as { items: { data: { id: number } }[] };
      if (items.length === 0) break;
      store(type, items);
      records += items.length;
      after = items[items.length - 1].data.id;
    }
  }
  return records;
}

const started = performance.now();
const records = mode === 'outpost'
  ? (await pullOnce({ hubUrl: base, token, deviceUuid, apply: (items) => state.apply(items) })).items
  : await plainDownload();
const seconds = (performance.now() - started) / 1000;
db.close();
console.log(JSON.stringify({ records, seconds, maxRssMb: process.resourceUsage().maxRSS / 1024 }));
