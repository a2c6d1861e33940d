// `npm run bench`'s PostgreSQL lines: the hub on PostgreSQL beside the hub on SQLite on the same data, and two
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
// And the PostgreSQL hub node's speed targets, PASS or MISS (ratio = hub node req/s ÷ the other side's, same run, same data, alternating rounds):
//   - by id (≥ 0.8), list page (≥ 1.0), `q` on tasks and notes (≥ 1.0): a PostgreSQL hub node beside a plain Fastify +
//     node-postgres server on the same database (bench/barePostgresServer.mjs), at LOAD_CONNECTIONS connections;
//   - reads by id on two nodes beside one (≥ 1.8), and writes (PUT /v2/contacts/:id, a new title on a random
//     contact) from two nodes at once beside one node (≥ 1.6), half the connections each;
//   - the initial sync: ≤ 15 s for ≥ 300 000 records (judged only at that size).
// BENCH_PG_NODE_ARGS: more `serve` options for the PostgreSQL hub nodes, space separated (e.g. "--workers 3").
import { fork, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { tsImport } from 'tsx/esm/api';
import autocannon from 'autocannon';

const DATABASE = 'outpost_bench';
const SYNC_SCOPE = 'read write profile sync';
const COPY_TIMEOUT_MS = 15 * 60_000;
/** Requests per path in the one-at-a-time line, after a few to warm up. */
const SERIAL_REQUESTS = 200;
const SERIAL_WARM_UP = 20;
/** /proc/<pid>/stat counts CPU time in clock ticks: 100 a second on Linux. */
const CLOCK_TICKS = 100;
/** Connections for the lines with targets, which were set at 50 connections. */
const LOAD_CONNECTIONS = 50;
/**
 * By id and list page beside the plain server are judged at 16 connections too: fewer clients than the plain
 * server's pool of 10 keeps busy give the node's few engine workers less to overlap, and a ratio taken at 50
 * alone hid that (0.94 at 50 where 16 gave 0.42–0.55 from outside).
 */
const PLAIN_CONNECTIONS = [16, LOAD_CONNECTIONS];
/** The targets listed at the top of this file. */
const TARGETS = { byId: 0.8, list: 1.0, search: 1.0, twoNodeReads: 1.8, twoNodeWrites: 1.6, syncSeconds: 15, syncRecords: 300_000 };
/** Precomputed writes per connection (each a random contact and title), as run.mjs's `load` precomputes paths. */
const WRITES_PER_CONNECTION = 1000;
const NODE_ARGS = (process.env.BENCH_PG_NODE_ARGS ?? '').split(' ').filter(Boolean);

/** The lines; `bench` holds run.mjs's data (dataDir, auth, counts, …) and helpers (startHub, compare, load, …). */
export async function postgresHubLines(bench) {
  const { startPostgresCluster, whyNoPostgres } = await tsImport('../test/support/postgresCluster.ts', import.meta.url);
  const missing = whyNoPostgres();
  if (missing) {
    console.log(`PostgreSQL hub lines skipped: ${missing}`);
    return;
  }
  console.log('\npostgres: the hub on PostgreSQL (a throwaway local cluster: fsync off, as the tests run it, otherwise PostgreSQL 15 defaults) beside the hub on SQLite, same data');
  console.log(`${bench.indent}PostgreSQL hub nodes: outpost serve --database-url <cluster>${NODE_ARGS.length > 0 ? ` ${NODE_ARGS.join(' ')}` : ''} (BENCH_PG_NODE_ARGS: ${NODE_ARGS.length > 0 ? 'set' : 'none'})`);
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
  const pgNode = () => startHub(tempDir('outpost-bench-pg-node-'), ['--database-url', url, ...NODE_ARGS]);
  const [postgres, sqlite, plain] = [await pgNode(), await startHub(dataDir), await startPlain(bench, url)];
  try {
    await sameData(bench, postgres.base, sqlite.base);
    await samePlainData(bench, postgres.base, plain.base);
    console.log(`${indent}both hubs: rate limiter on (limit never reached); on PostgreSQL it counts in a shared table: one upsert per request`);
    console.log(`${indent}each SQL statement on PostgreSQL is a round trip to the server (the bridge line above shows its cost beside better-sqlite3's), so a request costs its statements' round trips`);
    await oneAtATime(bench, { ...postgres, postmaster }, sqlite);
    await hubBesideHub(bench, postgres.base, sqlite.base);
    await hubBesidePlain(bench, postgres.base, plain.base);
    const second = await pgNode();
    try {
      await twoNodesBesideOne(bench, postgres.base, second.base);
    } finally {
      await stop(second.child);
    }
    // Last: a sync past the client's time limit leaves its process running until the bench exits.
    await syncBesideSync(bench, postgres.base, sqlite.base, syncToken);
  } finally {
    await Promise.all([stop(postgres.child), stop(sqlite.child), stop(plain.child)]);
  }
}

/** The plain Fastify + node-postgres server (bench/barePostgresServer.mjs) on the database at `url`. */
function startPlain({ root }, url) {
  const child = fork(join(root, 'bench/barePostgresServer.mjs'), [url], { stdio: 'inherit' });
  return new Promise((resolveStart, reject) => {
    const timer = setTimeout(() => reject(new Error('the plain PostgreSQL server did not start within 60 s')), 60_000);
    child.once('message', ({ port }) => {
      clearTimeout(timer);
      resolveStart({ child, base: `http://127.0.0.1:${port}` });
    });
    child.once('exit', (code, signal) => reject(new Error(`the plain PostgreSQL server exited (${code ?? signal})`)));
  });
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

/** A line of two sides' req/s (run.mjs's `compare` result) and their ratio: against `target` (≥) when given, else for information. */
function infoLine({ fmt, range, indent }, label, [ours, theirs], [ourName, theirName], target) {
  const ratio = ours.rps / theirs.rps;
  const verdict = target === undefined ? '(info)' : `(target ≥ ${target.toFixed(2)}) ${ratio >= target ? 'PASS' : 'MISS'}`;
  console.log(label);
  console.log(`${indent}${ourName} ${fmt(ours.rps)} req/s   ${theirName} ${fmt(theirs.rps)} req/s   ratio ${ratio.toFixed(2)} ${verdict}`);
  console.log(`${indent}rounds: ${ourName} ${range(ours.rounds)}, ${theirName} ${range(theirs.rounds)} req/s; latency p50/p99 (worst round): ${ourName} ${ours.p50}/${ours.p99} ms, ${theirName} ${theirs.p50}/${theirs.p99} ms`);
}

/** A search answer's records as comparable values: booleans as 0/1 and arrays as JSON text (the plain server answers plain rows). */
const comparable = (value) => (typeof value === 'boolean' ? Number(value) : value !== null && typeof value === 'object' ? JSON.stringify(value) : value);

/** The same records in the same order, and the same value in every field both answers have. */
function sameRecords(hubItems, plainItems) {
  return hubItems.length === plainItems.length && hubItems.every(({ data: hub }, i) => {
    const plain = plainItems[i].data;
    return Object.keys(hub).filter((key) => Object.hasOwn(plain, key)).every((key) => comparable(hub[key]) === comparable(plain[key])) && hub.id === plain.id;
  });
}

/**
 * The plain server is only a baseline if it answers the same data: contacts (by id, list pages) compared whole,
 * as both build the API's contact JSON; tasks and notes by `sameRecords`, as the plain server answers their rows.
 */
async function samePlainData(bench, hub, plain) {
  const path = paths(bench);
  const sample = [
    ...Array.from({ length: 20 }, () => ['contact', path.byId()]),
    ...Array.from({ length: 3 }, () => ['list', path.list()]),
    ...['tasks', 'notes'].filter((r) => bench.counts[r] > 0).flatMap((r) => Array.from({ length: 3 }, () => ['search', path.search(r)()])),
  ];
  const differ = [];
  for (const [kind, p] of sample) {
    const [a, b] = await Promise.all([getJson(hub + p, bench.auth), getJson(plain + p, bench.auth)]);
    const same = kind === 'contact' ? isDeepStrictEqual(a.data, b.data)
      : kind === 'list' ? isDeepStrictEqual(a.items.map((i) => i.data), b.items.map((i) => i.data)) && a.items.length === bench.perPage
        : sameRecords(a.items, b.items) && a.items.length > 0;
    if (!same) differ.push(p);
  }
  console.log(differ.length === 0
    ? `${bench.indent}check: the plain PostgreSQL server answers the same data as the PostgreSQL hub (${sample.length} requests compared: contacts whole, tasks and notes by ids in order and the fields both have)`
    : `${bench.indent}check: WARNING: ${differ.length} of ${sample.length} plain answers differ from the hub's, e.g. ${differ.slice(0, 3).join(', ')}`);
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
    console.log(`${indent}target on PostgreSQL: ≥ ${TARGETS.syncRecords.toLocaleString('en-US')} records in ≤ ${TARGETS.syncSeconds} s: MISS (the sync did not finish)`);
    return;
  }
  console.log(`${indent}postgres ${pg.records} records in ${pg.seconds.toFixed(1)} s (${rate(pg)})   sqlite ${lite.records} records in ${lite.seconds.toFixed(1)} s (${rate(lite)})   time ratio ${(pg.seconds / lite.seconds).toFixed(2)} (info)`);
  const { syncSeconds, syncRecords } = TARGETS;
  const verdict = pg.records < syncRecords ? `not judged: fewer than ${syncRecords.toLocaleString('en-US')} records` : pg.seconds <= syncSeconds ? 'PASS' : 'MISS';
  console.log(`${indent}target on PostgreSQL: ≥ ${syncRecords.toLocaleString('en-US')} records in ≤ ${syncSeconds} s: ${pg.records} records in ${pg.seconds.toFixed(1)} s, ${verdict}`);
}

/**
 * The comparison with targets: a PostgreSQL hub node beside a plain Fastify + node-postgres server on the same database,
 * at LOAD_CONNECTIONS connections; last, writes (information: the plain server writes no change log or revisions).
 */
async function hubBesidePlain(bench, hub, plain) {
  const { compare, auth, counts, listQuery, listPages } = bench;
  const path = paths(bench);
  const names = ['hub node', 'plain'];
  const side = (base, nextPath, connections) => ({ base, nextPath, headers: auth, connections });
  const pair = (nextPath, connections = LOAD_CONNECTIONS) => compare(side(hub, nextPath, connections), side(plain, nextPath, connections));
  console.log(`postgres: a hub node beside a plain Fastify + node-postgres server (bench/barePostgresServer.mjs: a token lookup, then the row; pool of 10) on the same database, ${PLAIN_CONNECTIONS.join(' and ')} connections`);
  for (const connections of PLAIN_CONNECTIONS) {
    infoLine(bench, `postgres GET /v2/contacts/:id (random ids, ${counts.contacts} contacts), ${connections} connections, hub node beside plain`, await pair(path.byId, connections), names, TARGETS.byId);
    infoLine(bench, `postgres GET /v2/contacts?${listQuery}&page=1..${listPages}, ${connections} connections, hub node beside plain`, await pair(path.list, connections), names, TARGETS.list);
  }
  console.log(`${bench.indent}the lines below at ${LOAD_CONNECTIONS} connections`);
  for (const resource of ['tasks', 'notes']) {
    if (counts[resource] === 0) continue;
    infoLine(bench, `postgres GET /v2/${resource}?q=<word> (${counts[resource]} ${resource}), hub node beside plain`, await pair(path.search(resource)), names, TARGETS.search);
  }
  const writes = (base) => (duration) => writeLoad(bench, base, LOAD_CONNECTIONS, duration);
  infoLine(bench, 'postgres PUT /v2/contacts/:id (a new title, random ids), hub node beside plain (an UPDATE … RETURNING)', await compare(writes(hub), writes(plain)), names);
}

/**
 * `PUT /v2/contacts/:id` with a new title on random contacts, as run.mjs's `load` runs reads: each connection
 * gets its own precomputed requests. Resolves as `load` does; throws on any answer but 2xx.
 */
async function writeLoad({ auth, counts }, base, connections, duration) {
  const write = () => ({
    method: 'PUT',
    path: `/v2/contacts/${1 + Math.floor(Math.random() * counts.contacts)}`,
    body: JSON.stringify({ data: { title: `Bench ${randomUUID().slice(0, 8)}` } }),
  });
  const setupClient = (client) => client.setRequests(Array.from({ length: WRITES_PER_CONNECTION }, write));
  const headers = { ...auth, 'Content-Type': 'application/json' };
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`writes to ${base} did not end within ${duration + 30} s`)), (duration + 30) * 1000);
  });
  const result = await Promise.race([autocannon({ url: base, connections, pipelining: 1, headers, setupClient, duration }), timeout]).finally(() => clearTimeout(timer));
  if (result.non2xx > 0 || result.errors > 0 || result.timeouts > 0) {
    throw new Error(`writes to ${base}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return result;
}

/** Runs `loadOne(base, connections, duration)` on both nodes at once, half the connections each; the sum resolved as `load` resolves. */
function onBothNodes(nodes, connections, loadOne) {
  return async (duration) => {
    const results = await Promise.all(nodes.map((base) => loadOne(base, Math.max(1, Math.floor(connections / 2)), duration)));
    return {
      requests: { total: results.reduce((sum, r) => sum + r.requests.total, 0) },
      duration: Math.max(...results.map((r) => r.duration)),
      latency: { p50: Math.max(...results.map((r) => r.latency.p50)), p99: Math.max(...results.map((r) => r.latency.p99)) },
    };
  };
}

/** Two nodes on the one database, half the connections each at once, beside one node with all of them: reads, then writes. */
async function twoNodesBesideOne(bench, first, second) {
  const { compare, load, auth, listQuery, listPages } = bench;
  const path = paths(bench);
  const connections = LOAD_CONNECTIONS;
  const reads = (nextPath) => (base, n, duration) => load({ base, nextPath, headers: auth, connections: n }, duration);
  const writes = (base, n, duration) => writeLoad(bench, base, n, duration);
  const pair = (loadOne) => compare(onBothNodes([first, second], connections, loadOne), (duration) => loadOne(first, connections, duration));
  const names = ['two nodes', 'one node'];
  console.log(`postgres: two hub nodes (two processes) on the one database, ${connections / 2} connections each at once, beside one node with ${connections}; the PostgreSQL server, both nodes and the load generator share the machine's cores`);
  infoLine(bench, 'postgres GET /v2/contacts/:id (random ids), two nodes beside one', await pair(reads(path.byId)), names, TARGETS.twoNodeReads);
  infoLine(bench, `postgres GET /v2/contacts?${listQuery}&page=1..${listPages}, two nodes beside one`, await pair(reads(path.list)), names);
  infoLine(bench, 'postgres PUT /v2/contacts/:id (a new title, random ids), two nodes beside one', await pair(writes), names, TARGETS.twoNodeWrites);
}
