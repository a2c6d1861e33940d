// `npm run bench`, issue 24 phase 5: the hub on PostgreSQL beside the hub on SQLite on the same data, and two
// PostgreSQL hub nodes beside one. Called by bench/run.mjs after its other lines (the SQLite hub is stopped by
// then), with its helpers passed in, so both hubs are loaded exactly as the other lines load theirs.
//
// A throwaway cluster (test/support/postgresCluster.ts, as the tests start it: initdb in a temp folder, loopback,
// fsync off, otherwise PostgreSQL's defaults) gets one database, and the bench's seeded SQLite hub is copied into
// it with `outpost migrate`: the same rows, ids and tokens. Then, printed as information (no spec target
// compares the two backends on one machine):
//   - by id, list page and `q`, one request at a time: latency, and CPU per request of the hub and the server;
//   - the same as req/s in alternating rounds: a PostgreSQL hub node beside the SQLite hub;
//   - by id and list page over two nodes on the one database (half the connections each, at once, summed)
//     beside one node with all of them;
//   - last, the initial sync of the whole data set (sync start and every queue page, bench/syncClient.ts) on each.
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { tsImport } from 'tsx/esm/api';

const DATABASE = 'outpost_bench';
const SYNC_SCOPE = 'read write profile sync';
const COPY_TIMEOUT_MS = 15 * 60_000;
/** Requests per path in the one-at-a-time line, after a few to warm up. */
const SERIAL_REQUESTS = 200;
const SERIAL_WARM_UP = 20;
/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux. */
const CLOCK_TICKS = 100;

/** The lines; `bench` holds run.mjs's data (dataDir, auth, counts, …) and helpers (startHub, compare, load, …). */
export async function postgresHubLines(bench) {
  const { startPostgresCluster, whyNoPostgres } = await tsImport('../test/support/postgresCluster.ts', import.meta.url);
  const missing = whyNoPostgres();
  if (missing) {
    console.log(`PostgreSQL hub lines skipped: ${missing}`);
    return;
  }
  console.log('\npostgres: the hub on PostgreSQL (a throwaway local cluster: fsync off, as the tests run it, otherwise PostgreSQL 15 defaults) beside the hub on SQLite, same data');
  const cluster = await startPostgresCluster();
  // pg_ctl daemonizes the server: it is no child of the bench, so it is stopped here on every way out.
  const stopCluster = () => cluster.stop();
  process.on('exit', stopCluster);
  try {
    cluster.sql(`CREATE DATABASE ${DATABASE}`);
    const url = cluster.url.replace(/\/postgres$/, `/${DATABASE}`);
    // Created before the copy, so both hubs know the same token.
    const syncToken = JSON.parse(bench.outpostIn(bench.dataDir, 'tokens', 'create', '--email', 'bench@example.com', '--scope', SYNC_SCOPE)).access_token;
    copyInto(bench, url);
    const postmaster = Number(readFileSync(join(cluster.sql('SHOW data_directory'), 'postmaster.pid'), 'utf8').split('\n')[0]);
    await measure(bench, url, syncToken, postmaster);
  } finally {
    process.off('exit', stopCluster);
    stopCluster();
  }
}

/** `outpost migrate` of the bench's SQLite hub (stopped) into the database at `url`, with its own summary line. */
function copyInto({ root, dataDir, indent }, url) {
  const started = performance.now();
  const result = spawnSync(process.execPath, ['bin/outpost.mjs', 'migrate', '--from-data-dir', dataDir, '--to', url], { cwd: root, encoding: 'utf8', timeout: COPY_TIMEOUT_MS });
  if (result.status !== 0) throw new Error(`outpost migrate: ${result.error?.message ?? ''}${result.stderr}${result.stdout}`);
  const summary = result.stdout.trim().split('\n').find((l) => l.startsWith('Copied ')) ?? result.stdout.trim();
  console.log(`${indent}outpost migrate --from-data-dir <the bench's data> --to <cluster>: ${summary.replace(/ into \S+\.$/, '')} (${((performance.now() - started) / 1000).toFixed(1)} s with the command's start)`);
}

async function measure(bench, url, syncToken, postmaster) {
  const { dataDir, tempDir, startHub, stop, indent } = bench;
  const pgNode = () => startHub(tempDir('outpost-bench-pg-node-'), ['--database-url', url]);
  const [postgres, sqlite] = [await pgNode(), await startHub(dataDir)];
  try {
    await sameData(bench, postgres.base, sqlite.base);
    console.log(`${indent}both hubs: rate limiter on (limit never reached); on PostgreSQL it counts in a shared table: one upsert per request`);
    console.log(`${indent}each SQL statement on PostgreSQL is a round trip to the server (the bridge line above shows its cost beside better-sqlite3's), so a request costs its statements' round trips`);
    await oneAtATime(bench, { ...postgres, postmaster }, sqlite);
    await hubBesideHub(bench, postgres.base, sqlite.base);
    const second = await pgNode();
    try {
      await twoNodesBesideOne(bench, postgres.base, second.base);
    } finally {
      await stop(second.child);
    }
    // Last: a sync past the client's time limit leaves its process running until the bench exits.
    await syncBesideSync(bench, postgres.base, sqlite.base, syncToken);
  } finally {
    await Promise.all([stop(postgres.child), stop(sqlite.child)]);
  }
}

/** Paths the load lines draw from: a random contact, a random list page, a word for `q`. */
function paths({ counts, listQuery, listPages, words }) {
  const randomInt = (max) => 1 + Math.floor(Math.random() * max);
  return {
    byId: () => `/v2/contacts/${randomInt(counts.contacts)}`,
    list: () => `/v2/contacts?${listQuery}&page=${randomInt(listPages)}`,
    search: (resource) => () => `/v2/${resource}?q=${words[Math.floor(Math.random() * words.length)]}`,
  };
}

async function getJson(url, headers) {
  const response = await fetch(url, { headers });
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${await response.text()}`);
  return response.json();
}

/** The comparison is only fair if both hubs answer the same: a sample of each line's requests compared before measuring. */
async function sameData(bench, postgres, sqlite) {
  const path = paths(bench);
  const sample = [
    ...Array.from({ length: 20 }, path.byId),
    ...Array.from({ length: 3 }, path.list),
    ...['tasks', 'notes'].filter((r) => bench.counts[r] > 0).flatMap((r) => Array.from({ length: 3 }, path.search(r))),
  ];
  const differ = [];
  for (const p of sample) {
    // Links name the hub that answered: compared without its address.
    const [a, b] = await Promise.all([getJson(postgres + p, bench.auth), getJson(sqlite + p, bench.auth)]);
    if (!isDeepStrictEqual(JSON.parse(JSON.stringify(a).replaceAll(postgres, '')), JSON.parse(JSON.stringify(b).replaceAll(sqlite, '')))) differ.push(p);
  }
  console.log(differ.length === 0
    ? `${bench.indent}check: both hubs answer the same (${sample.length} requests of the lines below compared)`
    : `${bench.indent}check: WARNING: ${differ.length} of ${sample.length} answers differ between the hubs, e.g. ${differ.slice(0, 3).join(', ')}`);
}

/** A line of two sides' req/s (run.mjs's `compare` result) and their ratio, for information: no target. */
function infoLine({ fmt, range, indent }, label, [ours, theirs], [ourName, theirName]) {
  console.log(label);
  console.log(`${indent}${ourName} ${fmt(ours.rps)} req/s   ${theirName} ${fmt(theirs.rps)} req/s   ratio ${(ours.rps / theirs.rps).toFixed(2)} (info)`);
  console.log(`${indent}rounds: ${ourName} ${range(ours.rounds)}, ${theirName} ${range(theirs.rounds)} req/s; latency p50/p99 (worst round): ${ourName} ${ours.p50}/${ours.p99} ms, ${theirName} ${theirs.p50}/${theirs.p99} ms`);
}

/** CPU seconds a process has used (user and system), from /proc (Linux); NaN elsewhere. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}

/** CPU seconds of the PostgreSQL server: the postmaster and its children (a backend per connection, the background workers). */
function serverCpuSeconds(postmaster) {
  let total = cpuSeconds(postmaster);
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (Number(readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1].split(' ')[1]) === postmaster) total += cpuSeconds(Number(entry));
    } catch {
      // The process ended while the list was read.
    }
  }
  return total;
}

/** Where a request's time goes: each path requested one at a time, latency and CPU per request of the hub process and of the PostgreSQL server. */
async function oneAtATime(bench, postgres, sqlite) {
  const { auth, indent, counts } = bench;
  const path = paths(bench);
  const ms = (seconds) => `${((seconds * 1000) / SERIAL_REQUESTS).toFixed(2)} ms`;
  const timed = async ({ base, child, postmaster }, nextPath) => {
    const send = async () => (await fetch(base + nextPath(), { headers: auth })).arrayBuffer();
    for (let i = 0; i < SERIAL_WARM_UP; i++) await send();
    const [hub, server, started] = [cpuSeconds(child.pid), postmaster ? serverCpuSeconds(postmaster) : 0, performance.now()];
    for (let i = 0; i < SERIAL_REQUESTS; i++) await send();
    return { seconds: (performance.now() - started) / 1000, hub: cpuSeconds(child.pid) - hub, server: postmaster ? serverCpuSeconds(postmaster) - server : 0 };
  };
  console.log(`postgres one request at a time (${SERIAL_REQUESTS} a path, after ${SERIAL_WARM_UP} to warm up): latency, and CPU per request of the hub process and of the PostgreSQL server`);
  const lines = [['GET /v2/contacts/:id', path.byId], ['contacts list page', path.list], ['tasks q=<word>', counts.tasks > 0 ? path.search('tasks') : null]];
  for (const [label, nextPath] of lines.filter(([, p]) => p)) {
    const [pg, lite] = [await timed(postgres, nextPath), await timed(sqlite, nextPath)];
    console.log(`${indent}${label.padEnd(21)} postgres ${ms(pg.seconds)} (hub ${ms(pg.hub)} CPU, PostgreSQL server ${ms(pg.server)} CPU)   sqlite ${ms(lite.seconds)} (hub ${ms(lite.hub)} CPU)`);
  }
}

async function hubBesideHub(bench, postgres, sqlite) {
  const { compare, auth, counts, listQuery, listPages } = bench;
  const path = paths(bench);
  const names = ['postgres', 'sqlite'];
  const side = (base, nextPath) => ({ base, nextPath, headers: auth });
  const pair = (nextPath) => compare(side(postgres, nextPath), side(sqlite, nextPath));
  infoLine(bench, `postgres GET /v2/contacts/:id (random ids, ${counts.contacts} contacts)`, await pair(path.byId), names);
  infoLine(bench, `postgres GET /v2/contacts?${listQuery}&page=1..${listPages}`, await pair(path.list), names);
  for (const resource of ['tasks', 'notes']) {
    if (counts[resource] === 0) continue;
    infoLine(bench, `postgres GET /v2/${resource}?q=<word> (${counts[resource]} ${resource})`, await pair(path.search(resource)), names);
  }
}

/** A fresh device's initial sync of everything on each hub (both warm from the lines above), one after the other. */
async function syncBesideSync({ runClient, tempDir, indent }, postgres, sqlite, token) {
  const sync = (base) => runClient('outpost', base, token, randomUUID(), join(tempDir('outpost-device-'), 'device.sqlite'));
  const rate = (run) => `${Math.round(run.records / run.seconds).toLocaleString('en-US')} records/s`;
  console.log(`postgres initial sync of the whole data set (a fresh device, bench/syncClient.ts: sync start and every queue page)`);
  const lite = await sync(sqlite);
  let pg;
  try {
    pg = await sync(postgres);
  } catch (err) {
    // The client's time limit (run.mjs): said, not thrown, so the bench goes on to its end.
    console.log(`${indent}postgres: ${err.message}   sqlite ${lite.records} records in ${lite.seconds.toFixed(1)} s (${rate(lite)})`);
    return;
  }
  console.log(`${indent}postgres ${pg.records} records in ${pg.seconds.toFixed(1)} s (${rate(pg)})   sqlite ${lite.records} records in ${lite.seconds.toFixed(1)} s (${rate(lite)})   time ratio ${(pg.seconds / lite.seconds).toFixed(2)} (info)`);
}

/** Two nodes on the one database, half the connections each at once, beside one node with all of them. */
async function twoNodesBesideOne(bench, first, second) {
  const { compare, load, auth, connections, listQuery, listPages } = bench;
  const path = paths(bench);
  const half = Math.max(1, Math.floor(connections / 2));
  const oneNode = (nextPath) => ({ base: first, nextPath, headers: auth });
  const twoNodes = (nextPath) => async (duration) => {
    const results = await Promise.all([first, second].map((base) => load({ base, nextPath, headers: auth, connections: half }, duration)));
    return {
      requests: { total: results.reduce((sum, r) => sum + r.requests.total, 0) },
      duration: Math.max(...results.map((r) => r.duration)),
      latency: { p50: Math.max(...results.map((r) => r.latency.p50)), p99: Math.max(...results.map((r) => r.latency.p99)) },
    };
  };
  const names = ['two nodes', 'one node'];
  console.log(`postgres: two hub nodes (two processes) on the one database, ${half} connections each at once, beside one node with ${connections}; the PostgreSQL server, both nodes and the load generator share the machine's cores`);
  infoLine(bench, 'postgres GET /v2/contacts/:id (random ids), two nodes beside one', await compare(twoNodes(path.byId), oneNode(path.byId)), names);
  infoLine(bench, `postgres GET /v2/contacts?${listQuery}&page=1..${listPages}, two nodes beside one`, await compare(twoNodes(path.list), oneNode(path.list)), names);
}
