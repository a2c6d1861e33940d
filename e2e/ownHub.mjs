// A spec's own hub (and replica): `outpost serve` as a child process, stopped again after the spec,
// and where the hub keeps its data. In the suite's PostgreSQL run (scripts/e2e.mjs with
// OUTPOST_E2E_POSTGRES=1 passes its throwaway cluster as OUTPOST_E2E_POSTGRES_CLUSTER), a fresh database
// of that cluster, so the spec's hub runs on PostgreSQL too; otherwise its data folder's SQLite file.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));

const running = new Set();

/** `outpost serve …` as a child process; resolves with it and its URL once it listens. */
export function serve(args, env = {}) {
  const child = spawn(process.execPath, [CLI, 'serve', ...args, '--rate-limit', '0'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.on('exit', () => running.delete(child));
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

/** `outpost` arguments naming the database of a spec's own hub (none on SQLite), and how to drop it. */
export async function ownHubDatabase(name) {
  const cluster = process.env.OUTPOST_E2E_POSTGRES_CLUSTER;
  if (!cluster) return { args: [], drop: async () => {} };
  const database = `e2e_${name}_${process.pid}_${++made}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: cluster });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(cluster);
  url.pathname = `/${database}`;
  return { args: ['--database-url', url.toString()], drop: () => admin(`DROP DATABASE ${database} WITH (FORCE)`) };
}
