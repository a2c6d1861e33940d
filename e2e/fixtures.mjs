// The end-to-end suite's fixtures, on Playwright's test runner (playwright.config.mjs):
//
// - `backend` (a project option): where the seeded hub keeps its data, 'sqlite' or 'postgres'.
// - `postgresCluster` (per worker, PostgreSQL projects only): a throwaway cluster
//   (test/support/postgresCluster.ts) for the seeded hub and for the hubs a spec starts itself (e2e/ownHub.mjs).
// - `seededHub` (per worker): `outpost serve` on a free loopback port with a fresh data folder, an admin
//   and an agent, and 500 demo contacts so lists have something to scroll and filter. Each worker has its
//   own, so specs in parallel workers never see each other's records; the specs of one worker share it,
//   one after another, as a team shares a hub.
// - `adminPage`, `agentPage` (per test): a page of its own, signed in as the seeded hub's admin or agent,
//   on the contacts list; closed after the test.
//
// Specs whose tests build on each other (most: one page walks through a story) run serially in one worker
// and keep that page across their tests, opening it in `test.beforeAll` with `signIn(browser, seededHub)`.
import { test as base, expect } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ownHubDatabase, serveHub, stop } from './ownHub.mjs';
import { signIn } from './browser.mjs';

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));
const ADMIN = { email: 'admin@example.com', password: 'e2e-admin-password' };
const AGENT = { email: 'agent@example.com', password: 'e2e-agent-password' };

export const test = base.extend({
  backend: ['sqlite', { option: true, scope: 'worker' }],

  postgresCluster: [async ({ backend }, use) => {
    if (backend !== 'postgres') return use(null);
    const { startPostgresCluster } = await import('../test/support/postgresCluster.ts');
    const cluster = await startPostgresCluster();
    try {
      await use(cluster);
    } finally {
      cluster.stop();
    }
  }, { scope: 'worker', timeout: 60_000 }],

  seededHub: [async ({ postgresCluster }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-'));
    const database = await ownHubDatabase('seeded', postgresCluster);
    const hub = await serveHub(0, dataDir, ADMIN, database.args, { tracked: false });
    const cli = (...args) => execFileSync(process.execPath, [CLI, ...args, '--data-dir', dataDir, ...database.args], { stdio: 'ignore' });
    cli('users', 'add', '--email', AGENT.email, '--name', 'Agent Smith', '--role', 'agent', '--password', AGENT.password);
    cli('seed', '--contacts', '500');
    try {
      await use({ url: hub.url, admin: ADMIN, agent: AGENT, postgresCluster });
    } finally {
      await stop(hub.child);
      await database.drop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, { scope: 'worker', timeout: 90_000 }],

  adminPage: async ({ browser, seededHub }, use) => {
    await useSignedIn(browser, seededHub, 'admin', use);
  },

  agentPage: async ({ browser, seededHub }, use) => {
    await useSignedIn(browser, seededHub, 'agent', use);
  },
});

async function useSignedIn(browser, seededHub, who, use) {
  const page = await signIn(browser, seededHub, who);
  try {
    await use(page);
  } finally {
    await page.context().close();
  }
}

export { expect };

/** Asks again until `check()` holds (within `timeout`), failing with `what` when it never does: a change the UI saves after it answers. */
export async function until(check, what = 'the condition held', timeout = 10_000) {
  await expect.poll(check, { message: what, timeout }).toBe(true);
}
