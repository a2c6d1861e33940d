#!/usr/bin/env node
// End-to-end tests: builds the web UI, starts a real hub on a free loopback
// port with a fresh data folder, runs e2e/*.spec.mjs with node's test runner
// (Playwright driving Debian's Chromium), and always stops the hub again.
// OUTPOST_E2E_DATABASE_URL=postgres://… runs that hub on PostgreSQL instead (an empty database);
// OUTPOST_E2E_POSTGRES=1 does so on a throwaway cluster of its own (test/support/postgresCluster.ts).
// Writes its counts to .cache/e2e-report.json for `npm test`'s summary.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password' };
const AGENT = { email: 'agent@example.com', password: 'e2e-agent-password' };
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

function report(counts) {
  mkdirSync('.cache', { recursive: true });
  writeFileSync('.cache/e2e-report.json', JSON.stringify(counts));
}

/** A PostgreSQL cluster in a temp folder (the tests' helper, TypeScript, loaded through tsx, a dev dependency). */
async function throwawayCluster() {
  const { register } = await import('tsx/esm/api');
  register();
  const { startPostgresCluster } = await import('../test/support/postgresCluster.ts');
  return startPostgresCluster();
}

if (!existsSync(CHROMIUM)) {
  console.error(`e2e: Chromium is not installed at ${CHROMIUM} (apt-get install chromium; .ci/run does it).`);
  report({ passed: 0, failed: 1, skipped: 0 });
  process.exit(1);
}
if (spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { stdio: 'inherit' }).status !== 0) process.exit(1);

// The hubs here (this one and those the specs start) log warnings only: a JSON line per request would bury the test output.
process.env.OUTPOST_LOG_LEVEL ??= 'warn';
const dataDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-'));
const cluster = process.env.OUTPOST_E2E_POSTGRES === '1' ? await throwawayCluster() : null;
const databaseUrl = cluster?.url ?? process.env.OUTPOST_E2E_DATABASE_URL;
const database = databaseUrl ? ['--database-url', databaseUrl] : [];
const hub = spawn(process.execPath, ['bin/outpost.mjs', 'serve', '--port', '0', '--data-dir', dataDir, '--rate-limit', '0', ...database], {
  env: { ...process.env, OUTPOST_ADMIN_EMAIL: ADMIN.email, OUTPOST_ADMIN_PASSWORD: ADMIN.password },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const stop = () => {
  hub.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
  // Immediate shutdown of the cluster: the hub may still be closing its connection.
  cluster?.stop();
};
process.on('exit', stop);

const url = await new Promise((resolve, reject) => {
  let output = '';
  const timer = setTimeout(() => reject(new Error(`the hub did not start: ${output}`)), 30_000);
  hub.stdout.on('data', (chunk) => {
    output += chunk;
    const match = /listening on (http:\/\/\S+)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolve(match[1]);
    }
  });
  hub.on('exit', (code) => reject(new Error(`the hub exited (${code}): ${output}`)));
});

// A second user (to check what others can see), and demo data so the list has something to scroll and filter.
spawnSync(process.execPath, ['bin/outpost.mjs', 'users', 'add', '--email', AGENT.email, '--name', 'Agent Smith', '--role', 'agent', '--password', AGENT.password, '--data-dir', dataDir, ...database], { stdio: 'ignore' });
spawnSync(process.execPath, ['bin/outpost.mjs', 'seed', '--contacts', '500', '--data-dir', dataDir, ...database], { stdio: 'ignore' });

// `npm run test:e2e -- e2e/deals.spec.mjs` runs only the specs named; without names, every spec.
const specs = process.argv.length > 2 ? process.argv.slice(2) : readdirSync('e2e').filter((f) => f.endsWith('.spec.mjs')).map((f) => join('e2e', f));
// The runner writes its TAP report here; on a fresh clone (npm run test:e2e alone) the folder is not there yet.
mkdirSync('.cache', { recursive: true });
const run = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', '--test-reporter-destination=stdout', '--test-reporter=tap', '--test-reporter-destination=.cache/e2e.tap', ...specs], {
  stdio: 'inherit',
  env: { ...process.env, OUTPOST_E2E_URL: url, OUTPOST_E2E_EMAIL: ADMIN.email, OUTPOST_E2E_PASSWORD: ADMIN.password,
    OUTPOST_E2E_AGENT_EMAIL: AGENT.email, OUTPOST_E2E_AGENT_PASSWORD: AGENT.password, CHROMIUM_PATH: CHROMIUM,
    // Specs that run a hub of their own put it on the same cluster (e2e/ownHub.mjs).
    ...(cluster ? { OUTPOST_E2E_POSTGRES_CLUSTER: cluster.url } : {}) },
});
const tap = existsSync('.cache/e2e.tap') ? (await import('node:fs')).readFileSync('.cache/e2e.tap', 'utf8') : '';
const count = (name) => Number(new RegExp(`^# ${name} (\\d+)`, 'm').exec(tap)?.[1] ?? 0);
// The failed tests by name, for the summary at the end of `npm test` (CI keeps only the tail of the output).
const failures = [...tap.matchAll(/^\s*not ok \d+ - (.+)$/gm)].map((match) => match[1].replace(/\s*#.*$/, ''));
report({ passed: count('pass'), failed: count('fail') + (run.status !== 0 && count('fail') === 0 ? 1 : 0), skipped: count('skipped'), failures });
process.exit(run.status ?? 1);
