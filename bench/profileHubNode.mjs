#!/usr/bin/env node
// Where a PostgreSQL hub node's CPU goes on GET /v2/contacts/:id, and which SQL statements one such request runs.
// `node bench/profileHubNode.mjs`:
//   1. seeds a data folder (PROFILE_CONTACTS contacts, default 20000) and copies it with `outpost migrate` into a
//      throwaway PostgreSQL cluster (test/support/postgresCluster.ts, as the bench and the tests start it);
//   2. starts a hub node on it under `node --cpu-prof` (PROFILE_NODE_ARGS: more `serve` options, space separated);
//   3. logs every statement PostgreSQL runs (log_statement = all, set for the whole cluster and reloaded) while
//      one warm by-id request runs alone, then one small write (PUT, a new title), and prints them;
//   4. loads the node with by-id requests of random contacts (PROFILE_LOAD=tasks-q: task searches, contacts-put: writes; autocannon, PROFILE_CONNECTIONS, default 50, for
//      PROFILE_SECONDS, default 15), stops it (it writes its profiles on exit: one per thread) and prints, for each
//      thread, its self time during the load (start-up left out) by group and its top functions, as shares of
//      the wall time: on the main thread, the bridge's Atomics.wait (inlined in waitForSignal) is time blocked on
//      PostgreSQL, not CPU.
// PROFILE_DIR keeps the .cpuprofile files (open them in Chrome's DevTools); by default they go with the temp folder.
// Timings on a shared machine are noisy; the shares are what this is for.
// PROFILE_CPU=1: no profiler; instead the CPU time the load cost, per request, read from /proc (Linux): the node's
//   (each of its threads), PostgreSQL's (all its processes) and the load generator's. Sampled profiles overstate
//   a thread's share when more threads are runnable than there are cores; these are what each part really used.
// PROFILE_TASKS: tasks to seed (default: the seed's share of the contacts).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { tsImport } from 'tsx/esm/api';

const CONTACTS = Number(process.env.PROFILE_CONTACTS || 20_000);
const SECONDS = Number(process.env.PROFILE_SECONDS || 15);
const CONNECTIONS = Number(process.env.PROFILE_CONNECTIONS || 50);
const NODE_ARGS = (process.env.PROFILE_NODE_ARGS ?? '').split(' ').filter(Boolean);
/**
 * What the load asks: `by-id` (default), `tasks-q` (GET /v2/tasks?q=<word>, the bench's words) or `contacts-put`
 * (PUT /v2/contacts/:id, a new title: a write, which takes the hub's write lock).
 */
const LOAD = process.env.PROFILE_LOAD || 'by-id';
const SEARCH_WORDS = ['pricing', 'renewal', 'budget', 'deliv', 'contr', 'train', 'compet'];
const randomContact = () => 1 + Math.floor(Math.random() * CONTACTS);
const loadRequest = {
  'by-id': () => ({ path: `/v2/contacts/${randomContact()}` }),
  'tasks-q': () => ({ path: `/v2/tasks?q=${SEARCH_WORDS[Math.floor(Math.random() * SEARCH_WORDS.length)]}` }),
  'contacts-put': () => ({
    path: `/v2/contacts/${randomContact()}`, method: 'PUT', headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ data: { title: `Profiled ${Math.random().toString(36).slice(2, 8)}` } }),
  }),
}[LOAD];
if (!loadRequest) throw new Error(`PROFILE_LOAD must be by-id, tasks-q or contacts-put, not '${LOAD}'`);
const TOP_FUNCTIONS = 25;
const CPU_ONLY = process.env.PROFILE_CPU === '1';
const TASKS = process.env.PROFILE_TASKS ? ['--tasks', process.env.PROFILE_TASKS] : [];
const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'outpost-profile-'));
const profileDir = process.env.PROFILE_DIR ? resolve(process.env.PROFILE_DIR) : join(work, 'profiles');
mkdirSync(profileDir, { recursive: true });

function outpost(...args) {
  const result = spawnSync(process.execPath, ['bin/outpost.mjs', ...args], { cwd: root, encoding: 'utf8', timeout: 10 * 60_000 });
  if (result.status !== 0) throw new Error(`outpost ${args.join(' ')}: ${result.error?.message ?? ''}${result.stderr}`);
  return result.stdout.trim();
}

/** A hub node under --cpu-prof on the database at `url`; resolves with the process and its address. */
function startProfiledNode(url) {
  const args = [...(CPU_ONLY ? [] : ['--cpu-prof', '--cpu-prof-dir', profileDir]), 'bin/outpost.mjs', 'serve', '--host', '127.0.0.1', '--port', '0',
    '--data-dir', join(work, 'node'), '--database-url', url, '--rate-limit', '1000000000', ...NODE_ARGS];
  // From the TypeScript sources, so that the profiles name the source files (the build bundles them into chunks).
  const env = { ...process.env, OUTPOST_LOG_LEVEL: 'warn', OUTPOST_FROM_SOURCES: '1' };
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'inherit'], env });
  return new Promise((resolveStart, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(out);
      // Profiled once its engine workers are up too (they start after the node listens), unless it has none.
      const workers = !/--workers[ =]0\b/.test(NODE_ARGS.join(' '));
      if (match && (!workers || /Engine workers ready/.test(out))) resolveStart({ child, base: match[1] });
    });
    child.once('exit', (code, signal) => reject(new Error(`hub node exited (${code ?? signal}): ${out}`)));
  });
}

/** The statements PostgreSQL logged between two marker statements (log lines start with the time; a statement may span lines). */
function statementsBetween(log, begin, end) {
  const entries = log.split(/\n(?=\d{4}-\d\d-\d\d )/);
  const from = entries.findIndex((e) => e.includes(begin));
  const to = entries.findIndex((e) => e.includes(end));
  return entries.slice(from + 1, to)
    .map((e) => /LOG: {2}(?:statement|execute [^:]*): ([\s\S]*)/.exec(e)?.[1])
    .filter(Boolean)
    .map((sql) => sql.replace(/\s+/g, ' ').trim());
}

/**
 * The statements PostgreSQL runs for each of `requests` ([label, path, init] for fetch), each sent alone with every
 * statement logged (log_statement = all for the cluster, reloaded); returns [label, statements] pairs.
 */
async function statementsOf(cluster, base, headers, requests) {
  const logFile = join(dirname(cluster.sql('SHOW data_directory')), 'server.log');
  cluster.sql("ALTER SYSTEM SET log_statement = 'all'");
  cluster.sql('SELECT pg_reload_conf()');
  // A reload reaches the node's connections when they next read a command: one request first, logged or not.
  await fetch(`${base}/v2/contacts/2`, { headers }).then((r) => r.arrayBuffer());
  for (const [label, path, init] of requests) {
    cluster.sql(`SELECT 'profile: ${label} begins'`);
    const response = await fetch(base + path, { ...init, headers: { ...headers, ...init?.headers } });
    if (!response.ok) throw new Error(`${label}: ${response.status} ${await response.text()}`);
    await response.arrayBuffer();
    cluster.sql(`SELECT 'profile: ${label} ends'`);
  }
  cluster.sql('ALTER SYSTEM RESET log_statement');
  cluster.sql('SELECT pg_reload_conf()');
  const log = readFileSync(logFile, 'utf8');
  return requests.map(([label]) => [label, statementsBetween(log, `profile: ${label} begins`, `profile: ${label} ends`)]);
}

/** A by-id read, and a small write (a new title) for comparison. */
const LOGGED_REQUESTS = [
  ['GET /v2/contacts/:id', '/v2/contacts/1'],
  ['GET /v2/tasks?q=pricing', '/v2/tasks?q=pricing'],
  ['PUT /v2/contacts/:id (a new title)', '/v2/contacts/1', { method: 'PUT', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ data: { title: 'Profiled' } }) }],
];

const FASTIFY_MODULES = /^(fastify|@fastify\/.*|avvio|find-my-way|light-my-request|fast-json-stringify|fast-querystring|fast-uri|fastify-plugin|abstract-logging|toad-cache|process-warning)$/;
const NODE_POSTGRES = /^(pg|pg-protocol|pg-types|pg-pool|pgpass|postgres-.*)$/;
/** Node's own HTTP server, sockets and streams: what serving a request costs under any framework. */
const NODE_HTTP = /^node:(internal\/)?(_http_\w+|http|net|stream|streams\/.*|stream_base_commons|events|timers.*|async_hooks|event_target|process\/task_queues)$/;

/**
 * A function's group, the parts the profile is split into: Fastify, our hooks (one group per file of http/), the bridge,
 * JSON, the engine's code by folder, node's HTTP and streams, node-postgres (in the bridge's worker).
 */
function groupOf({ functionName, url }) {
  if (['(idle)', '(program)', '(garbage collector)', '(root)'].includes(functionName)) return functionName;
  // Atomics.wait runs inlined in the bridge's waitForSignal: its self time is the engine's thread blocked on an answer.
  if (functionName === 'waitForSignal') return 'bridge: waiting for PostgreSQL\'s answer (Atomics.wait)';
  if (url === '' && /^(postMessage|receiveMessageOnPort)$/.test(functionName)) return 'bridge: postMessage / receiveMessageOnPort (structured clone)';
  if (url === '' && /^(parse|stringify)$/.test(functionName)) return 'JSON.parse / JSON.stringify';
  if (url === '' && /^(writev|writeUtf8String|writeBuffer|readStart|utf8Slice|utf8Write)$/.test(functionName)) return 'node: HTTP, sockets, streams, events';
  if (url === '[worker eval]') return 'the bridge\'s worker program (answer: postMessage, Atomics.notify)';
  const module = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)?.[1];
  if (module && FASTIFY_MODULES.test(module)) return 'Fastify and its modules';
  if (module && NODE_POSTGRES.test(module)) return 'node-postgres (in the bridge\'s worker)';
  if (module === 'prom-client') return 'our hooks: http/metrics.ts (prom-client)';
  if (module === 'pino' || module === 'sonic-boom') return 'our hooks: http/logging.ts (pino)';
  if (module) return `other module: ${module}`;
  const engine = /electron\/engine\/(.*)$/.exec(url)?.[1];
  if (engine?.startsWith('http/')) return `our hooks and routes: ${engine}`;
  if (engine && /^db\/(postgresBridge|postgres\/)/.test(engine)) return `bridge: ${engine}`;
  if (engine) return `engine: ${engine.split('/').slice(0, -1).join('/') || engine}`;
  if (NODE_HTTP.test(url)) return 'node: HTTP, sockets, streams, events';
  if (/^node:(internal\/)?crypto/.test(url) || (url === '' && /^(digest|Hash|update)$/.test(functionName))) return 'node: crypto (the token\'s sha256)';
  if (url.startsWith('node:')) return `node: ${url.replace(/^node:(internal\/)?/, '')}`;
  return url === '' ? `native: ${functionName}` : url.replace(/^file:\/\//, '').replace(root, '.');
}

/** Self time (µs) by group and by function of the samples taken between `from` and `to` (monotonic µs, as the profile's clock). */
function summarise(profile, from, to) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const groups = new Map();
  const functions = new Map();
  let at = profile.startTime;
  let total = 0;
  profile.samples.forEach((id, i) => {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < from || at > to) return;
    const { callFrame } = byId.get(id);
    const fn = `${callFrame.functionName || '(anonymous)'} ${callFrame.url.replace(/^file:\/\//, '').replace(root, '.')}:${callFrame.lineNumber + 1}`;
    const group = groupOf(callFrame);
    groups.set(group, (groups.get(group) ?? 0) + delta);
    functions.set(fn, (functions.get(fn) ?? 0) + delta);
    total += delta;
  });
  const thread = profile.nodes.some((n) => n.callFrame.url === '[worker eval]') ? 'the bridge\'s worker (node-postgres)'
    : profile.nodes.some((n) => n.callFrame.url.includes('electron/engine/http/')) ? 'the main thread (Fastify and the engine)' : 'another thread (tsx\'s module loader)';
  return { thread, groups, functions, total };
}

/** A thread's time during the load: idle, waiting, and the rest by group and by function, as shares of the wall time. */
function printProfile(file, from, to) {
  const { thread, groups, functions, total } = summarise(JSON.parse(readFileSync(file, 'utf8')), from, to);
  if (total === 0) return;
  const waiting = [...groups].filter(([group]) => group.includes('Atomics.wait')).reduce((sum, [, us]) => sum + us, 0);
  const running = total - (groups.get('(idle)') ?? 0) - waiting;
  const percent = (us, of) => `${((us / of) * 100).toFixed(1).padStart(5)} %`;
  const shares = (us) => `${percent(us, total)} ${us === waiting ? '       ' : percent(us, running)}`;
  const idle = (name) => name.startsWith('(idle)');
  const sorted = (map) => [...map].filter(([name]) => !idle(name)).sort((a, b) => b[1] - a[1]);
  console.log(`\n${thread}, ${file.split('/').pop()}: ${(total / 1e6).toFixed(1)} s of samples during the load: idle ${percent(groups.get('(idle)') ?? 0, total).trim()}, `
    + `blocked on PostgreSQL ${percent(waiting, total).trim()}, running ${percent(running, total).trim()}`);
  console.log('  self time by group (share of the wall time, share of the running time):');
  for (const [group, us] of sorted(groups)) if (us / total >= 0.001) console.log(`    ${shares(us)}  ${group}`);
  console.log(`  top ${TOP_FUNCTIONS} functions by self time:`);
  for (const [fn, us] of sorted(functions).slice(0, TOP_FUNCTIONS)) console.log(`    ${shares(us)}  ${fn}`);
}

/** CPU seconds (user + system) of /proc/<path>/stat; the fields after the command's closing parenthesis. */
function cpuSeconds(path) {
  const fields = readFileSync(`/proc/${path}/stat`, 'utf8').split(') ').pop().split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}
const CLOCK_TICKS = 100;

/** CPU seconds so far: the node's threads (by thread id), every postgres process's together, and this process's. */
function cpuNow(nodePid) {
  const threads = new Map(readdirSync(`/proc/${nodePid}/task`).map((tid) => [tid, cpuSeconds(`${nodePid}/task/${tid}`)]));
  let postgres = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      if (readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'postgres') postgres += cpuSeconds(pid);
    } catch { /* it ended meanwhile */ }
  }
  const own = process.cpuUsage();
  return { node: cpuSeconds(nodePid), threads, postgres, load: (own.user + own.system) / 1e6 };
}

function printCpuPerRequest(before, after, requests) {
  const ms = (seconds) => `${((seconds * 1000) / requests).toFixed(3)} ms`;
  console.log(`CPU per request: the node ${ms(after.node - before.node)}, PostgreSQL ${ms(after.postgres - before.postgres)}, the load generator ${ms(after.load - before.load)}`);
  console.log('  the node\'s threads that used more than 0.002 ms a request (the first is its main thread; V8\'s helpers collect garbage):');
  for (const [tid, seconds] of after.threads) {
    const used = seconds - (before.threads.get(tid) ?? 0);
    if (used / requests > 0.000002) console.log(`    thread ${tid}: ${ms(used)}`);
  }
}

/** Now on the profiles' clock: V8 stamps samples in monotonic microseconds, as process.hrtime does on Linux. */
const monotonicMicroseconds = () => Number(process.hrtime.bigint() / 1000n);

const { startPostgresCluster } = await tsImport('../test/support/postgresCluster.ts', import.meta.url);
const cluster = await startPostgresCluster();
let node;
try {
  const data = join(work, 'data');
  outpost('users', 'add', '--email', 'bench@example.com', '--name', 'Bench', '--role', 'admin', '--password', 'bench-password', '--data-dir', data);
  outpost('seed', '--contacts', String(CONTACTS), ...TASKS, '--data-dir', data);
  const token = JSON.parse(outpost('tokens', 'create', '--email', 'bench@example.com', '--data-dir', data)).access_token;
  cluster.sql('CREATE DATABASE outpost_profile');
  const url = cluster.url.replace(/\/postgres$/, '/outpost_profile');
  outpost('migrate', '--from-data-dir', data, '--to', url);
  node = await startProfiledNode(url);
  const headers = { Authorization: `Bearer ${token}` };
  for (const [label, statements] of await statementsOf(cluster, node.base, headers, LOGGED_REQUESTS)) {
    console.log(`${label} on a PostgreSQL hub node${NODE_ARGS.length > 0 ? ` (serve ${NODE_ARGS.join(' ')})` : ''}: ${statements.length} SQL statements`);
    statements.forEach((sql, i) => console.log(`  ${i + 1}. ${sql.length > 400 ? `${sql.slice(0, 400)}…` : sql}`));
  }
  const setupClient = (client) => client.setRequests(Array.from({ length: 1000 }, loadRequest));
  const loadStarted = monotonicMicroseconds();
  const cpuBefore = CPU_ONLY && cpuNow(node.child.pid);
  const result = await autocannon({ url: node.base, connections: CONNECTIONS, headers, setupClient, duration: SECONDS });
  const loadEnded = monotonicMicroseconds();
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`load: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  console.log(`\nload: ${CONNECTIONS} connections for ${SECONDS} s: ${Math.round(result.requests.total / result.duration)} req/s${CPU_ONLY ? '' : ' (under the profiler)'}`);
  if (CPU_ONLY) printCpuPerRequest(cpuBefore, cpuNow(node.child.pid), result.requests.total);
  const exited = new Promise((done) => node.child.once('exit', done));
  node.child.kill('SIGTERM');
  await exited;
  if (!CPU_ONLY) for (const file of readdirSync(profileDir).filter((f) => f.endsWith('.cpuprofile')).sort()) printProfile(join(profileDir, file), loadStarted, loadEnded);
  if (process.env.PROFILE_DIR) console.log(`\nprofiles kept in ${profileDir}`);
} finally {
  if (node && node.child.exitCode === null) node.child.kill('SIGKILL');
  cluster.stop();
  rmSync(work, { recursive: true, force: true });
}
