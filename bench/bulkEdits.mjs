// The bulk-edit line: one POST /v2/contacts/bulk changing 10 000
// contacts (owner + tags_add) over HTTP on the SQLite hub, beside the same
// change made the way a client without bulk edits would: 10 000 single PUTs
// of the same fields on 10 000 other contacts, 10 in flight at a time (so the
// hub's group commit helps the PUTs as much as it can). Each PUT sends the
// record's tags with the new one added, read from the database beforehand, so
// the PUT side does no GETs: the baseline is the cheapest honest single-edit
// client. Both sides do each record through the same write (rules, change
// log, field history, stored documents).
import Database from 'better-sqlite3';
import { request } from 'undici';

const RECORDS = Number(process.env.BENCH_BULK_RECORDS || 10_000);
const IN_FLIGHT = 10;
const TARGET_SECONDS = 5;

/** Two disjoint sets of RECORDS contacts, their tags, and a user to give them to; null when too few are seeded. */
function pickRecords(file) {
  const db = new Database(file, { readonly: true });
  try {
    const ids = db.prepare('SELECT id FROM contacts ORDER BY id LIMIT ?').pluck().all(2 * RECORDS);
    if (ids.length < 2 * RECORDS) return null;
    const tagsOf = db.prepare(`SELECT t.name FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = 'contact' AND g.resource_id = ? ORDER BY t.name`).pluck();
    const owner = db.prepare('SELECT id FROM users ORDER BY id DESC LIMIT 1').pluck().get();
    const puts = ids.slice(RECORDS).map((id) => ({ id, tags: [...tagsOf.all(id), 'bench-put'] }));
    return { bulkIds: ids.slice(0, RECORDS), puts, owner };
  } finally {
    db.close();
  }
}

async function send(base, auth, method, path, data) {
  const { statusCode, body } = await request(`${base}${path}`, {
    method, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ data }),
  });
  const text = await body.text();
  if (statusCode !== 200) throw new Error(`${method} ${path}: ${statusCode} ${text.slice(0, 300)}`);
  return JSON.parse(text);
}

export async function bulkEditLine({ hub, auth, file, indent }) {
  const picked = pickRecords(file);
  if (picked === null) {
    console.log(`POST /v2/contacts/bulk: skipped, it needs ${2 * RECORDS} contacts (BENCH_CONTACTS, or a smaller BENCH_BULK_RECORDS)`);
    return;
  }
  const { bulkIds, puts, owner } = picked;
  const started = performance.now();
  const answer = await send(hub, auth, 'POST', '/v2/contacts/bulk', { ids: bulkIds, update: { owner_id: owner, tags_add: ['bench-bulk'] } });
  const bulkSeconds = (performance.now() - started) / 1000;
  if (answer.data.updated.length !== RECORDS || answer.data.failed.length !== 0) {
    throw new Error(`bulk edit: ${answer.data.updated.length} updated, ${answer.data.failed.length} failed (${JSON.stringify(answer.data.failed[0])})`);
  }

  const putStarted = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < puts.length) {
      const { id, tags } = puts[next++];
      await send(hub, auth, 'PUT', `/v2/contacts/${id}`, { owner_id: owner, tags });
    }
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const putSeconds = (performance.now() - putStarted) / 1000;

  const rate = (seconds) => Math.round(RECORDS / seconds).toLocaleString('en-US');
  console.log(`POST /v2/contacts/bulk: ${RECORDS.toLocaleString('en-US')} contacts, owner_id + tags_add, one call (SQLite hub)`);
  console.log(`${indent}bulk ${bulkSeconds.toFixed(2)} s (${rate(bulkSeconds)} records/s)   ${RECORDS.toLocaleString('en-US')} single PUTs, ${IN_FLIGHT} in flight ${putSeconds.toFixed(2)} s (${rate(putSeconds)} records/s)   speed-up ${(putSeconds / bulkSeconds).toFixed(2)}×`);
  console.log(`${indent}target: bulk ≤ ${TARGET_SECONDS} s ${bulkSeconds <= TARGET_SECONDS ? 'PASS' : 'MISS'}`);
}
