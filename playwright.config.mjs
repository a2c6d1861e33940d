// The end-to-end suite on Playwright's test runner: the web UI in Debian's Chromium against real hubs
// (e2e/fixtures.mjs starts one per worker, seeded). `npm run test:e2e` runs every project;
// `npm run test:e2e -- e2e/deals.spec.mjs --project sqlite` runs one spec on one.
//
// Projects:
// - sqlite: every spec but the replica ones, against a hub on SQLite (the default backend).
// - replica: the specs that run a replica (`outpost serve --upstream`) in front of a hub of their own and use
//   the replica's page: offline work, sync, conflicts.
// - postgres: the specs whose screens rest on what the backend does differently (search, lists and their
//   filters, reports, imports, bulk edits, live changes between sessions, sync and its merges), against a hub
//   on PostgreSQL and with the replica specs' own hubs there too. What the rest of the UI asks of the
//   hub is the same REST API, which the API suite checks on both backends (vitest.postgres.config.ts).
//   Only where PostgreSQL's server is installed (.ci/run installs it); otherwise the run says why it left it out.
import { defineConfig } from '@playwright/test';
import { whyNoPostgres } from './test/support/postgresCluster.ts';

const REPLICA_SPECS = ['replica', 'replicaDay', 'ownersReplica', 'conflicts'].map((name) => `${name}.spec.mjs`);
const BACKEND_SPECS = [
  'commandPalette', 'contacts', 'smartLists', 'bulk', 'duplicates', 'deals', 'reports', 'importExport', 'concurrentEdits',
].map((name) => `${name}.spec.mjs`);

const noPostgres = whyNoPostgres();
if (noPostgres && !process.env.TEST_WORKER_INDEX) console.log(`e2e: the postgres project is left out: ${noPostgres}`);

export default defineConfig({
  testDir: 'e2e',
  testMatch: '*.spec.mjs',
  outputDir: '.cache/e2e-results',
  globalSetup: './e2e/globalSetup.mjs',
  // Two workers, each with its own hub: on this 2-core machine a third adds contention, not speed (docs/testing.md).
  workers: Number(process.env.OUTPOST_E2E_WORKERS ?? 2),
  // No retries: a test that passes only the second time is a failure to look at, not to hide.
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json', { outputFile: '.cache/e2e-report.json' }]],
  use: {
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    actionTimeout: 30_000,
    navigationTimeout: 30_000,
    // No trace by default: recording one for every test made the suite about 30% slower (four specs: 46 s with,
    // 32 s without), to keep it for the rare failure. Run a failing spec again with `--trace on` to get one.
    trace: 'off',
    screenshot: 'only-on-failure',
  },
  projects: [
    { name: 'sqlite', testIgnore: REPLICA_SPECS, use: { backend: 'sqlite' } },
    { name: 'replica', testMatch: REPLICA_SPECS, use: { backend: 'sqlite' } },
    ...(noPostgres ? [] : [{ name: 'postgres', testMatch: [...BACKEND_SPECS, ...REPLICA_SPECS], use: { backend: 'postgres' } }]),
  ],
});
