// The hub's web page as a replica: signed in without "Shared computer", the
// browser keeps the rep's data in its engine worker (SQLite in WebAssembly
// over OPFS) and syncs it with the hub like a desktop replica. The page is
// opened through a link to the hub the spec cuts (connection refused) and
// heals: the browser is never told it is offline, the hub just stops answering.
import { chromium } from '@playwright/test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from './fixtures.mjs';
import { cuttableLink } from './cuttableLink.mjs';
import { hubWithNewerBuild } from './newerBuild.mjs';
import { blockingViolations, violationLines } from './axe.mjs';
import { hubClient, passwordToken } from './ownHub.mjs';
import { closeContexts, screenshot, settled, signInOn } from './browser.mjs';

// One story on one page (signed in, offline, back), in order.
test.describe.configure({ mode: 'serial' });

const WAIT = { timeout: 30_000 };
const PHONE = { width: 390, height: 844 };
const NOTHING_KEPT = { files: [], caches: [], databases: [], local: [], session: [] };
const LIVE = { timeout: 5_000 };
const MARK = `Br${Date.now().toString(36)}`;

let browser;
let seededHub;
let link;
let context;
let page;
let hub;
let hubAdminToken;
let contactId;

const syncStatus = (on = page) => on.getByRole('status', { name: 'Sync status' });

/** What this origin keeps in the browser: OPFS entries, caches, IndexedDB databases, both storages. */
function keptInBrowser(on = page) {
  return on.evaluate(async () => {
    const root = await navigator.storage.getDirectory();
    const files = [];
    for await (const name of root.keys()) files.push(name);
    return {
      files,
      caches: await caches.keys(),
      databases: (await indexedDB.databases()).map((database) => database.name),
      local: Object.keys(localStorage),
      session: Object.keys(sessionStorage),
    };
  });
}

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  link = await cuttableLink(new URL(seededHub.url).port);
  hubAdminToken = await passwordToken(seededHub.url, seededHub.admin);
  hub = hubClient(seededHub.url, hubAdminToken);
});

test.afterAll(async () => {
  await closeContexts(browser);
  await link?.close();
});

test('signed in keeping data, the page syncs the rep\'s data into the browser and reads "Up to date"', async () => {
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  page = await context.newPage();
  await signInOn(page, link.url, seededHub.admin, { keepData: true });
  await expect(syncStatus()).toHaveText('Up to date', WAIT);
  // The seeded hub's contacts, answered by the engine in the browser.
  await expect(page.getByRole('row')).not.toHaveCount(0);
  const kept = await keptInBrowser();
  expect(kept.files.length).toBeGreaterThan(0);
  // The tokens stay in the worker: the page keeps only the note that this browser holds data, and the UI's own
  // list of the reminders it announced this session (the worker's hub may have one due, made by an earlier spec).
  expect(kept.session.filter((key) => key !== 'outpost.reminders.shown')).toEqual([]);
  expect(kept.local).toEqual(['outpost.keepsData']);
  await screenshot(page, '61-browser-replica-contacts');
});

test('with the hub out of reach it says "Offline", keeps a new contact and a note, and sends them when the hub is back, the note at the time it was written', async () => {
  await link.cut();
  await expect(syncStatus()).toHaveText(/^Offline/, WAIT);

  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByLabel('First name').fill('Olive');
  await page.getByLabel('Last name *').fill(`Offline ${MARK}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: `Olive Offline ${MARK}` }).waitFor();
  const written = Date.now();
  await page.getByLabel('Note', { exact: true }).fill(`Met in the basement ${MARK}`);
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByText(`Met in the basement ${MARK}`).waitFor();
  await expect(syncStatus()).toHaveText('Offline · 2 pending', WAIT);
  await screenshot(page, '62-browser-replica-offline-pending');

  // Some time passes before the hub is back: the note keeps the time it was written, not the time it arrived.
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  await link.heal();
  await expect(syncStatus()).toHaveText('Up to date', WAIT);
  const found = await hub('GET', `/v2/contacts?last_name=${encodeURIComponent(`Offline ${MARK}`)}`);
  expect(found.body.items).toHaveLength(1);
  contactId = found.body.items[0].data.id;
  const notes = await hub('GET', `/v2/notes?resource_type=contact&resource_id=${contactId}`);
  expect(notes.body.items.map((item) => item.data.content)).toEqual([`Met in the basement ${MARK}`]);
  const noted = Date.parse(notes.body.items[0].data.created_at);
  expect(Math.abs(noted - written)).toBeLessThan(3_000);
  // The page now shows the record under its hub id.
  await expect(page).toHaveURL(new RegExp(`/contacts/${contactId}$`), WAIT);
});

test('a change made on the hub shows on the open record page within 5 s, without a reload', async () => {
  await page.getByRole('heading', { name: `Olive Offline ${MARK}` }).waitFor();
  const changed = await hub('PUT', `/v2/contacts/${contactId}`, { title: `Buyer ${MARK}` });
  expect(changed.status).toBe(200);
  await expect(page.getByText(`Buyer ${MARK}`).first()).toBeVisible(LIVE);
});

test('reloaded with the hub out of reach, the record page opens from the local data (the app shell kept by the service worker)', async () => {
  // The service worker has kept this build's files once it is active.
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await link.cut();
  await page.reload();
  await page.getByRole('heading', { name: `Olive Offline ${MARK}` }).waitFor(WAIT);
  await expect(page.getByText(`Met in the basement ${MARK}`)).toBeVisible();
  await expect(syncStatus()).toHaveText(/^Offline/, WAIT);
  await screenshot(page, '63-browser-replica-reloaded-offline');
});

test('a second tab shares the engine: a record made offline in one opens in the other', async () => {
  await page.getByRole('link', { name: 'Contacts' }).first().click();
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByLabel('First name').fill('Tabitha');
  await page.getByLabel('Last name *').fill(`Tabs ${MARK}`);
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: `Tabitha Tabs ${MARK}` }).waitFor();

  const second = await context.newPage();
  await second.goto(page.url());
  await second.getByRole('heading', { name: `Tabitha Tabs ${MARK}` }).waitFor(WAIT);
  await expect(syncStatus(second)).toHaveText(/^Offline · \d+ pending$/, WAIT);
  await screenshot(second, '64-browser-replica-second-tab');

  // The first tab closes; the second's worker takes over the engine and syncs once the hub is back.
  await page.close();
  page = second;
  await link.heal();
  await expect(syncStatus()).toHaveText('Up to date', WAIT);
  const found = await hub('GET', `/v2/contacts?last_name=${encodeURIComponent(`Tabs ${MARK}`)}`);
  expect(found.body.items).toHaveLength(1);
});

test('a file attached on the hub opens from the record page: the browser\'s engine signs its link and answers it', async () => {
  const contact = (await hub('GET', `/v2/contacts?last_name=${encodeURIComponent(`Tabs ${MARK}`)}`)).body.items[0].data;
  const text = `Visit report ${MARK}: 40 units`;
  const query = new URLSearchParams({ resource_type: 'contact', resource_id: String(contact.id), name: 'visit-report.txt' });
  const attached = await fetch(`${seededHub.url}/v2/documents?${query}`, { method: 'POST', headers: { Authorization: `Bearer ${hubAdminToken}`, 'Content-Type': 'text/plain' }, body: text });
  expect(attached.status).toBe(200);
  await page.goto(`${link.url}/contacts/${contact.id}`);
  const fileLink = page.getByRole('link', { name: 'visit-report.txt' });
  await fileLink.waitFor(WAIT);
  // A link only this browser's engine can check (the hub refuses its signature): the service worker hands it to
  // the engine, which has the bytes from the hub. Read through fetch, which that route answers alike: Playwright's
  // download event reports a file a service worker answered as canceled in headless Chromium.
  const answer = await page.evaluate(async (href) => {
    const response = await fetch(href);
    return { status: response.status, disposition: response.headers.get('content-disposition'), text: await response.text() };
  }, await fileLink.getAttribute('href'));
  expect(answer).toEqual({ status: 200, disposition: "attachment; filename*=UTF-8''visit-report.txt", text });
});

test('converting a lead, which only the hub does, works from the page online: the new contact opens at once', async () => {
  const [first, last] = ['Noor', `Haddad ${MARK}`];
  const lead = (await hub('POST', '/v2/leads', { first_name: first, last_name: last, organization_name: `Haddad Freight ${MARK}` })).body.data;
  await page.goto(`${link.url}/leads/${lead.id}`);
  await page.getByRole('heading', { name: `${first} ${last}` }).waitFor(WAIT);
  await page.getByRole('button', { name: 'Convert' }).click();
  const dialog = page.getByRole('dialog', { name: `Convert ${first} ${last}` });
  await dialog.getByLabel('Value', { exact: true }).fill('5,000');
  await dialog.getByRole('button', { name: 'Convert' }).click();
  // The hub made the contact; the browser's engine has it already, so its page opens from local data.
  await page.waitForURL(/\/contacts\/\d+$/, WAIT);
  await page.getByRole('heading', { name: `${first} ${last}` }).waitFor(WAIT);
  const conversions = (await hub('GET', `/v2/lead_conversions?lead_id=${lead.id}`)).body.items;
  expect(conversions).toHaveLength(1);
  expect(page.url()).toMatch(new RegExp(`/contacts/${conversions[0].data.individual_id}$`));
  await expect(syncStatus()).toHaveText('Up to date', WAIT);
  await screenshot(page, '67-browser-replica-converted-lead');
  await page.setViewportSize(PHONE);
  await settled(page);
  await screenshot(page, '67-browser-replica-converted-lead-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('a newer build of the app is offered in every tab, and reloading moves them all to it, the rep\'s data kept', async () => {
  const second = await context.newPage();
  await second.goto(page.url());
  await second.getByRole('heading', { name: `Noor Haddad ${MARK}` }).waitFor(WAIT);
  // The hub is upgraded: from now on it serves another build's service worker.
  const upgraded = await hubWithNewerBuild(new URL(seededHub.url).port);
  link.to(upgraded.port);
  try {
    // A tab asks now rather than within the hour (a page's load would ask too).
    await page.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration.update()));
    const offer = (on) => on.getByRole('status', { name: 'App update' });
    await expect(offer(page)).toContainText('A new version of Outpost is ready.', WAIT);
    await expect(offer(second)).toBeVisible(WAIT);
    // The link dropped its connections when it was plugged into the upgraded hub: the engine is back in contact,
    // its change stream open again (until then a reconnection may show "Offline" for a moment).
    await expect.poll(upgraded.changeStreams, { message: 'the engine\'s change stream through the upgraded hub', ...WAIT }).toBeGreaterThan(0);
    await expect(syncStatus()).toHaveText('Up to date', WAIT);
    expect(violationLines(await blockingViolations(page, '.update-banner'))).toEqual([]);
    await screenshot(page, '68-browser-replica-update-offered');
    await second.setViewportSize(PHONE);
    await settled(second);
    await expect(syncStatus(second)).toHaveText('Up to date', WAIT);
    await screenshot(second, '68-browser-replica-update-offered-phone');

    // Both tabs reload, whichever asked: each marks its page, and the mark is gone once it has loaded again.
    for (const tab of [page, second]) await tab.evaluate(() => { window.beforeUpdate = true; });
    await offer(second).getByRole('button', { name: 'Reload' }).click();
    for (const tab of [page, second]) {
      await tab.waitForFunction(() => window.beforeUpdate === undefined, null, WAIT);
      await tab.getByRole('heading', { name: `Noor Haddad ${MARK}` }).waitFor(WAIT);
      await expect(offer(tab)).toHaveCount(0);
    }
    const registration = await page.evaluate(async () => {
      const kept = await navigator.serviceWorker.getRegistration();
      return { waiting: kept.waiting !== null, active: kept.active?.state, controlled: navigator.serviceWorker.controller !== null };
    });
    expect(registration).toEqual({ waiting: false, active: 'activated', controlled: true });
    await expect(syncStatus()).toHaveText('Up to date', WAIT);
  } finally {
    link.to(new URL(seededHub.url).port);
    await upgraded.close();
    await second.close();
  }
});

test('a tab that signed in and was never reloaded moves to a new build too (the service worker claims it)', async () => {
  const hubPort = new URL(seededHub.url).port;
  const fresh = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  const upgraded = await hubWithNewerBuild(hubPort);
  try {
    const tab = await fresh.newPage();
    await signInOn(tab, link.url, seededHub.admin, { keepData: true });
    await expect(syncStatus(tab)).toHaveText('Up to date', WAIT);
    // The page loaded before any build was kept; its first service worker takes it over all the same.
    await expect.poll(() => tab.evaluate(() => navigator.serviceWorker.controller !== null), WAIT).toBe(true);
    link.to(upgraded.port);
    await tab.evaluate(() => navigator.serviceWorker.getRegistration().then((registration) => registration.update()));
    const offer = tab.getByRole('status', { name: 'App update' });
    await offer.waitFor(WAIT);
    await tab.evaluate(() => { window.beforeUpdate = true; });
    await offer.getByRole('button', { name: 'Reload' }).click();
    await tab.waitForFunction(() => window.beforeUpdate === undefined, null, WAIT);
    await tab.getByRole('heading', { name: 'Contacts', exact: true }).waitFor(WAIT);
    await expect(offer).toHaveCount(0);
  } finally {
    link.to(hubPort);
    await upgraded.close();
    await fresh.close();
  }
});

test('signing out leaves nothing behind: OPFS, caches, IndexedDB, both storages and the service worker are gone', async () => {
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
  await expect.poll(() => keptInBrowser(), WAIT).toEqual(NOTHING_KEPT);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  await screenshot(page, '66-sign-in-keeps-data');
  await page.setViewportSize(PHONE);
  await page.getByRole('checkbox', { name: 'Shared computer' }).check();
  await screenshot(page, '66-sign-in-shared-computer-phone');
  await page.setViewportSize({ width: 1280, height: 800 });
});

test('a sign-in keeping data that the hub refuses says why and keeps nothing', async () => {
  await page.getByLabel('Email').fill(seededHub.admin.email);
  await page.getByRole('checkbox', { name: 'Shared computer' }).uncheck();
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor(WAIT);
  await expect.poll(() => keptInBrowser(), WAIT).toEqual(NOTHING_KEPT);
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
});

test('on a shared computer nothing is kept: the page talks to the hub, only the tab holds its session', async () => {
  await signInOn(page, link.url, seededHub.admin);
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveCount(0);
  // The tab's own storage (its tokens, which reminders it showed) goes with the tab; nothing outlives it.
  const kept = await keptInBrowser();
  expect({ ...kept, session: [] }).toEqual(NOTHING_KEPT);
  expect(kept.session).toContain('outpost.tokens');
  expect(await page.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length)).toBe(0);
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
  expect(await keptInBrowser()).toEqual(NOTHING_KEPT);
});

test('on a phone, an edit made offline survives closing the browser and reaches the hub once it is back', async () => {
  const profile = mkdtempSync(join(tmpdir(), 'outpost-browser-replica-'));
  const open = () => chromium.launchPersistentContext(profile, { ...test.info().project.use.launchOptions, viewport: PHONE });
  try {
    let phone = await open();
    let tab = phone.pages()[0] ?? (await phone.newPage());
    await tab.goto(link.url);
    await tab.getByLabel('Email').fill(seededHub.admin.email);
    await tab.getByLabel('Password').fill(seededHub.admin.password);
    await tab.getByRole('button', { name: 'Sign in' }).click();
    await tab.getByRole('heading', { name: 'Today', exact: true }).waitFor(WAIT);
    await expect(syncStatus(tab)).toHaveText('Up to date', WAIT);
    await tab.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
    await tab.goto(`${link.url}/contacts/${contactId}`);
    await tab.getByRole('heading', { name: `Olive Offline ${MARK}` }).waitFor(WAIT);

    await link.cut();
    await expect(syncStatus(tab)).toHaveText(/^Offline/, WAIT);
    await tab.getByRole('link', { name: 'Edit' }).click();
    await tab.getByLabel('Title').fill(`Keeper ${MARK}`);
    await tab.getByRole('button', { name: 'Save' }).click();
    await tab.getByText(`Keeper ${MARK}`).first().waitFor();
    await expect(syncStatus(tab)).toHaveText('Offline · 1 pending', WAIT);
    await phone.close();

    // Opened again, still without the hub: the edit is there, still waiting.
    phone = await open();
    tab = phone.pages()[0] ?? (await phone.newPage());
    await tab.goto(`${link.url}/contacts/${contactId}`);
    await tab.getByRole('heading', { name: `Olive Offline ${MARK}` }).waitFor(WAIT);
    await expect(tab.getByText(`Keeper ${MARK}`).first()).toBeVisible();
    await expect(syncStatus(tab)).toHaveText('Offline · 1 pending', WAIT);
    await screenshot(tab, '65-browser-replica-phone-reopened-offline');

    await link.heal();
    await expect(syncStatus(tab)).toHaveText('Up to date', WAIT);
    const onHub = await hub('GET', `/v2/contacts/${contactId}`);
    expect(onHub.body.data.title).toBe(`Keeper ${MARK}`);
    await phone.close();
  } finally {
    await link.heal();
    rmSync(profile, { recursive: true, force: true });
  }
});

/**
 * The agent signs in keeping data in a new tab; once `end` has ended their session on the hub, that tab is signed
 * out at its next contact with the hub and keeps nothing. `undo` gives the worker's other specs their agent back.
 */
async function sessionEndedByHub(end, undo) {
  const agent = (await hub('GET', `/v2/users?email=${encodeURIComponent(seededHub.agent.email)}`)).body.items[0].data;
  const tab = await context.newPage();
  await signInOn(tab, link.url, seededHub.agent, { keepData: true });
  await expect(syncStatus(tab)).toHaveText('Up to date', WAIT);
  try {
    expect((await end(agent)).status).toBe(200);
    // The next sync finds its token refused and the renewal too: the page goes back to sign-in, nothing kept.
    await tab.getByRole('button', { name: 'Sign in' }).waitFor(WAIT);
    await expect.poll(() => keptInBrowser(tab), WAIT).toEqual(NOTHING_KEPT);
  } finally {
    await undo(agent);
  }
}

test('a session the hub ends (the person deactivated) is signed out at the next contact, its data removed', () => sessionEndedByHub(
  (agent) => hub('PUT', `/v2/users/${agent.id}`, { status: 'inactive' }),
  (agent) => hub('PUT', `/v2/users/${agent.id}`, { status: 'active' }),
));

// The person stays active; their tokens, this browser's included, are revoked with the new password.
test('a token the hub revokes (an admin sets a new password) ends the session at the next contact, its data removed', () => sessionEndedByHub(
  (agent) => hub('PUT', `/v2/users/${agent.id}`, { password: `${seededHub.agent.password}-reset` }),
  (agent) => hub('PUT', `/v2/users/${agent.id}`, { password: seededHub.agent.password }),
));
