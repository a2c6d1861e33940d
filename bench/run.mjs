#!/usr/bin/env node
// `npm run bench`: Outpost's hub against a bare node:http baseline doing the
// same SQLite work, measured in the same run on the same seeded database.
// Prints figures, ratios and PASS/MISS per target; it never fails on a missed
// target (exit code 0), only when the bench itself breaks.
//
//   BENCH_CONTACTS    contacts to seed (default 100000)
//   BENCH_ACTIVITIES  tasks and notes each for the full-text lines (default 100000; 0 skips them)
//   BENCH_SECONDS     seconds per server and line, after a 2 s warm-up, split into alternating rounds (default 8)
//   BENCH_DATA_DIR    keep the seeded data here and reuse it on the next run (default: a temp dir, removed)
//   BENCH_CPU_PROF    a directory: the hub runs with --cpu-prof and writes its profile there
//   BENCH_REPORTS     0 skips the reports line (bench/reports.mjs: BENCH_REPORT_DEALS, BENCH_REPORT_ACTIVITIES)
//   BENCH_POSTGRES    0 skips the PostgreSQL lines: the bridge (bench/postgresLatency.ts) and the hub on PostgreSQL
//                     beside the SQLite hub, two nodes beside one (bench/postgresHub.mjs); skipped too without a PostgreSQL server
//   BENCH_BULK        0 skips the bulk-edit line (bench/bulkEdits.mjs: BENCH_BULK_RECORDS, default 10000)
//   BENCH_ONLY        bulk: seed, then only the bulk-edit line; postgres: seed, then only the PostgreSQL lines;
//                     sync: seed, then only the sync and replica lines; startup: seed, then only the start-up line;
//                     browser: only the browser's first sync beside a desktop replica's and the palette answered by the
//                     browser's engine, on hubs of their own (bench/browserSync.mjs, its BENCH_BROWSER_* settings; no seed here)
//                     (BENCH_CONTACTS=1000 BENCH_ACTIVITIES=0 BENCH_ONLY=startup npm run bench: about a minute)
//   BENCH_STARTS      starts of each server for the start-up line (default 7)
// `npm run bench:million` (`node bench/run.mjs --preset million`): a company of a million contacts:
// BENCH_CONTACTS=1000000 BENCH_ACTIVITIES=0 BENCH_POSTGRES=0 BENCH_REPORTS=0 unless set otherwise; every other
// line as at the default size, the sync lines at a million records. About 6 minutes on the 2-core machine.
import { spawn, spawnSync, fork } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, readSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { addSearchRecords, paletteSearchLines, removeSearchRecords } from './paletteSearch.mjs';
import { addReportRecords, removeReportRecords, reportLines } from './reports.mjs';
import { postgresHubLines } from './postgresHub.mjs';
import { bulkEditLine } from './bulkEdits.mjs';
import { buildReplicaClient, replicaClientArgs } from './replicaBundle.mjs';
import { browserLines } from './browserSync.mjs';
import { keeper, stop } from './keeper.mjs';

const PRESETS = { million: { BENCH_CONTACTS: '1000000', BENCH_ACTIVITIES: '0', BENCH_POSTGRES: '0', BENCH_REPORTS: '0' } };
const presetName = process.argv[process.argv.indexOf('--preset') + 1];
if (process.argv.includes('--preset')) {
  if (!Object.hasOwn(PRESETS, presetName)) throw new Error(`bench: --preset must be one of ${Object.keys(PRESETS).join(', ')}, not '${presetName ?? ''}'`);
  for (const [name, value] of Object.entries(PRESETS[presetName])) process.env[name] ??= value;
}

// The hub under test logs warnings only (as a team would run it quietly): a JSON line per request would be measured too.
process.env.OUTPOST_LOG_LEVEL ??= 'warn';
const CONTACTS = Number(process.env.BENCH_CONTACTS || 100_000);
const ACTIVITIES = Number(process.env.BENCH_ACTIVITIES ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS || 8);
const WARM_UP_SECONDS = 2;
// Each side's SECONDS are split into this many alternating rounds (at least 1 s each).
const ROUNDS = Math.max(1, Math.min(4, Math.floor(SECONDS)));
const CONNECTIONS = 10;
const RATE_LIMIT = 1_000_000_000;
const LIST_PAGES = 20;
const PER_PAGE = 25;
const PATHS_PER_CONNECTION = 1000;
const SEARCH_WORDS = ['pricing', 'renewal', 'budget', 'deliv', 'contr', 'train', 'compet'];
// Everything is bounded: seeding (a child with its own timeout) and the whole run.
const SEED_TIMEOUT_MS = 10 * 60_000;
// The PostgreSQL hub lines (bench/postgresHub.mjs) add ~13 minutes at the default sizes on the 2-core machine.
// A million contacts (the million preset) took 5 min 39 s without the PostgreSQL lines; the bound leaves room.
const RUN_TIMEOUT_MS = (process.env.BENCH_POSTGRES === '0' ? (CONTACTS > 300_000 ? 30 : 15) : 40) * 60_000;
const STARTUP_TIMEOUT_MS = 60_000;
const CLIENT_TIMEOUT_MS = 5 * 60_000;
// The sync lines (BENCH_SYNC=0 skips them): initial sync at three backlog sizes, the plain download, start when nothing changed.
// BENCH_ONLY=bulk: only the bulk-edit line (it runs last on the hub: it changes 20 000 contacts).
const ONLY_BULK = process.env.BENCH_ONLY === 'bulk';
// BENCH_ONLY=postgres: only the PostgreSQL lines (the bridge, bench/postgresHub.mjs), on the seeded data.
const ONLY_POSTGRES = process.env.BENCH_ONLY === 'postgres';
// BENCH_ONLY=sync: only the sync lines (the devices' and the replica's first sync, the push, live sync), on the seeded data.
const ONLY_SYNC = process.env.BENCH_ONLY === 'sync';
const SYNC = process.env.BENCH_SYNC !== '0';
// BENCH_ONLY=startup: only the line of the hub's start to its first answer from /health, on the seeded data.
const ONLY_STARTUP = process.env.BENCH_ONLY === 'startup';
// A hub restarted by its supervisor (or the desktop app opened by a rep) answers within about a second.
const STARTUP_TARGET_SECONDS = 1.5;
const STARTS = Math.max(1, Number(process.env.BENCH_STARTS || 7));
// A device's first sync: 300 000 records within 15 s; with more (the million preset), at that rate.
const SYNC_TARGET_SECONDS = 15;
const SYNC_TARGET_RECORDS = 300_000;
const REPLICA_EDITS = Number(process.env.BENCH_REPLICA_EDITS || 10_000);
// The replica's first sync and the plain download it is compared with, timed in this many alternating rounds
// (plain, replica, plain, replica, …), each side's median taken: one run of either spread by ±10 % between minutes
// on the 2-core machine. The last round's replica also pushes its edits and times live sync.
const REPLICA_ROUNDS = Math.max(1, Number(process.env.BENCH_REPLICA_ROUNDS || 3));

const root = resolve(import.meta.dirname, '..');
const keepData = Boolean(process.env.BENCH_DATA_DIR);
const dataDir = keepData ? resolve(process.env.BENCH_DATA_DIR) : mkdtempSync(join(tmpdir(), 'outpost-bench-'));
/** Temporary folders and child processes, gone when the bench exits. */
const { tempDir, track, cleanUp } = keeper();

process.on('exit', () => {
  cleanUp();
  if (!keepData) rmSync(dataDir, { recursive: true, force: true });
});
process.on('SIGINT', () => process.exit(130));
process.on('SIGTERM', () => process.exit(143));
setTimeout(() => {
  console.error(`bench: still running after ${RUN_TIMEOUT_MS / 60_000} minutes; stopping.`);
  process.exit(1);
}, RUN_TIMEOUT_MS).unref();

function outpost(...args) {
  return outpostIn(dataDir, ...args);
}

function outpostIn(dir, ...args) {
  const result = spawnSync(process.execPath, ['bin/outpost.mjs', ...args, '--data-dir', dir], { cwd: root, encoding: 'utf8', timeout: SEED_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`outpost ${args.join(' ')}: ${result.error?.message ?? ''}${result.stderr}`);
  return result.stdout.trim();
}

/** Rejects when `promise` has not settled after `ms`. */
function within(ms, what, promise) {
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms / 1000} s`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** `extra`: more `serve` options (`--database-url` for a hub node on PostgreSQL). */
function startHub(dir = dataDir, extra = []) {
  const profile = process.env.BENCH_CPU_PROF ? ['--cpu-prof', '--cpu-prof-dir', resolve(process.env.BENCH_CPU_PROF)] : [];
  const args = [...profile, 'bin/outpost.mjs', 'serve', '--host', '127.0.0.1', '--port', '0', '--data-dir', dir, '--rate-limit', String(RATE_LIMIT), ...extra];
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  track(child);
  // A node on PostgreSQL listens before its engine workers are up (they start after it): measured before they are,
  // it would answer on its main thread alone, and the compile of the workers' modules would count in its figures.
  const workers = extra.includes('--database-url') && !/--workers[ =]0\b/.test(extra.join(' ')) && process.env.OUTPOST_WORKERS !== '0';
  const url = new Promise((resolveUrl, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      if (match && (!workers || /Engine workers ready/.test(out))) resolveUrl(match[1]);
    });
    child.on('exit', (code, signal) => reject(new Error(`hub exited (${code ?? signal}): ${out}`)));
  });
  return within(STARTUP_TIMEOUT_MS, 'hub start', url).then((base) => ({ child, base }));
}

function startBare() {
  const child = fork(join(root, 'bench/bareServer.mjs'), [join(dataDir, 'outpost.sqlite')], { stdio: 'inherit' });
  track(child);
  const url = new Promise((resolveUrl, reject) => {
    child.once('message', ({ port }) => resolveUrl(`http://127.0.0.1:${port}`));
    child.on('exit', (code, signal) => reject(new Error(`bare server exited (${code ?? signal})`)));
  });
  return within(STARTUP_TIMEOUT_MS, 'bare server start', url).then((base) => ({ child, base }));
}

/**
 * Reads the database file once, so that the operating system's cache holds it before the hub lines, as it
 * does for a hub that has been running. Without it the first line (random contacts by id) measured the disk:
 * at a million contacts, after other work had filled the cache with other files, 3 100 req/s against the bare
 * server's 13 100 (which reads the contacts' rows, where the hub reads their stored documents), and 9 800
 * against about 13 000 once the file was cached.
 */
function warmFileCache(file) {
  const started = performance.now();
  const buffer = Buffer.allocUnsafe(8 * 1024 * 1024);
  const fd = openSync(file, 'r');
  try {
    while (readSync(fd, buffer, 0, buffer.length, null) > 0);
  } finally {
    closeSync(fd);
  }
  console.log(`cache: read ${(statSync(file).size / 1e6).toFixed(0)} MB of ${file} in ${((performance.now() - started) / 1000).toFixed(1)} s, so both servers start with it in the OS cache`);
}

const randomInt = (max) => 1 + Math.floor(Math.random() * max);
const randomPage = () => randomInt(LIST_PAGES);

/**
 * One autocannon run over paths drawn by `nextPath`. Each connection gets its
 * own precomputed list of paths, so autocannon builds every request once
 * instead of on the hot path (the load generator shares this 2-core machine
 * with the server), and connections do not walk in step.
 */
async function load({ base, nextPath, headers = {}, method = 'GET', connections = CONNECTIONS }, duration) {
  const setupClient = (client) => client.setRequests(Array.from({ length: PATHS_PER_CONNECTION }, () => ({ method, path: nextPath() })));
  const options = { url: base, connections, pipelining: 1, headers, setupClient, duration };
  const result = await within((duration + 30) * 1000, `measuring ${base}`, autocannon(options));
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`${base}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

/**
 * Requests per second of outpost and of the baseline on the same work. Runs
 * alternate in short rounds, ABBA (outpost, bare, bare, outpost, …), so the
 * drift this shared machine shows over tens of seconds falls on both sides alike.
 * A side is `load`'s options, or a function of the duration resolving as `load`
 * does (several loads at once, bench/postgresHub.mjs).
 */
async function compare(ours, theirs) {
  const loadSide = (side, duration) => (typeof side === 'function' ? side(duration) : load(side, duration));
  await loadSide(ours, WARM_UP_SECONDS);
  await loadSide(theirs, WARM_UP_SECONDS);
  const totals = [ours, theirs].map(() => ({ requests: 0, seconds: 0, rounds: [], p50: 0, p99: 0 }));
  for (let round = 0; round < ROUNDS; round++) {
    for (const side of round % 2 === 0 ? [0, 1] : [1, 0]) {
      const result = await loadSide(side === 0 ? ours : theirs, SECONDS / ROUNDS);
      const total = totals[side];
      total.requests += result.requests.total;
      total.seconds += result.duration;
      total.rounds.push(result.requests.total / result.duration);
      total.p50 = Math.max(total.p50, result.latency.p50);
      total.p99 = Math.max(total.p99, result.latency.p99);
    }
  }
  return totals.map((t) => ({ ...t, rps: t.requests / t.seconds }));
}

async function getJson(url, headers = {}) {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(7);
const INDENT = '    ';

const range = (rounds) => `${fmt(Math.min(...rounds)).trim()}–${fmt(Math.max(...rounds)).trim()}`;

function line(label, [ours, bare], target, bareName = 'bare') {
  const ratio = ours.rps / bare.rps;
  console.log(label);
  console.log(`${INDENT}outpost ${fmt(ours.rps)} req/s   ${bareName} ${fmt(bare.rps)} req/s   ratio ${ratio.toFixed(2)} (target ≥ ${target.toFixed(2)}) ${ratio >= target ? 'PASS' : 'MISS'}`);
  console.log(`${INDENT}rounds: outpost ${range(ours.rounds)}, ${bareName} ${range(bare.rounds)} req/s; latency p50/p99 (worst round): outpost ${ours.p50}/${ours.p99} ms, ${bareName} ${bare.p50}/${bare.p99} ms`);
}

// BENCH_ONLY=browser: only the browser lines (bench/browserSync.mjs), on hubs of their own: nothing is seeded here.
if (process.env.BENCH_ONLY === 'browser') {
  await browserLines();
  process.exit(0);
}

// Seeding (or reusing BENCH_DATA_DIR).
const database = join(dataDir, 'outpost.sqlite');
const reuse = keepData && existsSync(database);
if (reuse) {
  console.log(`seed: reusing ${dataDir} (remove it to measure the seed time)`);
} else {
  mkdirSync(dataDir, { recursive: true });
  outpost('users', 'add', '--email', 'bench@example.com', '--name', 'Bench', '--role', 'admin', '--password', 'bench-password');
  const seeded = outpost('seed', '--contacts', String(CONTACTS)).split('\n').pop();
  console.log(`seed: ${seeded.replace(/^Seeded /, '')}`);
  if (ACTIVITIES > 0) {
    const activities = outpost('seed', '--tasks', String(ACTIVITIES), '--notes', String(ACTIVITIES)).split('\n').pop();
    console.log(`seed: ${activities.replace(/^Seeded /, '')}`);
  }
}
const counts = new Database(database, { readonly: true });
const count = (table) => counts.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
const [contacts, tasks, notes] = [count('contacts'), count('tasks'), count('notes')];
counts.close();
if (contacts === 0) throw new Error(`no contacts in ${database}`);
const token = JSON.parse(outpost('tokens', 'create', '--email', 'bench@example.com')).access_token;
const auth = { Authorization: `Bearer ${token}` };
const listQuery = `is_organization=false&customer_status=current&sort_by=last_name&per_page=${PER_PAGE}`;
if (ONLY_POSTGRES) {
  await postgresLines();
  process.exit(0);
}
if (ONLY_SYNC) {
  await syncBench();
  process.exit(0);
}
await startupLine();
if (ONLY_STARTUP) process.exit(0);
// Leads and deals for the palette search line, removed again before the sync lines.
const searchCounts = { contacts, ...addSearchRecords(database) };

warmFileCache(database);
const hub = await startHub();
const bare = await startBare();

// The baseline is only a baseline if it answers the same data: compare before measuring.
const bareListQuery = `is_organization=false&customer_status=current&per_page=${PER_PAGE}`;
let differences = 0;
for (let i = 0; i < 20; i++) {
  const id = 1 + Math.floor(Math.random() * contacts);
  const [ours, theirs] = await Promise.all([getJson(`${hub.base}/v2/contacts/${id}`, auth), getJson(`${bare.base}/contacts/${id}`)]);
  if (!isDeepStrictEqual(ours, theirs)) differences++;
}
for (const page of [1, randomPage(), LIST_PAGES]) {
  const [ours, theirs] = await Promise.all([getJson(`${hub.base}/v2/contacts?${listQuery}&page=${page}`, auth), getJson(`${bare.base}/contacts?${bareListQuery}&page=${page}`)]);
  if (!isDeepStrictEqual(ours.items, theirs.items) || ours.items.length !== PER_PAGE) differences++;
}
console.log(differences === 0
  ? 'check: the bare server answers the same data as outpost (20 contacts, 3 list pages compared)'
  : `check: WARNING: ${differences} of 23 bare answers differ from outpost's; the baseline does not do equivalent work`);
console.log(`hub: bearer-token authentication, scope checks, query validation and envelopes on; rate limiter on (limit ${RATE_LIMIT.toLocaleString('en-US')}/hour, never reached)`);
console.log(`measuring: ${SECONDS} s per server and line, in ${ROUNDS} alternating round${ROUNDS > 1 ? 's' : ''} after a ${WARM_UP_SECONDS} s warm-up; ${CONNECTIONS} connections, pipelining 1, 127.0.0.1; ${contacts} contacts`);
console.log('           (2-core machine: each server runs in its own process, beside the load generator)');

if (ONLY_BULK) {
  await bulkEditLine({ hub: hub.base, auth, file: database, indent: INDENT });
  await Promise.all([stop(hub.child), stop(bare.child)]);
  process.exit(0);
}

const byId = await compare(
  { base: hub.base, nextPath: () => `/v2/contacts/${randomInt(contacts)}`, headers: auth },
  { base: bare.base, nextPath: () => `/contacts/${randomInt(contacts)}` },
);
line('GET /v2/contacts/:id (random ids)', byId, 0.8);

const listPage = await compare(
  { base: hub.base, nextPath: () => `/v2/contacts?${listQuery}&page=${randomPage()}`, headers: auth },
  { base: bare.base, nextPath: () => `/contacts?${bareListQuery}&page=${randomPage()}` },
);
line(`GET /v2/contacts?${listQuery}&page=1..${LIST_PAGES}`, listPage, 2.0, 'bare naive');

// Full-text q on tasks and notes, beside the bare server running the same FTS5 query (rows as objects).
const word = () => SEARCH_WORDS[Math.floor(Math.random() * SEARCH_WORDS.length)];
// BENCH_ACTIVITIES=0 skips them, as documented: the seed's own thousand tasks and notes would measure each request's
// fixed cost beside a bare query over a tiny table, not search.
if (ACTIVITIES === 0) console.log('GET /v2/tasks?q=… and /v2/notes?q=…: skipped (BENCH_ACTIVITIES=0)');
for (const [resource, total] of ACTIVITIES === 0 ? [] : [['tasks', tasks], ['notes', notes]]) {
  if (total === 0) continue;
  const search = await compare(
    { base: hub.base, nextPath: () => `/v2/${resource}?q=${word()}`, headers: auth },
    { base: bare.base, nextPath: () => `/${resource}?q=${word()}` },
  );
  line(`GET /v2/${resource}?q=<word> (${total} ${resource})`, search, 0.8);
}

// The command palette's search across contacts, leads and deals: latency of one request at a time.
await paletteSearchLines({ hub: hub.base, bare: bare.base, auth, counts: searchCounts, file: database, indent: INDENT });

// The reports, on 100 000 deals and 300 000 activities added for the line (and removed after it), while the hub runs.
if (process.env.BENCH_REPORTS !== '0') {
  const reportCounts = addReportRecords(database);
  try {
    await reportLines({ hub: hub.base, auth, file: database, counts: reportCounts, indent: INDENT });
  } finally {
    removeReportRecords(database);
  }
}

// Last on this hub: it changes 20 000 contacts the lines before read.
if (process.env.BENCH_BULK !== '0') await bulkEditLine({ hub: hub.base, auth, file: database, indent: INDENT });

await Promise.all([stop(hub.child), stop(bare.child)]);
removeSearchRecords(database);
if (SYNC) await syncBench();
if (process.env.BENCH_POSTGRES !== '0') await postgresLines();
if (process.env.BENCH_CPU_PROF) console.log(`hub CPU profile written to ${resolve(process.env.BENCH_CPU_PROF)}`);
process.exit(0);

// ---- Start-up ----------------------------------------------------------------------------------

/**
 * From `node bin/outpost.mjs serve` started on the seeded data folder to the first 200 from /health, beside the
 * bare server's start to its first answer (node, better-sqlite3 opening the same file, node:http): starts taken
 * in turn, the median of each side. The `outpost` command runs its JavaScript build (dist/cli/), made before
 * the first start if its sources changed, so no start here compiles anything.
 */
async function startupLine() {
  // Builds the command first if its sources changed since its last build: a start measured here never includes one.
  outpost('help');
  const ours = [];
  const bare = [];
  for (let i = 0; i < STARTS; i++) {
    let started = performance.now();
    const hub = await startHub();
    const health = await fetch(`${hub.base}/health`);
    if (health.status !== 200) throw new Error(`GET /health answered ${health.status}, not 200`);
    ours.push((performance.now() - started) / 1000);
    await stop(hub.child);
    started = performance.now();
    const server = await startBare();
    const first = await fetch(`${server.base}/contacts/1`);
    if (first.status !== 200) throw new Error(`the bare server answered ${first.status}, not 200`);
    bare.push((performance.now() - started) / 1000);
    await stop(server.child);
  }
  const [seconds, bareSeconds] = [median(ours), median(bare)];
  const spread = (values) => `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}`;
  console.log(`hub start to the first 200 from /health (existing data folder, ${contacts} contacts), median of ${STARTS} starts: outpost ${seconds.toFixed(2)} s   `
    + `bare ${bareSeconds.toFixed(2)} s   ratio ${(seconds / bareSeconds).toFixed(1)}   ${(seconds / STARTUP_TARGET_SECONDS).toFixed(2)} of the target (≤ ${STARTUP_TARGET_SECONDS.toFixed(2)} s) ${seconds <= STARTUP_TARGET_SECONDS ? 'PASS' : 'MISS'}`);
  console.log(`${INDENT}starts: outpost ${spread(ours)} s, bare ${spread(bare)} s (bare: node, better-sqlite3 opening the same file and node:http answering its first request)`);
}

// ---- PostgreSQL (the go/no-go of docs/design/postgres-hub.md) ----------------------------------

/** The bridge line, then the hub on PostgreSQL (bench/postgresHub.mjs), on the seeded data with no other hub running. */
async function postgresLines() {
  await postgresLine();
  await postgresHubLines({
    root, dataDir, auth, counts: { contacts, tasks, notes }, listQuery, listPages: LIST_PAGES, perPage: PER_PAGE, words: SEARCH_WORDS,
    connections: CONNECTIONS, indent: INDENT, startHub, stop, load, compare, fmt, range, outpostIn, tempDir, runClient,
  });
}

/** A point read through the synchronous bridge beside node-postgres awaited (the same round trip) and better-sqlite3. */
async function postgresLine() {
  const result = await runJsonChild('PostgreSQL latency', ['--import', 'tsx', 'bench/postgresLatency.ts']);
  if (result.skipped) {
    console.log(`PostgreSQL line skipped: ${result.skipped}`);
    return;
  }
  const ratio = result.bridgeUs / result.asyncUs;
  console.log(`PostgreSQL point read by id, one statement at a time (${result.rows} rows, ${result.reads} reads a round): synchronous bridge ${result.bridgeUs.toFixed(0)} µs   node-postgres awaited ${result.asyncUs.toFixed(0)} µs   ratio ${ratio.toFixed(2)} (target ≤ 1.50) ${ratio <= 1.5 ? 'PASS' : 'MISS'}`);
  console.log(`${INDENT}better-sqlite3 on the same table (the engine today): ${result.sqliteUs.toFixed(1)} µs`);
  // The engine's driver where the optional libpq package built (electron/engine/db/libpqConnection.ts).
  console.log(`${INDENT}libpq's blocking calls (the hub's driver where npm install built native/pqsync): ${result.libpqUs === null ? 'not installed' : `${result.libpqUs.toFixed(0)} µs, ratio to node-postgres awaited ${(result.libpqUs / result.asyncUs).toFixed(2)}`}`);
}

// ---- Sync -------------------------------------------------------------------------------------

/**
 * Runs a client process (`node …args`) and resolves with the JSON line it printed last. It starts on a quiet
 * disk: the gigabytes the runs before it wrote (a million records' device files) are flushed first, or the
 * kernel writes them back during it, on the same two cores. Measured on the replica's first sync of a million
 * records: 32.3 s after 2.3 GB written just before, 28.6 s after `sync`.
 */
function runJsonChild(what, args, env = {}) {
  if (process.platform !== 'win32') spawnSync('sync');
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ...env } });
  track(child);
  const done = new Promise((resolveRun, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('exit', (code) => {
      if (code === 0) resolveRun(JSON.parse(out.trim().split('\n').pop()));
      else reject(new Error(`${what} exited ${code}: ${out}`));
    });
  });
  return within(CLIENT_TIMEOUT_MS, what, done);
}

/** Runs bench/syncClient.ts (a device in its own process) and returns what it printed. */
function runClient(...args) {
  return runJsonChild(`sync client ${args[0]}`, ['--import', 'tsx', 'bench/syncClient.ts', ...args]);
}

/** The replica's live sync: a hub edit seen in the replica's own table, beside the hub answering that edit (target ≤ 2 s). */
function liveSyncLine({ seenMs, answeredMs }) {
  const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
  const [seen, answered, slowest] = [median(seenMs), median(answeredMs), Math.max(...seenMs)];
  console.log(`replica live sync, ${seenMs.length} hub edits one at a time: on the replica after median ${seen.toFixed(0)} ms, slowest ${slowest.toFixed(0)} ms   the hub answering the edit: median ${answered.toFixed(0)} ms   ratio ${(seen / answered).toFixed(1)}`);
  console.log(`${INDENT}target: every hub edit on the replica within 2 s: ${slowest <= 2000 ? 'PASS' : 'MISS'}`);
}

/**
 * Target: the replica's peak memory during its first sync under 200 MB, and flat in the record count: the
 * slope between two sizes, as the hub's memory line (flat: at most 10 % more for the larger).
 */
function replicaMemoryLine(smaller, larger) {
  const mb = (n) => `${Math.round(n)} MB`;
  const growth = larger.syncPeakMb / smaller.syncPeakMb - 1;
  const perHundredThousand = ((larger.syncPeakMb - smaller.syncPeakMb) / (larger.records - smaller.records)) * 100_000;
  const pass = larger.syncPeakMb < 200 && smaller.syncPeakMb < 200 && growth <= 0.1;
  console.log(`${INDENT}replica peak memory during the first sync ${mb(smaller.syncPeakMb)} / ${mb(larger.syncPeakMb)} for ${smaller.records} / ${larger.records} records: `
    + `${(growth * 100).toFixed(0)} % (${perHundredThousand.toFixed(1)} MB per 100 000 records) (target < 200 MB and flat, ≤ 10 %) ${pass ? 'PASS' : 'MISS'}`);
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/**
 * Target: the replica's first sync ≤ 1.5× the plain download, each the median of its alternating rounds,
 * every round's figures shown; and where the median round's time went.
 */
function replicaSyncLine(replicas, plains) {
  const seconds = (values) => values.map((n) => n.toFixed(1)).join(' / ');
  const replicaSeconds = replicas.map((r) => r.initialSeconds);
  const plainSeconds = plains.map((p) => p.seconds);
  const ratio = median(replicaSeconds) / median(plainSeconds);
  const rounds = replicas.length > 1 ? `, median of ${replicas.length} alternating rounds` : '';
  console.log(`replica initial sync of ${replicas[replicas.length - 1].records} records: ${median(replicaSeconds).toFixed(1)} s   plain paged download ${median(plainSeconds).toFixed(1)} s${rounds}   `
    + `ratio ${ratio.toFixed(2)} (target ≤ 1.50) ${ratio <= 1.5 ? 'PASS' : 'MISS'}`);
  if (replicas.length > 1) console.log(`${INDENT}rounds: replica ${seconds(replicaSeconds)} s, plain ${seconds(plainSeconds)} s; each round's ratio ${replicaSeconds.map((r, i) => (r / plainSeconds[i]).toFixed(2)).join(' / ')}`);
}

/** Runs bench/replicaClient.ts, bundled like the desktop main process: a fresh replica's initial sync, then `edits` offline edits pushed. */
async function runReplica(hubUrl, token, dir, edits, hubPid) {
  const bundle = await buildReplicaClient(root);
  // HUB_PID: the client reads the hub's CPU time around the push (Linux /proc), to show which side bounds it.
  return runJsonChild('replica client', replicaClientArgs(bundle, hubUrl, token, dir, edits), { HUB_PID: String(hubPid) });
}

/** Resident and peak resident memory (MB) of a process, from /proc (Linux); NaN elsewhere. */
function memoryMb(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(status)[1]);
    return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
  } catch {
    return { rss: NaN, peak: NaN };
  }
}

/**
 * A data folder with about `records` records in the bench data's own mix of contacts, tasks and notes, so that
 * a smaller size differs from the full one only in size (a contact is several times a task's JSON).
 */
function seedFolder(records, mix) {
  const dir = tempDir('outpost-bench-sync-');
  outpostIn(dir, 'users', 'add', '--email', 'bench@example.com', '--name', 'Bench', '--role', 'admin', '--password', 'bench-password');
  const share = (n) => String(Math.round((records * n) / (mix.contacts + mix.tasks + mix.notes)));
  outpostIn(dir, 'seed', '--contacts', share(mix.contacts), '--tasks', share(mix.tasks), '--notes', share(mix.notes));
  return dir;
}

/** A fresh hub on `dir`, and a fresh device's initial sync from it, with both processes' memory. */
async function initialSync(dir) {
  const hub = await startHub(dir);
  const token = JSON.parse(outpostIn(dir, 'tokens', 'create', '--email', 'bench@example.com', '--scope', 'read write profile sync')).access_token;
  const idle = memoryMb(hub.child.pid).rss;
  const uuid = randomUUID();
  const client = await runClient('outpost', hub.base, token, uuid, join(tempDir('outpost-device-'), 'device.sqlite'));
  return { hub, token, uuid, client, hubIdle: idle, hubPeak: memoryMb(hub.child.pid).peak };
}

async function syncBench() {
  const mb = (n) => `${Math.round(n)} MB`;
  const main = contacts + tasks + notes;
  console.log(`\nsync: a fresh device's initial sync over HTTP on 127.0.0.1 into its own SQLite file (bench/syncClient.ts), each hub freshly started`);
  const sizes = [Math.round(main / 30), Math.round(main / 3)];
  const runs = [];
  let smallerReplica;
  for (const size of sizes) {
    const dir = seedFolder(size, { contacts, tasks, notes });
    const run = await initialSync(dir);
    // The replica's first sync at a third of the size too: its time split and peak memory at two sizes.
    if (size === sizes[1]) smallerReplica = await runReplica(run.hub.base, run.token, tempDir('outpost-replica-'), 0, run.hub.child.pid);
    await stop(run.hub.child);
    runs.push(run);
  }
  const full = await initialSync(dataDir);
  runs.push(full);
  for (const run of runs) {
    const { records, seconds, maxRssMb } = run.client;
    console.log(`${INDENT}${String(records).padStart(7)} records in ${seconds.toFixed(1).padStart(5)} s (${fmt(records / seconds).trim()} records/s); hub ${mb(run.hubIdle)} idle, ${mb(run.hubPeak)} peak; device peak ${mb(maxRssMb)}`);
  }
  const peaks = runs.map((r) => r.hubPeak);
  const [, middle, last] = peaks;
  console.log(`${INDENT}hub peak memory ${peaks.map(mb).join(' / ')} for ${runs.map((r) => r.client.records).join(' / ')} records: ${((last / middle - 1) * 100).toFixed(0)} % from ${runs[1].client.records} to ${runs[2].client.records}`);
  console.log(`${INDENT}(its SQLite page cache, capped at 64 MiB, fills up over the first ~100 000 records; past that, memory does not grow with the backlog)`);

  // The plain download alternates with the replica's first sync (below); its first run is the devices' comparison too.
  const bare = await startBare();
  const plainRun = () => runClient('plain', bare.base, '-', '-', join(tempDir('outpost-plain-'), 'device.sqlite'));
  const plains = [await plainRun()];
  const plain = plains[0];
  const ours = full.client;
  const ratio = ours.seconds / plain.seconds;
  console.log(`initial sync of ${ours.records} records: outpost ${ours.seconds.toFixed(1)} s   plain paged download ${plain.seconds.toFixed(1)} s (${plain.records} records, device peak ${mb(plain.maxRssMb)})   time ratio ${ratio.toFixed(2)}`);
  const syncTarget = SYNC_TARGET_SECONDS * Math.max(1, ours.records / SYNC_TARGET_RECORDS);
  const targetRule = ours.records > SYNC_TARGET_RECORDS ? ` (${SYNC_TARGET_SECONDS} s per ${SYNC_TARGET_RECORDS.toLocaleString('en-US')})` : '';
  console.log(`${INDENT}target: ${ours.records} records in ≤ ${syncTarget.toFixed(0)} s${targetRule} end to end: ${ours.seconds <= syncTarget ? 'PASS' : 'MISS'}`);

  // Start when nothing changed (the device is current) beside the cheapest authenticated request.
  const deviceHeaders = { Authorization: `Bearer ${full.token}`, 'X-Service-Device-UUID': full.uuid };
  const check = await fetch(`${full.hub.base}/v2/sync/start`, { method: 'POST', headers: deviceHeaders });
  if (check.status !== 204) throw new Error(`start on a current device answered ${check.status}, not 204`);
  const startCost = await compare(
    { base: full.hub.base, nextPath: () => '/v2/sync/start', headers: deviceHeaders, method: 'POST' },
    { base: full.hub.base, nextPath: () => '/v2/users/self', headers: { Authorization: `Bearer ${full.token}` } },
  );
  line(`POST /v2/sync/start, nothing changed (204), beside GET /v2/users/self on the same hub`, startCost, 0.5, 'users/self');

  // The desktop replica: the same initial sync into a real replica engine (its tables, search, documents), each
  // round beside a plain download; the last round's replica then pushes offline edits.
  const replicas = [];
  for (let round = 1; round <= REPLICA_ROUNDS; round++) {
    if (round > 1) plains.push(await plainRun());
    const edits = round === REPLICA_ROUNDS ? REPLICA_EDITS : 0;
    replicas.push(await runReplica(full.hub.base, full.token, tempDir('outpost-replica-'), edits, full.hub.child.pid));
  }
  await stop(bare.child);
  const replica = replicas[replicas.length - 1];
  replicaSyncLine(replicas, plains);
  // Where the time went: at a third of the size, and in the round whose time is the median.
  const medianSeconds = median(replicas.map((r) => r.initialSeconds));
  const typical = replicas.reduce((a, b) => (Math.abs(b.initialSeconds - medianSeconds) < Math.abs(a.initialSeconds - medianSeconds) ? b : a));
  for (const run of [smallerReplica, typical]) console.log(`${INDENT}${run.firstSync}`);
  // Memory: the highest peak of the rounds.
  replicaMemoryLine(smallerReplica, replicas.reduce((a, b) => (b.syncPeakMb > a.syncPeakMb ? b : a)));
  console.log(`${INDENT}whole run, with ${replica.edits} local edits and their push: peak ${mb(replica.maxRssMb)}`);
  console.log(`replica push of ${replica.edits} offline edits: ${replica.pushSeconds.toFixed(1)} s (${fmt(replica.edits / replica.pushSeconds).trim()} edits/s; target < 20 s) ${replica.pushSeconds < 20 ? 'PASS' : 'MISS'}`);
  console.log(`${INDENT}CPU during the push: replica ${replica.pushCpuSeconds.toFixed(1)} s, hub ${typeof replica.hubPushCpuSeconds === 'number' ? `${replica.hubPushCpuSeconds.toFixed(1)} s` : 'n/a'}`);
  const { conflicted } = replica;
  const conflictRatio = conflicted.seconds / replica.pushSeconds;
  console.log(`replica push of ${conflicted.edits} offline edits, ${conflicted.conflicts} of them against a colleague's change (kept as conflicts): ${conflicted.seconds.toFixed(1)} s   `
    + `beside the push without conflicts ${replica.pushSeconds.toFixed(1)} s   ratio ${conflictRatio.toFixed(2)} (target < 20 s) ${conflicted.seconds < 20 ? 'PASS' : 'MISS'}`);
  liveSyncLine(replica.live);

  await stop(full.hub.child);
}
