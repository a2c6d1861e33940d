#!/usr/bin/env node
// `npm run bench`: Outpost's hub against a bare node:http baseline doing the
// same SQLite work, measured in the same run on the same seeded database.
// Prints figures and ratios; it does not fail on a missed target.
//   BENCH_CONTACTS (default 100000), BENCH_SECONDS per measurement (default 8).
import { spawn, spawnSync, fork } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const CONTACTS = Number(process.env.BENCH_CONTACTS ?? 100_000);
const ACTIVITIES = Number(process.env.BENCH_ACTIVITIES ?? 100_000);
const SEARCH_WORDS = ['pricing', 'renewal', 'budget', 'deliv', 'contr', 'train', 'compet'];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 10;
const LIST_PAGES = 20;
const dataDir = mkdtempSync(join(tmpdir(), 'outpost-bench-'));
const children = [];

function cleanUp() {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
}
process.on('exit', cleanUp);
process.on('SIGINT', () => process.exit(130));

function outpost(...args) {
  const result = spawnSync(process.execPath, ['bin/outpost.mjs', ...args, '--data-dir', dataDir], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`outpost ${args.join(' ')}: ${result.stderr}`);
  return result.stdout.trim();
}

function startHub() {
  // The rate limiter stays on (with a limit no run reaches) so its cost is measured too.
  const child = spawn(process.execPath, ['bin/outpost.mjs', 'serve', '--port', '0', '--data-dir', dataDir, '--rate-limit', '1000000000'], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (c) => {
      out += c;
      const m = /listening on (http:\/\/\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.on('exit', (code) => reject(new Error(`hub exited ${code}: ${out}`)));
  });
}

function startBare() {
  const child = fork(new URL('./bareServer.mjs', import.meta.url), [join(dataDir, 'outpost.sqlite')], { stdio: 'inherit' });
  children.push(child);
  return new Promise((resolve) => child.once('message', ({ port }) => resolve(`http://127.0.0.1:${port}`)));
}

/** Requests per second (and the p99 latency) for paths drawn by `nextPath`, after a short warm-up. */
async function measure(base, nextPath, headers = {}) {
  const options = { url: base, connections: CONNECTIONS, headers, requests: [{ setupRequest: (req) => ({ ...req, path: nextPath() }) }] };
  await autocannon({ ...options, duration: 2 });
  const result = await autocannon({ ...options, duration: SECONDS });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${base}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return Object.assign(result.requests.average, { p50: result.latency.p50, p99: result.latency.p99 });
}

const randomId = () => 1 + Math.floor(Math.random() * CONTACTS);
const randomPage = () => 1 + Math.floor(Math.random() * LIST_PAGES);
const fmt = (n) => Math.round(n).toLocaleString('en-US').padStart(7);

function line(label, ours, bare, target) {
  const ratio = ours / bare;
  console.log(`${label.padEnd(44)} outpost ${fmt(ours)} req/s   bare ${fmt(bare)} req/s   ratio ${ratio.toFixed(2)} (target ≥ ${target.toFixed(2)}) ${ratio >= target ? 'PASS' : 'MISS'}`);
}

outpost('users', 'add', '--email', 'bench@example.com', '--name', 'Bench', '--role', 'admin', '--password', 'bench-password');
const seeded = outpost('seed', '--contacts', String(CONTACTS)).split('\n').pop();
console.log(`seed: ${seeded.replace(/^Seeded /, '')}`);
const activities = outpost('seed', '--tasks', String(ACTIVITIES), '--notes', String(ACTIVITIES)).split('\n').pop();
console.log(`seed: ${activities.replace(/^Seeded /, '')}`);
const token = JSON.parse(outpost('tokens', 'create', '--email', 'bench@example.com')).access_token;
const auth = { Authorization: `Bearer ${token}` };
const listQuery = 'is_organization=false&customer_status=current&sort_by=last_name';

const hub = await startHub();
const bare_ = await startBare();
console.log(`measuring ${SECONDS} s each, ${CONNECTIONS} connections, on ${CONTACTS} contacts (2-core machine: server and load generator share it)`);

const hubById = await measure(hub, () => `/v2/contacts/${randomId()}`, auth);
const bareById = await measure(bare_, () => `/contacts/${randomId()}`);
line('GET /v2/contacts/:id', hubById, bareById, 0.8);

const hubList = await measure(hub, () => `/v2/contacts?${listQuery}&page=${randomPage()}`, auth);
const bareList = await measure(bare_, () => `/contacts?page=${randomPage()}`);
line(`GET /v2/contacts?${listQuery}`, hubList, bareList, 2.0);

// Full-text q on tasks and notes at ACTIVITIES records each, beside the bare server running the same FTS5 query.
const word = () => SEARCH_WORDS[Math.floor(Math.random() * SEARCH_WORDS.length)];
for (const resource of ['tasks', 'notes']) {
  const ours = await measure(hub, () => `/v2/${resource}?q=${word()}`, auth);
  const bare = await measure(bare_, () => `/${resource}?q=${word()}`);
  line(`GET /v2/${resource}?q=<word> (${ACTIVITIES} ${resource})`, ours, bare, 0.8);
  console.log(`${''.padEnd(44)} latency at ${CONNECTIONS} concurrent requests: outpost p50 ${ours.p50} ms, p99 ${ours.p99} ms; bare p50 ${bare.p50} ms, p99 ${bare.p99} ms`);
}
process.exit(0);
