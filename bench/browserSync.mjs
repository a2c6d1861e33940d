#!/usr/bin/env node
// `npm run bench:browser` (or `BENCH_ONLY=browser npm run bench`): the browser's first sync beside a desktop
// replica's, and the palette's search answered by the browser's engine beside a desktop replica's.
//
// For each size it starts its own hub on a fresh data folder (`outpost seed --contacts N`, then `outpost serve`
// with OUTPOST_ADMIN_EMAIL/OUTPOST_ADMIN_PASSWORD), then times, in alternating rounds on the same hub:
//   replica  a desktop-style replica's first sync (bench/replicaClient.ts in its own process, as bench/run.mjs's
//            replica line: its `initialSeconds`, the sync alone);
//   browser  Chromium on a fresh profile each round (so OPFS starts empty) signed in on the hub's page keeping
//            data: the engine worker's own first-sync seconds from its console line
//            (`[outpost engine] replica: first sync of N records in X s: …`), and apart from that the wall time
//            from the Sign in click to the sync status reading "Up to date", with Chromium's CPU meanwhile by process
//            and, in the renderer, by thread (Linux /proc): where a browser spends what the replica does not.
// The first size is the compared line (target: browser ≤ 2× the replica, medians); the second is the browser's
// line at 100 000 contacts, with the replica beside it (BENCH_BROWSER_LARGE_REPLICA=0: the browser alone).
// At the first size the page kept open then answers the palette's search (GET /v2/search through the engine
// worker, the app's own request path) beside a desktop replica (`serve --upstream`) answering it over HTTP.
// Prints figures and PASS/MISS; exits 0 on a missed target, non-zero only when the bench itself breaks.
//
//   BENCH_BROWSER_SIZES         contacts per hub, comma separated (default 10000,100000)
//   BENCH_BROWSER_ROUNDS        alternating rounds at each size (default 3; the whole run took 5.5 minutes)
//   BENCH_BROWSER_LARGE_REPLICA 0: at the other sizes the browser alone, with its records per second
//   BENCH_BROWSER_PALETTE_CALLS palette requests per side (default 300, in 4 alternating rounds)
//   CHROMIUM                    the browser (default /usr/bin/chromium)
// Develop with BENCH_BROWSER_SIZES=1000 (about a minute).
import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright-core';
import { paletteQueries } from './paletteSearch.mjs';
import { buildReplicaClient, replicaClientArgs } from './replicaBundle.mjs';
import { keeper, stop } from './keeper.mjs';
import { askEngine, askingTheEngine } from '../test/support/engineWorkerPage.mjs';

const root = resolve(import.meta.dirname, '..');
const CLI = join(root, 'bin/outpost.mjs');
const ADMIN = { email: 'bench@example.com', password: 'bench-password-browser' };
const INDENT = '    ';
const SYNC_TARGET_RATIO = 2;
// The browser adds a hop the replica over HTTP does not have: the page posts each request to its engine
// worker and the answer comes back by postMessage (structured clone), hence a target above 1.
const PALETTE_TARGET_RATIO = 1.5;
const PALETTE_ROUNDS = 4;
const PER_PAGE = 10;
// One browser first sync of 100 000 contacts takes minutes on the 2-core machine; the bound leaves room.
const SYNC_TIMEOUT_MS = 20 * 60_000;
const FIRST_SYNC_LINE = /\[outpost engine\] replica: first sync of (\d+) records in ([\d.]+) s: (.*)$/;

const { tempDir, track, cleanUp } = keeper();

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
};

/** `outpost …args` on `dir`, with the bench's admin as the first admin of an empty database; its output. */
function outpost(dir, ...args) {
  const result = spawnSync(process.execPath, [CLI, ...args, '--data-dir', dir], {
    cwd: root, encoding: 'utf8', timeout: 15 * 60_000,
    env: { ...process.env, OUTPOST_ADMIN_EMAIL: ADMIN.email, OUTPOST_ADMIN_PASSWORD: ADMIN.password },
  });
  if (result.status !== 0) throw new Error(`outpost ${args.join(' ')}: ${result.error?.message ?? ''}${result.stderr}`);
  return result.stdout.trim();
}

/** `outpost serve …args` as a child; resolves with it and its URL once it listens. */
function serve(args) {
  const child = spawn(process.execPath, [CLI, 'serve', '--host', '127.0.0.1', '--port', '0', '--rate-limit', '0', ...args], {
    cwd: root, stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, OUTPOST_LOG_LEVEL: 'warn', OUTPOST_ADMIN_EMAIL: ADMIN.email, OUTPOST_ADMIN_PASSWORD: ADMIN.password },
  });
  track(child);
  return new Promise((resolveServe, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`outpost serve did not start: ${output}`)), 60_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolveServe({ child, url: match[1] });
      }
    });
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`outpost serve exited (${code}): ${output}`));
    });
  });
}

/** A process's CPU seconds so far (Linux /proc; NaN elsewhere), as bench/replicaClient.ts reads the hub's. */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

/** The pids of Chromium's processes on `profile`: the one started with `--user-data-dir=<profile>` and its descendants. */
function chromiumProcesses(profile) {
  const parents = new Map();
  let root = null;
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name));
  } catch {
    return [];
  }
  for (const pid of pids) {
    try {
      parents.set(pid, readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);
      if (root === null && readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(`--user-data-dir=${profile}`)) root = pid;
    } catch {
      // Ended meanwhile.
    }
  }
  const inside = (pid) => pid === root || (parents.has(pid) && pid !== '1' && inside(parents.get(pid)));
  return root === null ? [] : [...parents.keys()].filter(inside);
}

/**
 * Where Chromium's CPU went, in seconds by part, so far (Linux /proc; empty elsewhere): the renderer's threads by
 * what they run (the engine worker, the page, the service worker, V8's background compile and GC threads, and
 * those that ended: the search-build helper), and the other processes whole. Thread names are Chromium's (cut to 15 characters by the kernel).
 */
function chromiumCpu(profile) {
  const parts = {};
  const add = (part, seconds) => (parts[part] = (parts[part] ?? 0) + seconds);
  for (const pid of chromiumProcesses(profile)) {
    try {
      const type = /--type=([\w-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
      if (type !== 'renderer') {
        add(CHROMIUM_PROCESS[type] ?? 'other processes', cpuSeconds(pid));
        continue;
      }
      let live = 0;
      for (const tid of readdirSync(`/proc/${pid}/task`)) {
        const name = readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
        const seconds = cpuSeconds(`${pid}/task/${tid}`);
        live += seconds;
        add(RENDERER_THREAD.find(([pattern]) => pattern.test(name))?.[1] ?? "the renderer's other threads", seconds);
      }
      // A process's own figure keeps the time of its threads that have ended; the first sync's helper ends with its end.
      add('threads ended meanwhile (the search-build helper)', cpuSeconds(pid) - live);
    } catch {
      // Ended meanwhile.
    }
  }
  return parts;
}

const CHROMIUM_PROCESS = { browser: 'the browser process', utility: 'the network service', 'gpu-process': 'the GPU process', zygote: 'other processes' };
const RENDERER_THREAD = [
  [/^DedicatedWorker/, 'the engine worker'],
  [/^ThreadPool/, "V8's compile and GC threads"],
  [/^ServiceWorker/, 'the service worker'],
  [/^(chromium|chrome|CrRendererMain)/i, "the pages' main threads"],
];

/** `after` minus `before`, largest first, as "name 0.5 s" parts (those under 0.05 s left out). */
function cpuSpent(before, after) {
  return Object.entries(after).map(([part, seconds]) => [part, seconds - (before[part] ?? 0)])
    .filter(([, seconds]) => seconds >= 0.05).sort((a, b) => b[1] - a[1]).map(([part, seconds]) => `${part} ${seconds.toFixed(1)} s`).join(', ');
}

/** A desktop-style replica's first sync (bench/replicaClient.ts, bundled), in a fresh folder: its JSON line. */
function replicaFirstSync(bundle, hub) {
  // A quiet disk first, as bench/run.mjs does before each client: the previous round's writes flushed.
  spawnSync('sync');
  const result = spawnSync(process.execPath, replicaClientArgs(bundle, hub.url, hub.token, tempDir('outpost-bench-replica-'), 0), {
    // HUB_PID: the client reports the hub's CPU seconds during its sync (Linux /proc).
    cwd: root, encoding: 'utf8', timeout: SYNC_TIMEOUT_MS, stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, HUB_PID: String(hub.child.pid) },
  });
  if (result.status !== 0) throw new Error(`replica client exited ${result.status}: ${result.error?.message ?? ''}${result.stdout}`);
  return JSON.parse(result.stdout.trim().split('\n').pop());
}

/**
 * A Chromium of its own on a fresh profile folder, as a rep's browser is: not a private (incognito) context,
 * whose OPFS lives in the browser process's memory, every read and write of the engine's file a round trip
 * to it (measured at 15 000 records: 6.0 s of the first sync in file reads and writes, against 0.34 s on a profile).
 */
async function freshBrowser() {
  const profile = tempDir('outpost-bench-profile-');
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium', viewport: { width: 1280, height: 800 },
  });
  return { context, profile };
}

/**
 * The browser's first sync: a fresh browser profile (empty OPFS), signed in on the hub's page without "Shared computer".
 * Resolves with the worker's own figures from its console line, the wall time from the Sign in click to
 * "Up to date", and the context and page (still open: the caller closes them, or uses them for the palette).
 */
async function browserFirstSync(hub) {
  spawnSync('sync');
  const { context, profile } = await freshBrowser();
  await context.addInitScript(askingTheEngine);
  const page = context.pages()[0] ?? await context.newPage();
  let logged = null;
  const seen = new Promise((resolveLine) => {
    page.on('console', (message) => {
      const match = FIRST_SYNC_LINE.exec(message.text());
      if (match) {
        logged = { records: Number(match[1]), seconds: Number(match[2]), split: match[3] };
        resolveLine(logged);
      }
    });
  });
  await page.goto(hub.url);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByRole('checkbox', { name: 'Shared computer' }).setChecked(false);
  await page.getByLabel('Password').fill(ADMIN.password);
  const started = performance.now();
  const hubCpuAtStart = cpuSeconds(hub.child.pid);
  const browserCpuAtStart = chromiumCpu(profile);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('status', { name: 'Sync status' }).filter({ hasText: /^Up to date$/ }).waitFor({ timeout: SYNC_TIMEOUT_MS });
  const wallSeconds = (performance.now() - started) / 1000;
  const hubCpu = cpuSeconds(hub.child.pid) - hubCpuAtStart;
  const browserCpu = cpuSpent(browserCpuAtStart, chromiumCpu(profile));
  const line = logged ?? await Promise.race([seen, new Promise((_, reject) => setTimeout(() => reject(new Error('no first-sync line from the engine worker')), 30_000))]);
  return { ...line, wallSeconds, hubCpu, browserCpu, context, page };
}

/** The bench admin's token on a server, by the password grant the app's own sign-in uses. */
async function passwordToken(url) {
  const response = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from('outpost-app:').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: ADMIN.email, password: ADMIN.password }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`password grant on ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/** A desktop-style replica (`serve --upstream`) of the hub, once its first sync is done; with a token of its own. */
async function upToDateReplica(hubUrl, hubToken) {
  const replica = await serve(['--upstream', hubUrl, '--upstream-token', hubToken, '--data-dir', tempDir('outpost-bench-upstream-')]);
  const deadline = Date.now() + SYNC_TIMEOUT_MS;
  for (;;) {
    const token = await passwordToken(replica.url).catch(() => null);
    if (token) {
      const status = await fetch(`${replica.url}/v2/replica/status`, { headers: { Authorization: `Bearer ${token}` } });
      if (status.ok && (await status.json()).data.state === 'up_to_date') return { ...replica, token };
    }
    if (Date.now() > deadline) throw new Error('the desktop replica was not up to date in time');
    await new Promise((resolveWait) => setTimeout(resolveWait, 500));
  }
}

/** Times `calls` palette searches answered by the page's engine worker, one at a time, each posted as the app posts its requests. */
function browserSearchTimes(page, texts, calls) {
  return page.evaluate(async ({ texts, calls, perPage }) => {
    const times = [];
    for (let i = 0; i < calls; i++) {
      const started = performance.now();
      // What api.list('/v2/search', { q, per_page }) sends through the WorkerBridge (renderer/commands/useRecordSearch.ts).
      const answer = await window.__outpostAsk({ call: 'request', request: { method: 'GET', path: '/v2/search', query: { q: texts[i % texts.length], per_page: perPage } } });
      times.push(performance.now() - started);
      if (answer.status !== 200) throw new Error(`the engine answered ${answer.status}: ${JSON.stringify(answer.body)}`);
    }
    return times;
  }, { texts, calls, perPage: PER_PAGE });
}

/** The same request to the desktop replica over HTTP, one at a time, the answer read as JSON. */
async function replicaSearchTimes(replica, texts, calls, offset) {
  const times = [];
  for (let i = 0; i < calls; i++) {
    const q = encodeURIComponent(texts[(offset + i) % texts.length]);
    const started = performance.now();
    const response = await fetch(`${replica.url}/v2/search?q=${q}&per_page=${PER_PAGE}`, { headers: { Authorization: `Bearer ${replica.token}` } });
    const body = await response.json();
    times.push(performance.now() - started);
    if (!response.ok) throw new Error(`the replica answered ${response.status}: ${JSON.stringify(body)}`);
  }
  return times;
}

/** The palette line: the page's engine and a desktop replica on the same data, in alternating rounds. */
async function paletteLine(page, hub, hubFile, contacts, calls) {
  const replica = await upToDateReplica(hub.url, hub.token);
  try {
    const texts = Object.values(paletteQueries(hubFile)).flat();
    // Both answer the same: the item counts of a few queries compared before measuring.
    const check = texts.slice(0, 20);
    let differences = 0;
    const counts = [];
    for (const q of check) {
      const answer = await askEngine(page, { method: 'GET', path: '/v2/search', query: { q, per_page: PER_PAGE } });
      counts.push(answer.body?.items?.map((item) => `${item.data.type}:${item.data.id}`).join(',') ?? 'error');
    }
    for (const [i, q] of check.entries()) {
      const body = await (await fetch(`${replica.url}/v2/search?q=${encodeURIComponent(q)}&per_page=${PER_PAGE}`, { headers: { Authorization: `Bearer ${replica.token}` } })).json();
      if (body.items.map((item) => `${item.data.type}:${item.data.id}`).join(',') !== counts[i]) differences++;
    }
    const perRound = Math.max(1, Math.round(calls / PALETTE_ROUNDS));
    const browserTimes = [];
    const replicaTimes = [];
    // Warm-up: 20 of each, not counted.
    await browserSearchTimes(page, texts, 20);
    await replicaSearchTimes(replica, texts, 20, 0);
    for (let round = 0; round < PALETTE_ROUNDS; round++) {
      const sides = [
        async () => browserTimes.push(...await browserSearchTimes(page, texts.slice((round * perRound) % texts.length).concat(texts), perRound)),
        async () => replicaTimes.push(...await replicaSearchTimes(replica, texts, perRound, round * perRound)),
      ];
      for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
    }
    const ms = (n) => `${n.toFixed(1)} ms`;
    const [ours, theirs] = [browserTimes, replicaTimes].map((times) => ({ median: percentile(times, 0.5), p95: percentile(times, 0.95) }));
    const ratio = ours.median / theirs.median;
    console.log(`palette search GET /v2/search?q=…&per_page=${PER_PAGE} (${contacts} contacts; the palette's queries of bench/paletteSearch.mjs), one request at a time, ${browserTimes.length} per side in ${PALETTE_ROUNDS} alternating rounds: `
      + `browser engine median ${ms(ours.median)}, p95 ${ms(ours.p95)}   desktop replica over HTTP median ${ms(theirs.median)}, p95 ${ms(theirs.p95)}   `
      + `ratio ${ratio.toFixed(2)} (median; target ≤ ${PALETTE_TARGET_RATIO.toFixed(2)}) ${ratio <= PALETTE_TARGET_RATIO ? 'PASS' : 'MISS'}`);
    console.log(`${INDENT}browser: posted to the page's engine worker as the app's requests are (a postMessage each way); replica: fetch over 127.0.0.1 with a token; `
      + `p95 ratio ${(ours.p95 / theirs.p95).toFixed(2)}; ${differences === 0 ? `both gave the same results for ${check.length} queries` : `WARNING: ${differences} of ${check.length} queries answered differently`}`);
  } finally {
    await stop(replica.child);
  }
}

/** One size: a fresh hub, alternating rounds of the replica's and the browser's first sync, and (first size) the palette line. */
async function sizeLines(bundle, contacts, { rounds, withReplica, palette, paletteCalls }) {
  const dir = tempDir('outpost-bench-browser-');
  const seeded = outpost(dir, 'seed', '--contacts', String(contacts)).split('\n').pop();
  const hub = await serve(['--data-dir', dir]);
  hub.token = JSON.parse(outpost(dir, 'tokens', 'create', '--email', ADMIN.email, '--scope', 'read write profile sync')).access_token;
  const replicas = [];
  const browsers = [];
  let kept = null;
  try {
    for (let round = 0; round < rounds; round++) {
      const sides = [
        async () => {
          if (withReplica) replicas.push(replicaFirstSync(bundle, hub));
        },
        async () => {
          const run = await browserFirstSync(hub);
          browsers.push(run);
          if (palette && round === rounds - 1) kept = run;
          else await run.context.close();
        },
      ];
      for (const side of round % 2 === 0 ? sides : sides.reverse()) await side();
    }
    const seconds = (values) => values.map((n) => n.toFixed(1)).join(' / ');
    const worker = browsers.map((b) => b.seconds);
    const wall = browsers.map((b) => b.wallSeconds);
    const records = browsers[0].records;
    const roundsNote = rounds > 1 ? `, median of ${rounds} alternating rounds` : '';
    const typical = browsers.reduce((a, b) => (Math.abs(b.seconds - median(worker)) < Math.abs(a.seconds - median(worker)) ? b : a));
    console.log(`browser first sync (${contacts} contacts: ${seeded.replace(/^Seeded /, '')})`);
    if (withReplica) {
      const replicaSeconds = replicas.map((r) => r.initialSeconds);
      const ratio = median(worker) / median(replicaSeconds);
      console.log(`${INDENT}${records} records: browser ${median(worker).toFixed(1)} s   desktop replica ${median(replicaSeconds).toFixed(1)} s${roundsNote}   `
        + `ratio ${ratio.toFixed(2)} (target ≤ ${SYNC_TARGET_RATIO.toFixed(2)}) ${ratio <= SYNC_TARGET_RATIO ? 'PASS' : 'MISS'}`);
      console.log(`${INDENT}rounds: browser ${seconds(worker)} s, replica ${seconds(replicaSeconds)} s; each round's ratio ${worker.map((w, i) => (w / replicaSeconds[i]).toFixed(2)).join(' / ')}`);
      const replicaTypical = replicas.reduce((a, b) => (Math.abs(b.initialSeconds - median(replicaSeconds)) < Math.abs(a.initialSeconds - median(replicaSeconds)) ? b : a));
      console.log(`${INDENT}replica: ${replicaTypical.firstSync}`);
    } else {
      console.log(`${INDENT}${records} records: browser ${median(worker).toFixed(1)} s${roundsNote} (${Math.round(records / median(worker)).toLocaleString('en-US')} records/s); no replica beside it (BENCH_BROWSER_LARGE_REPLICA=0)`);
      if (rounds > 1) console.log(`${INDENT}rounds: browser ${seconds(worker)} s`);
    }
    console.log(`${INDENT}browser: first sync of ${typical.records} records in ${typical.seconds.toFixed(1)} s: ${typical.split}; the hub's CPU from Sign in to "Up to date" ${typical.hubCpu.toFixed(1)} s`);
    console.log(`${INDENT}browser: Sign in click to "Up to date" ${median(wall).toFixed(1)} s (rounds ${seconds(wall)} s: the worker's start, the sign-in at the hub, the first sync, the page's first screens)`);
    if (typical.browserCpu) console.log(`${INDENT}browser: Chromium's CPU in those ${typical.wallSeconds.toFixed(1)} s (${availableParallelism()} cores here, shared with the hub): ${typical.browserCpu}`);
    if (kept) await paletteLine(kept.page, hub, join(dir, 'outpost.sqlite'), contacts, paletteCalls);
  } finally {
    await kept?.context.close();
    await stop(hub.child);
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The browser lines, for bench/run.mjs (BENCH_ONLY=browser) and `npm run bench:browser`. */
export async function browserLines() {
  const sizes = (process.env.BENCH_BROWSER_SIZES || '10000,100000').split(',').map(Number);
  const rounds = Math.max(1, Number(process.env.BENCH_BROWSER_ROUNDS || 3));
  const paletteCalls = Math.max(PALETTE_ROUNDS, Number(process.env.BENCH_BROWSER_PALETTE_CALLS || 300));
  // The outpost command's build, made now if its sources changed, so that no timed step includes it.
  outpost(tempDir('outpost-bench-help-'), 'help');
  const bundle = await buildReplicaClient(root);
  const version = spawnSync(process.env.CHROMIUM || '/usr/bin/chromium', ['--version'], { encoding: 'utf8' }).stdout.trim();
  console.log(`browser: ${version} headless, a fresh profile each round; hubs on 127.0.0.1; ${sizes.join(' and ')} contacts`);
  try {
    for (const [i, contacts] of sizes.entries()) {
      await sizeLines(bundle, contacts, {
        rounds,
        withReplica: i === 0 || process.env.BENCH_BROWSER_LARGE_REPLICA !== '0',
        palette: i === 0,
        paletteCalls,
      });
    }
  } finally {
    cleanUp();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.on('exit', cleanUp);
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  await browserLines();
}
