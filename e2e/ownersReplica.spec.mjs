// Owners on a replica's page (`outpost serve --upstream`): the lists name
// and filter by owner from the replica's own copy, the deals list's total is
// the replica's sum, and giving a contact to a teammate while the hub is
// down is an ordinary edit: saved here at once, waiting, then on the hub.
// The spec runs a hub of its own (stopped and started again on the same port
// to play "offline").
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stablePort, hubClient, ownHubDatabase, serveHub, serveReplica, stop, stopAll, syncToken, syncUntil } from './ownHub.mjs';
import { pageApi, screenshot, signInAt, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));
const ADMIN = { email: 'owners-admin@example.com', password: 'owners-e2e-password' };
const REP = { email: 'rita@example.com', name: 'Rita Rep', password: 'rita-e2e-password' };
const WAIT = { timeout: 20_000 };
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let browser;
let seededHub;
let hubDir;
let replicaDir;
let hubDatabase;
let hubPort;
let hub;
let token;
let replica;
let page;
let status;
let me;
let repId;
let contactId;

const startHub = () => serveHub(hubPort, hubDir, ADMIN, hubDatabase.args);

/** The hub's REST API, as the admin (with the personal token the replica uses too). */
const hubApi = hubClient(() => hub.url, () => token);

/** In-app navigation (the router follows the address), so the sidebar need not be open on a phone. */
async function go(path, heading) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { name: heading, exact: true }).waitFor(WAIT);
}

const olga = () => page.getByRole('table', { name: 'Contacts' }).getByRole('row').filter({ hasText: 'Olga Ownerswap' });

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  hubDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-owners-hub-'));
  replicaDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-owners-replica-'));
  hubDatabase = await ownHubDatabase('owners', seededHub.postgresCluster);
  hubPort = await stablePort();
  hub = await startHub();
  execFileSync(process.execPath, [CLI, 'users', 'add', '--email', REP.email, '--name', REP.name, '--role', 'agent', '--password', REP.password, '--data-dir', hubDir, ...hubDatabase.args], { stdio: 'ignore' });
  token = syncToken(hubDir, ADMIN.email, hubDatabase.args);
  repId = (await hubApi('GET', '/v2/users?per_page=100')).body.items.map((i) => i.data).find((u) => u.name === REP.name).id;
  contactId = (await hubApi('POST', '/v2/contacts', { first_name: 'Olga', last_name: 'Ownerswap' })).body.data.id;
  const currency = (await hubApi('GET', '/v2/accounts/self')).body.data.currency;
  for (const [name, value, owner] of [['Swap one', '700', undefined], ['Swap two', '25.5', repId]]) {
    const made = await hubApi('POST', '/v2/deals', { name, value, currency, contact_id: contactId, tags: ['swapped'], ...(owner ? { owner_id: owner } : {}) });
    assert.equal(made.status, 200, JSON.stringify(made.body));
  }
  replica = await serveReplica(hub.url, token, replicaDir);
  page = await signInAt(browser, replica.url, ADMIN);
  status = page.getByRole('status', { name: 'Sync status' });
  me = (await pageApi(page, 'GET', '/v2/users/self')).body.data;
});

test.afterAll(async () => {
  await closeContexts(browser);
  await stopAll();
  await hubDatabase?.drop();
  for (const dir of [hubDir, replicaDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test.describe('owners on a replica', () => {
  test('names the owner and filters by owner from the replica\'s copy', async () => {
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
    await page.getByLabel('Search contacts').fill('Ownerswap');
    await olga().getByRole('cell', { name: me.name, exact: true }).waitFor(WAIT);
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: REP.name });
    await page.getByText('No contacts match.').waitFor(WAIT);
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Me' });
    await olga().waitFor(WAIT);
  });

  test('totals the deals listed from the replica\'s copy', async () => {
    await go('/deals/list', 'Deals');
    await page.getByLabel('Tag', { exact: true }).fill('swapped');
    const total = page.getByRole('search').locator('.list-total');
    await total.getByText('725.50').waitFor(WAIT);
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: REP.name });
    await total.getByText('25.50').waitFor(WAIT);
    await page.getByRole('row', { name: 'Swap two' }).getByRole('cell', { name: REP.name, exact: true }).waitFor(WAIT);
    await screenshot(page, '490-owners-replica-deals');
  });

  test('gives a contact to a teammate while the hub is down, and the hub has it once back', async () => {
    await stop(hub.child);
    await go(`/contacts/${contactId}`, 'Olga Ownerswap');
    const details = page.getByRole('region', { name: 'Details' });
    const owner = details.getByLabel('Owner', { exact: true });
    await owner.selectOption({ label: REP.name });
    await details.getByRole('status').getByText('Saved').waitFor(WAIT);
    assert.equal((await pageApi(page, 'GET', `/v2/contacts/${contactId}`)).body.data.owner_id, repId, 'the replica has the change at once');
    await syncUntil(page, 'Offline');
    assert.match(await status.getAttribute('title'), /1 change not yet on the hub/);
    await screenshot(page, '491-owners-replica-offline-owner');

    // The lists follow the replica's copy meanwhile, on a phone too.
    await go('/contacts', 'Contacts');
    await page.setViewportSize(PHONE);
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: REP.name });
    await page.getByLabel('Search contacts').fill('Ownerswap');
    await olga().getByText(REP.name).waitFor(WAIT);
    await screenshot(page, '492-owners-replica-offline-list-phone');
    await page.setViewportSize(DESKTOP);

    hub = await startHub();
    await syncUntil(page, 'Up to date');
    assert.equal((await hubApi('GET', `/v2/contacts/${contactId}`)).body.data.owner_id, repId, 'the hub has the new owner');
  });
});
