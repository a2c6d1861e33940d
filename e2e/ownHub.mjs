// Hubs (and replicas) of the suite's own: `outpost serve` as a child process, stopped again after the spec,
// and where the hub keeps its data. In a PostgreSQL project (playwright.config.mjs) the worker's throwaway
// cluster (the `postgresCluster` fixture, e2e/fixtures.mjs) holds a fresh database for each, so a spec's own
// hub runs on PostgreSQL too; otherwise its data folder's SQLite file.
import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { stablePort } from '../test/support/ports.ts';

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));

const running = new Set();

/**
 * `outpost serve …` as a child process; resolves with it and its URL once it listens. `stopAll()` stops it
 * unless `tracked` is false (the worker's seeded hub, which outlives every spec).
 */
export function serve(args, env = {}, { tracked = true } = {}) {
  const child = spawn(process.execPath, [CLI, 'serve', ...args, '--rate-limit', '0'], {
    // Warnings only: a JSON line per request would bury the test output.
    env: { OUTPOST_LOG_LEVEL: 'warn', ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (tracked) {
    running.add(child);
    child.on('exit', () => running.delete(child));
  }
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => reject(new Error(`outpost serve did not start: ${output}`)), 30_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      const match = /listening on (http:\/\/\S+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ child, url: match[1] });
      }
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`outpost serve exited (${code}): ${output}`));
    });
  });
}

/** SIGTERM, and wait until the process is gone. */
export async function stop(child) {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** Stops every process `serve` started that is still running. */
export async function stopAll() {
  await Promise.all([...running].map((child) => stop(child)));
}

let made = 0;

/**
 * `outpost` arguments naming the database of a hub (none on SQLite: `cluster` null), and how to drop it.
 * `cluster`: the worker's PostgreSQL cluster, `seededHub.postgresCluster` in a spec.
 */
export async function ownHubDatabase(name, cluster) {
  if (!cluster) return { args: [], drop: async () => {} };
  const database = `e2e_${name}_${process.pid}_${++made}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: cluster.url });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(cluster.url);
  url.pathname = `/${database}`;
  return { args: ['--database-url', url.toString()], drop: () => admin(`DROP DATABASE ${database} WITH (FORCE)`) };
}

/** For a hub stopped to play "offline" and started again on its port, so the replica finds it again. */
export { stablePort };

/** A hub on `port` (0: any), keeping its data in `dir` (and `databaseArgs`' database), with `admin` as its first admin. */
export function serveHub(port, dir, admin, databaseArgs = [], options = {}) {
  return serve(['--port', String(port), '--data-dir', dir, ...databaseArgs], {
    OUTPOST_ADMIN_EMAIL: admin.email, OUTPOST_ADMIN_PASSWORD: admin.password,
  }, options);
}

/** A personal token of the hub's user `email` with the scopes a replica needs (`sync`), made by the CLI. */
export function syncToken(hubDir, email, databaseArgs = []) {
  const created = execFileSync(process.execPath, [CLI, 'tokens', 'create', '--email', email, '--scope', 'read write profile sync', '--data-dir', hubDir, ...databaseArgs], { encoding: 'utf8' });
  return JSON.parse(created).access_token;
}

/** A replica of the hub at `upstream` on a port of its own, syncing with `token`. */
export function serveReplica(upstream, token, dir) {
  return serve(['--upstream', upstream, '--upstream-token', token, '--port', '0', '--data-dir', dir]);
}

const now = (value) => (typeof value === 'function' ? value() : value);

/** A person's access token at a hub, by the password grant the app's own sign-in uses (the spec's own calls, never through a page). */
export async function passwordToken(url, { email, password }) {
  const response = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from('outpost-app:').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  const body = await response.json();
  if (!response.ok) throw new Error(`password grant at ${url}: ${response.status} ${JSON.stringify(body)}`);
  return body.access_token;
}

/**
 * A hub's REST API: `api(method, path, data, as)` with `as` (or `token`) as the bearer, `data` sent in
 * the `{data}` envelope. `base` and `token` may be functions, read at each call, as specs set them in `before`.
 */
export function hubClient(base, token) {
  return async (method, path, data, as = now(token)) => {
    const response = await fetch(`${now(base)}${path}`, {
      method,
      headers: { Authorization: `Bearer ${as}`, Accept: 'application/json', 'Content-Type': 'application/json' },
      body: data === undefined ? undefined : JSON.stringify({ data }),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };
}

/**
 * Presses the replica page's "Sync now" until its sync status reads `wanted` (or, given a locator, until
 * that shows); the replica also syncs by itself every few seconds, so a press only hurries it.
 */
export async function syncUntil(page, wanted, { timeout = 30_000 } = {}) {
  const shown = typeof wanted === 'string' ? page.getByRole('status', { name: 'Sync status' }).filter({ hasText: wanted }) : wanted;
  const deadline = Date.now() + timeout;
  for (;;) {
    await page.getByRole('button', { name: 'Sync now' }).click();
    try {
      await shown.waitFor({ timeout: 3000 });
      return;
    } catch (err) {
      if (Date.now() > deadline) throw err;
    }
  }
}
