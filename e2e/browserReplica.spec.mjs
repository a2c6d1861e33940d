// The hub's web page as a replica: signed in without "Shared computer", the
// browser keeps the rep's data in its engine worker (SQLite in WebAssembly
// over OPFS) and syncs it with the hub like a desktop replica. The page is
// opened through a link to the hub the spec cuts (connection refused) and
// heals: the browser is never told it is offline, the hub just stops answering.
import { expect, test } from './fixtures.mjs';
import { cuttableLink } from './cuttableLink.mjs';
import { hubClient } from './ownHub.mjs';
import { closeContexts, screenshot, signInOn } from './browser.mjs';

// One story on one page (signed in, offline, back), in order.
test.describe.configure({ mode: 'serial' });

const WAIT = { timeout: 30_000 };
const LIVE = { timeout: 5_000 };
const MARK = `Br${Date.now().toString(36)}`;

let browser;
let seededHub;
let link;
let context;
let page;
let hub;
let contactId;

/** A token of the hub's admin, for the spec's own calls to the hub (never through the link). */
async function hubToken(url, { email, password }) {
  const response = await fetch(`${url}/oauth2/token`, {
    method: 'POST',
    headers: { Authorization: `Basic ${Buffer.from('outpost-app:').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  return (await response.json()).access_token;
}

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
  hub = hubClient(seededHub.url, await hubToken(seededHub.url, seededHub.admin));
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
  // The tokens stay in the worker: the page keeps only the note that this browser holds data.
  expect(kept.session).toEqual([]);
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
