// A replica (the rep's own copy, `outpost serve --upstream`) in the browser:
// its sync status in the sidebar, working offline, catching up when the hub
// is back, and a change the hub refused shown and discarded in Sync issues.
// The spec runs a hub of its own (stopped and started again on the same
// port to play "offline"); the suite's main hub is only used to check that a
// plain hub shows no sync status.
import { expect, test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stablePort, hubClient, serveHub, serveReplica, stop, stopAll, syncToken, syncUntil } from './ownHub.mjs';
import { pageApi, screenshot, signInAt, closeContexts, signInOn } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));
const ADMIN = { email: 'replica-admin@example.com', password: 'replica-e2e-password' };
const WAIT = { timeout: 20_000 };

let browser;
let seededHub;
let hubDir;
let replicaDir;
let hubPort;
let hub;
let hubUrl;
let token;
let replica;

const startHub = (port = hubPort) => serveHub(port, hubDir, ADMIN);

/** The hub's REST API, as the admin (with the personal token the replica uses too). */
const hubApi = hubClient(() => hubUrl, () => token);

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  hubDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-hub-'));
  replicaDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-replica-'));
  hubPort = await stablePort();
  hub = await startHub();
  hubUrl = hub.url;
  token = syncToken(hubDir, ADMIN.email);
  replica = await serveReplica(hubUrl, token, replicaDir);
});

test.afterAll(async () => {
  await closeContexts(browser);
  await stopAll();
  for (const dir of [hubDir, replicaDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test.describe('the main hub', () => {
  test('shows no sync status and stops asking for one', async ({ page }) => {
    const asked = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname === '/v2/replica/status') asked.push(request.url());
    });
    // A fake clock, run ahead past a few of the status poll's periods: any polling would have asked by then.
    await page.clock.install();
    await signInOn(page, seededHub.url, seededHub.admin);
    await page.clock.runFor(10_000);
    assert.equal(await page.getByRole('status', { name: 'Sync status' }).count(), 0);
    assert.equal(await page.getByRole('button', { name: 'Sync now' }).count(), 0);
    await page.setViewportSize({ width: 390, height: 844 });
    assert.equal(await page.getByRole('banner').getByRole('status', { name: 'Sync status' }).count(), 0, 'nor in the phone\'s top bar');
    // One look at /v2/replica/status (a 404 on a hub), then no more polling.
    assert.equal(asked.length, 1);
  });
});

test.describe('a replica', () => {
  let page;
  let status;
  let tempUrl;
  let hubId;

  test.beforeAll(async () => {
    page = await signInAt(browser, replica.url, ADMIN);
    status = page.getByRole('status', { name: 'Sync status' });
  });
  test.afterAll(() => page?.context().close());

  test('signs in with the hub account and is up to date', async () => {
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
    await page.getByRole('button', { name: 'Sync now' }).waitFor();
    assert.equal(await page.getByRole('link', { name: /sync issue/ }).count(), 0);
    await screenshot(page, '50-replica-up-to-date');
  });

  test('keeps working offline: a new contact waits to be sent', async () => {
    await stop(hub.child);
    await page.getByRole('link', { name: 'New contact' }).click();
    await page.getByLabel('First name').fill('Odile');
    await page.getByLabel('Last name *').fill('Offlander');
    await page.getByLabel('Email').fill('odile@offline.test');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Odile Offlander' }).waitFor(WAIT);
    tempUrl = page.url();
    // Its id is a temporary (negative) one until the hub has it: the address says local/… instead, never a negative id.
    assert.match(new URL(tempUrl).pathname, /^\/contacts\/local\/\d+$/, 'a contact made on the replica is at a local address');

    await syncUntil(page, 'Offline');
    assert.match(await status.getAttribute('title'), /1 change not yet on the hub/);
    await screenshot(page, '51-replica-offline-pending');
  });

  test('sends the contact when the hub is back', async () => {
    hub = await startHub();
    assert.equal(hub.url, hubUrl, 'the hub is back on the same port');
    await syncUntil(page, 'Up to date');

    const found = await hubApi('GET', '/v2/contacts?q=Offlander');
    assert.equal(found.status, 200);
    assert.equal(found.body.items.length, 1, 'the hub has the contact made offline');
    hubId = found.body.items[0].data.id;
    assert.ok(hubId > 0);

    // The open page follows the contact from its temporary id to its hub id: the rep does not lose their place.
    await page.waitForURL((url) => url.pathname === `/contacts/${hubId}`, WAIT);
    await page.getByRole('heading', { name: 'Odile Offlander' }).waitFor(WAIT);
    // So does an old link or bookmark with the temporary id.
    await page.goto(tempUrl);
    await page.waitForURL((url) => url.pathname === `/contacts/${hubId}`, WAIT);
    await screenshot(page, '52-replica-followed-to-hub-id');
    await page.getByRole('link', { name: 'Contacts' }).click();
    const link = page.getByTestId('contact-scroller').getByRole('link', { name: 'Odile Offlander' });
    await link.waitFor(WAIT);
    assert.equal(await link.getAttribute('href'), `/contacts/${hubId}`);
    await screenshot(page, '53-replica-synced');
  });

  test('refreshes the open contacts list when the replica\'s data changes', async () => {
    // A change made behind the screen's back (another window, say): the list shows it without a reload.
    const created = await page.evaluate(async () => {
      const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
      const response = await fetch('/v2/contacts', {
        method: 'POST',
        headers: { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ data: { first_name: 'Rhea', last_name: 'Refreshed' } }),
      });
      return response.ok;
    });
    assert.ok(created, 'the replica took the new contact');
    const asked = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.includes('/v2/replica/status')).length);
    const before = await asked();
    await page.getByTestId('contact-scroller').getByRole('link', { name: 'Rhea Refreshed' }).waitFor(WAIT);
    // The replica told the page (its event stream); the page did not have to ask.
    assert.equal(await asked(), before, 'no status polling while the event stream is open');
    // On the hub before the next step deletes a contact there.
    await syncUntil(page, 'Up to date');
    assert.equal((await hubApi('GET', '/v2/contacts?q=Refreshed')).body.items.length, 1);
  });

  test('shows a change the hub refused in Sync issues, and discards it', async () => {
    // Offline again, the rep changes the contact's title…
    await stop(hub.child);
    await page.getByRole('link', { name: 'Odile Offlander' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Title').fill('Regional buyer');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Regional buyer').first().waitFor(WAIT);
    await syncUntil(page, 'Offline');

    // …while someone deletes it on the hub (running on another port, out of the replica's reach).
    const elsewhere = await startHub(await stablePort());
    const deleted = await hubClient(elsewhere.url, token)('DELETE', `/v2/contacts/${hubId}`);
    assert.equal(deleted.status, 204);
    await stop(elsewhere.child);

    // Back online: the hub refuses the change (the contact is gone there).
    hub = await startHub();
    const issuesLink = page.getByRole('link', { name: '1 sync issue' });
    await syncUntil(page, issuesLink);
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
    await screenshot(page, '54-replica-sync-issue');

    await issuesLink.click();
    await page.getByRole('heading', { name: 'Sync issues' }).waitFor();
    const issue = page.getByRole('listitem', { name: 'Change contact' });
    await issue.waitFor(WAIT);
    // Said in plain words, with what discarding would lose (the contact as this device has it).
    assert.match(await issue.textContent(), /Someone else deleted this contact on the hub.*What would be lost.*Odile Offlander/);
    await issue.getByRole('link', { name: 'Odile Offlander' }).waitFor(WAIT);
    await issue.getByRole('button', { name: 'Discard' }).click();
    const confirm = page.getByRole('alertdialog', { name: 'Discard this change?' });
    await confirm.getByText('The contact goes from this device too.').waitFor();
    await screenshot(page, '55-replica-confirm-discard');
    await confirm.getByRole('button', { name: 'Discard' }).click();

    await page.getByText('No sync issues: every change reached the hub.').waitFor(WAIT);
    await page.getByRole('link', { name: /sync issue/ }).waitFor({ state: 'detached', ...WAIT });
    await screenshot(page, '56-replica-no-sync-issues');

    // The record goes back to the hub's state: gone.
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByTestId('contact-scroller').getByRole('link', { name: 'Rhea Refreshed' }).waitFor(WAIT);
    assert.equal(await page.getByTestId('contact-scroller').getByRole('link', { name: 'Odile Offlander' }).count(), 0);
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
    await screenshot(page, '57-replica-discarded');
  });

  test('edits a seeded contact with custom fields while the hub is down; the edit lands when it is back', async () => {
    // Demo data seeded on the hub by another process: custom field definitions and contacts that use them.
    execFileSync(process.execPath, [CLI, 'seed', '--contacts', '20', '--data-dir', hubDir], { stdio: 'ignore' });
    const people = (await hubApi('GET', '/v2/contacts?is_organization=false&per_page=100')).body.items.map((i) => i.data);
    const seeded = people.find((c) => Object.keys(c.custom_fields).length >= 2);
    assert.ok(seeded, 'the seed gives people custom field values');
    // The hub's change stream wakes the replica's pull: no "Sync now" needed.
    await expect.poll(async () => (await pageApi(page, 'GET', `/v2/contacts/${seeded.id}`)).status, { message: 'the seeded contact reached the replica', ...WAIT }).toBe(200);
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
    await page.goto(`${replica.url}/contacts/${seeded.id}`);
    await page.getByRole('heading', { name: seeded.name }).waitFor(WAIT);
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Title').waitFor(WAIT);

    await stop(hub.child);
    // Offline shows by itself, without pressing Sync now.
    await status.filter({ hasText: 'Offline' }).waitFor(WAIT);
    await page.getByLabel('Title').fill('Buyer, edited offline');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Buyer, edited offline').first().waitFor(WAIT);
    // The waiting change is counted in the indicator itself, and no socket error is shown.
    await status.filter({ hasText: 'Offline · 1 pending' }).waitFor(WAIT);
    assert.doesNotMatch(await status.getAttribute('title'), /ECONN|fetch failed|socket/i);
    await screenshot(page, '58-replica-offline-edit-pending');
    await page.setViewportSize({ width: 390, height: 844 });
    // On a phone the state is in the top bar, in sight with the navigation drawer shut.
    const header = page.getByRole('banner');
    await header.getByRole('status', { name: 'Sync status' }).filter({ hasText: 'Offline · 1 pending' }).waitFor(WAIT);
    // The drawer shut (the sidebar slides out of sight as the window narrows), the state still in sight.
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leads' }).waitFor({ state: 'hidden' });
    assert.equal(await header.getByRole('status', { name: 'Sync status' }).isVisible(), true);
    await screenshot(page, '58-replica-offline-edit-pending-phone');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.equal(await header.getByRole('status', { name: 'Sync status' }).isVisible(), false, 'on a laptop the sidebar says it, once');

    // Someone signing in to the replica meanwhile is told the hub is out of reach, not that the password is wrong.
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const signInPage = await other.newPage();
    await signInPage.goto(replica.url);
    await signInPage.getByLabel('Email').fill(ADMIN.email);
    await signInPage.getByLabel('Password').fill(ADMIN.password);
    await signInPage.getByRole('button', { name: 'Sign in' }).click();
    const alert = signInPage.getByRole('alert');
    await alert.waitFor(WAIT);
    assert.match(await alert.textContent(), /hub cannot be reached/i);
    await screenshot(signInPage, '58-replica-sign-in-hub-down');
    await other.close();

    hub = await startHub();
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
    const onHub = (await hubApi('GET', `/v2/contacts/${seeded.id}`)).body.data;
    assert.equal(onHub.title, 'Buyer, edited offline');
    assert.deepEqual(onHub.custom_fields, seeded.custom_fields, 'the custom field values came through unchanged');
    await screenshot(page, '59-replica-offline-edit-landed');
  });
});
