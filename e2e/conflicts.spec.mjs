// Sync conflicts in the browser: a field changed on a replica while it could not
// reach the hub, and by a colleague on the hub meanwhile, shows as a conflict
// on the record's page and in Sync issues, where the rep keeps theirs, keeps
// the hub's, or types another value; a change to a record someone deleted on
// the hub can bring the record back. The spec runs a hub of its own and a
// replica (`outpost serve --upstream`) that reaches it through a small TCP
// proxy (cuttableLink.mjs), which the spec cuts (connection refused) and
// heals. The suite's main hub is only used to check that a plain
// hub shows no conflicts and never asks for them.
import { expect, test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hubClient, ownHubDatabase, serveHub, serveReplica, stopAll, syncToken, syncUntil } from './ownHub.mjs';
import { cuttableLink } from './cuttableLink.mjs';
import { pageApi, screenshot, signInAt, closeContexts, signInOn, settled } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));
const ADMIN = { email: 'conflict-admin@example.com', password: 'conflict-e2e-password' };
const COLLEAGUE = { email: 'bea@example.com', name: 'Bea Hubside', password: 'conflict-e2e-colleague' };
const WAIT = { timeout: 20_000 };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const PANEL = /changed both here and on the hub/;

let browser;
let seededHub;
let hubDir;
let replicaDir;
let hub;
let replica;
let link;
let adminToken;
let colleagueToken;

/** The hub's REST API, as the colleague (Bea) unless a fourth argument names another token. */
const hubApi = hubClient(() => hub.url, () => colleagueToken);

const tokenOf = (email) => syncToken(hubDir, email, hubDatabase.args);

/** The hub's database: its data folder's SQLite file, or in the suite's PostgreSQL run a database of its own there. */
let hubDatabase;

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  hubDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-conflict-hub-'));
  replicaDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-conflict-replica-'));
  hubDatabase = await ownHubDatabase('conflicts', seededHub.postgresCluster);
  console.log(`conflicts spec: its own hub runs on ${hubDatabase.args.length > 0 ? 'PostgreSQL' : 'SQLite'}`);
  hub = await serveHub(0, hubDir, ADMIN, hubDatabase.args);
  execFileSync(process.execPath, [CLI, 'users', 'add', '--email', COLLEAGUE.email, '--name', COLLEAGUE.name, '--role', 'admin', '--password', COLLEAGUE.password, '--data-dir', hubDir, ...hubDatabase.args], { stdio: 'ignore' });
  adminToken = tokenOf(ADMIN.email);
  colleagueToken = tokenOf(COLLEAGUE.email);
  link = await cuttableLink(new URL(hub.url).port);
  replica = await serveReplica(link.url, adminToken, replicaDir);
});

test.afterAll(async () => {
  await closeContexts(browser);
  await link?.close();
  await stopAll();
  await hubDatabase?.drop();
  for (const dir of [hubDir, replicaDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** How far the page, and the screen inside the shell, scroll sideways: 0 when everything fits the width. */
function sidewaysOverflow(page) {
  return page.evaluate(() => {
    const main = document.querySelector('main.content');
    return { page: document.documentElement.scrollWidth - window.innerWidth, screen: main ? main.scrollWidth - main.clientWidth : 0 };
  });
}

/**
 * Screenshots at 1280 and 390 px (`<name>` and `<name>-phone`), each checked
 * for sideways scrolling; with `below`, one more on the phone scrolled down to it (`<name>-phone-below`).
 */
async function bothWidths(page, name, below = null) {
  await page.setViewportSize(DESKTOP);
  await settled(page);
  assert.deepEqual(await sidewaysOverflow(page), { page: 0, screen: 0 }, `${name} at 1280 px scrolls sideways`);
  await screenshot(page, name);
  await page.setViewportSize(PHONE);
  await settled(page);
  assert.deepEqual(await sidewaysOverflow(page), { page: 0, screen: 0 }, `${name} at 390 px scrolls sideways`);
  await screenshot(page, `${name}-phone`);
  if (below) {
    await below.scrollIntoViewIfNeeded();
    await screenshot(page, `${name}-phone-below`);
  }
  await page.setViewportSize(DESKTOP);
}

test.describe('the main hub', () => {
  test('shows no conflict panel on a record page and never asks for conflicts', async ({ page }) => {
    const asked = [];
    page.on('request', (request) => {
      if (new URL(request.url()).pathname.startsWith('/v2/replica/conflicts')) asked.push(request.url());
    });
    // A fake clock, run ahead once the record is open: whatever the page would ask later, it has asked by then.
    await page.clock.install();
    await signInOn(page, seededHub.url, seededHub.admin);
    const contact = page.getByTestId('contact-scroller').getByRole('link').first();
    await contact.waitFor(WAIT);
    await contact.click();
    await page.getByRole('link', { name: 'Edit' }).waitFor(WAIT);
    await page.clock.runFor(10_000);
    assert.equal(await page.getByRole('region', { name: PANEL }).count(), 0);
    assert.equal(await page.getByRole('link', { name: /conflict/ }).count(), 0);
    assert.deepEqual(asked, [], 'a plain hub is never asked for conflicts');
  });
});

test.describe('a replica whose link to the hub is cut', () => {
  let page;
  let status;

  /** A contact made on the hub, once the replica has it too. */
  async function contactOnBoth(data) {
    const made = await hubApi('POST', '/v2/contacts', data, adminToken);
    assert.equal(made.status, 200);
    const id = made.body.data.id;
    await expect.poll(async () => (await pageApi(page, 'GET', `/v2/contacts/${id}`)).status, { message: 'the contact reached the replica', ...WAIT }).toBe(200);
    return id;
  }

  /** Cuts the link and waits until the replica says it is offline. */
  async function cutLink() {
    await link.cut();
    await syncUntil(page, 'Offline');
  }

  /** The contact's edit form on the replica: fills the fields given (by label) and saves. */
  async function editInForm(id, name, fields) {
    await page.goto(`${replica.url}/contacts/${id}`);
    await page.getByRole('heading', { name }).waitFor(WAIT);
    await page.getByRole('link', { name: 'Edit' }).click();
    for (const [label, value] of Object.entries(fields)) await page.getByLabel(label, { exact: true }).fill(value);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name }).waitFor(WAIT);
  }

  /** A value in the contact's details (not in the conflict panel). */
  const detail = (value) => page.getByLabel('Details', { exact: true }).getByRole('definition').filter({ hasText: value });
  const panel = () => page.getByRole('region', { name: PANEL });

  test.beforeAll(async () => {
    page = await signInAt(browser, replica.url, ADMIN);
    status = page.getByRole('status', { name: 'Sync status' });
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
  });
  test.afterAll(() => page?.context().close());

  test('shows the title changed on both sides on the contact page, and keeps mine', async () => {
    const id = await contactOnBoth({ first_name: 'Cleo', last_name: 'Conflict', title: 'Buyer', email: 'cleo@example.com' });
    await cutLink();
    // The rep, offline, retitles the contact in the edit form…
    await editInForm(id, 'Cleo Conflict', { Title: 'Chief buyer' });
    await detail('Chief buyer').waitFor(WAIT);
    // …while a colleague retitles it on the hub.
    assert.equal((await hubApi('PUT', `/v2/contacts/${id}`, { title: 'Head of purchasing' })).status, 200);

    await link.heal();
    const attention = page.getByRole('link', { name: '1 conflict' });
    await syncUntil(page, attention);
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);

    // The page shows the hub's value, and the panel both, with who changed the hub's.
    const conflict = panel().getByRole('listitem', { name: 'Title' });
    await conflict.waitFor(WAIT);
    await detail('Head of purchasing').waitFor(WAIT);
    // Who changed the hub's value: the colleague's name, once read (users are synced).
    await conflict.filter({ hasText: COLLEAGUE.name }).waitFor(WAIT);
    const text = await conflict.textContent();
    assert.match(text, /Yours.*Chief buyer.*Changed on this device/);
    assert.match(text, /Theirs.*Head of purchasing.*Changed by Bea Hubside on the hub/);
    await bothWidths(page, '60-conflict-contact-page');

    await conflict.getByRole('button', { name: 'Keep mine' }).click();
    await panel().waitFor({ state: 'detached', ...WAIT });
    await detail('Chief buyer').waitFor(WAIT);
    await syncUntil(page, 'Up to date');
    await attention.waitFor({ state: 'detached', ...WAIT });
    assert.equal((await hubApi('GET', `/v2/contacts/${id}`)).body.data.title, 'Chief buyer', 'the hub took the rep\'s title');
    assert.equal((await pageApi(page, 'GET', `/v2/contacts/${id}`)).body.data.title, 'Chief buyer');
    await screenshot(page, '61-conflict-kept-mine');
  });

  test('takes another value for one field (a refused one said by its input) and keeps the hub\'s for another', async () => {
    const id = await contactOnBoth({ first_name: 'Milo', last_name: 'Moreau', title: 'Clerk', email: 'milo@old.example.com' });
    await cutLink();
    // A long address without a space: it wraps in the panel, on a phone too.
    await editInForm(id, 'Milo Moreau', { Title: 'Rep title', Email: 'milo.moreau.regional.purchasing.department@rep.example.com' });
    assert.equal((await hubApi('PUT', `/v2/contacts/${id}`, { title: 'Hub title', email: 'milo@hub.example.com' })).status, 200);
    await link.heal();
    await syncUntil(page, page.getByRole('link', { name: '2 conflicts' }));

    await panel().getByRole('heading', { name: '2 fields were changed both here and on the hub' }).waitFor(WAIT);
    const title = panel().getByRole('listitem', { name: 'Title' });
    const email = panel().getByRole('listitem', { name: 'Email' });
    await email.waitFor(WAIT);
    assert.match(await email.textContent(), /milo\.moreau\.regional\.purchasing\.department@rep\.example\.com.*milo@hub\.example\.com/);

    // Another value: the input starts with the rep's; one the field does not take is refused, in words, by the input.
    await title.getByRole('button', { name: 'Use another value' }).click();
    const input = title.getByLabel('Another value for Title');
    assert.equal(await input.inputValue(), 'Rep title');
    await input.fill('T'.repeat(300));
    await title.getByRole('button', { name: 'Use this value' }).click();
    const refused = title.getByRole('alert');
    await refused.waitFor(WAIT);
    assert.match(await refused.textContent(), /^The title is too long: at most \d+ characters\.$/);
    await bothWidths(page, '62-conflict-other-value-refused', email);
    await input.fill('Agreed title');
    await title.getByRole('button', { name: 'Use this value' }).click();
    await title.waitFor({ state: 'detached', ...WAIT });
    await detail('Agreed title').waitFor(WAIT);

    await email.getByRole('button', { name: 'Keep theirs' }).click();
    await panel().waitFor({ state: 'detached', ...WAIT });
    await syncUntil(page, 'Up to date');
    await page.getByRole('link', { name: /conflict/ }).waitFor({ state: 'detached', ...WAIT });
    const onHub = (await hubApi('GET', `/v2/contacts/${id}`)).body.data;
    assert.deepEqual([onHub.title, onHub.email], ['Agreed title', 'milo@hub.example.com']);
    const onReplica = (await pageApi(page, 'GET', `/v2/contacts/${id}`)).body.data;
    assert.deepEqual([onReplica.title, onReplica.email], ['Agreed title', 'milo@hub.example.com']);
    await detail('milo@hub.example.com').waitFor(WAIT);
  });

  test('shows conflicts on a lead\'s and a deal\'s pages in their forms\' words', async () => {
    const address = (city) => ({ line1: '1 Rue Haute', city, postal_code: '69001', state: null, country: 'FR' });
    const lead = (await hubApi('POST', '/v2/leads', { first_name: 'Lea', last_name: 'Lead', address: address('Lyon') }, adminToken)).body.data;
    const buyer = (await hubApi('POST', '/v2/contacts', { first_name: 'Dan', last_name: 'Dealer' }, adminToken)).body.data;
    const deal = (await hubApi('POST', '/v2/deals', { name: 'Fleet renewal', contact_id: buyer.id, value: '1200', estimated_close_date: '2027-01-15' }, adminToken)).body.data;
    assert.ok(lead?.id && deal?.id, 'the hub made the lead and the deal');
    const onReplica = async () => [(await pageApi(page, 'GET', `/v2/deals/${deal.id}`)).status, (await pageApi(page, 'GET', `/v2/leads/${lead.id}`)).status];
    await expect.poll(onReplica, { message: 'the lead and the deal reached the replica', ...WAIT }).toEqual([200, 200]);
    await cutLink();
    assert.equal((await pageApi(page, 'PUT', `/v2/leads/${lead.id}`, { address: address('Villeurbanne') })).status, 200);
    assert.equal((await pageApi(page, 'PUT', `/v2/deals/${deal.id}`, { name: 'Fleet renewal, 40 vans', value: '1500', estimated_close_date: '2027-02-01' })).status, 200);
    assert.equal((await hubApi('PUT', `/v2/leads/${lead.id}`, { address: address('Marseille') })).status, 200);
    assert.equal((await hubApi('PUT', `/v2/deals/${deal.id}`, { name: 'Fleet renewal (signed)', value: '1350', estimated_close_date: '2027-03-01' })).status, 200);
    await link.heal();
    await syncUntil(page, page.getByRole('link', { name: '4 conflicts' }));

    await page.goto(`${replica.url}/leads/${lead.id}`);
    const city = panel().getByRole('listitem', { name: 'Address: City' });
    await city.waitFor(WAIT);
    await city.filter({ hasText: COLLEAGUE.name }).waitFor(WAIT);
    assert.match(await city.textContent(), /Villeurbanne.*Marseille.*Bea Hubside/);
    await city.getByRole('button', { name: 'Keep theirs' }).click();
    await panel().waitFor({ state: 'detached', ...WAIT });

    await page.goto(`${replica.url}/deals/${deal.id}`);
    await panel().getByRole('listitem', { name: 'Value' }).waitFor(WAIT);
    const closes = panel().getByRole('listitem', { name: 'Expected close date' });
    assert.match(await closes.textContent(), /Feb 1, 2027.*Mar 1, 2027/);
    assert.match(await panel().getByRole('listitem', { name: 'Name' }).textContent(), /Fleet renewal, 40 vans.*Fleet renewal \(signed\)/);
    await bothWidths(page, '65-conflict-deal-page');
    for (const name of ['Name', 'Value', 'Expected close date']) {
      await panel().getByRole('listitem', { name }).getByRole('button', { name: 'Keep mine' }).click();
      await panel().getByRole('listitem', { name }).waitFor({ state: 'detached', ...WAIT });
    }
    await panel().waitFor({ state: 'detached', ...WAIT });
    await syncUntil(page, 'Up to date');
    const onHub = (await hubApi('GET', `/v2/deals/${deal.id}`)).body.data;
    assert.deepEqual([onHub.name, onHub.value, onHub.estimated_close_date], ['Fleet renewal, 40 vans', '1500', '2027-02-01']);
    assert.equal((await hubApi('GET', `/v2/leads/${lead.id}`)).body.data.address.city, 'Marseille');
  });

  test('lists a conflict and a change to a contact deleted on the hub in Sync issues, and recreates the contact', async () => {
    const doraId = await contactOnBoth({ first_name: 'Dora', last_name: 'Deleted', title: 'Owner', email: 'dora@example.com' });
    const theoId = await contactOnBoth({ first_name: 'Theo', last_name: 'Twice', title: 'T0' });
    await cutLink();
    // Offline, the rep gives Dora a phone number and Theo a title…
    await editInForm(doraId, 'Dora Deleted', { Phone: '555-0100' });
    await editInForm(theoId, 'Theo Twice', { Title: 'Rep T' });
    // …while on the hub a colleague deletes Dora and retitles Theo.
    assert.equal((await hubApi('DELETE', `/v2/contacts/${doraId}`)).status, 204);
    assert.equal((await hubApi('PUT', `/v2/contacts/${theoId}`, { title: 'Hub T' })).status, 200);
    await link.heal();
    const attention = page.getByRole('link', { name: '1 conflict · 1 sync issue' });
    await syncUntil(page, attention);
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);

    await attention.click();
    await page.getByRole('heading', { name: 'Sync issues' }).waitFor(WAIT);
    const conflicts = page.getByRole('region', { name: /Conflicts/ });
    const theo = conflicts.getByRole('listitem', { name: 'Theo Twice' });
    await theo.waitFor(WAIT);
    assert.equal(await theo.getByRole('link', { name: 'Theo Twice' }).getAttribute('href'), `/contacts/${theoId}`);
    const field = theo.getByRole('listitem', { name: 'Title' });
    await field.filter({ hasText: COLLEAGUE.name }).waitFor(WAIT);
    assert.match(await field.textContent(), /Rep T.*Hub T.*Bea Hubside/);

    const issue = page.getByRole('listitem', { name: 'Change contact' });
    await issue.waitFor(WAIT);
    const told = await issue.textContent();
    assert.match(told, /Someone else deleted this contact on the hub/);
    assert.match(told, /What would be lost.*Dora Deleted.*Owner.*dora@example\.com/);
    assert.match(told, /Your change.*Phone.*555-0100/);
    await issue.getByRole('link', { name: 'Dora Deleted' }).waitFor(WAIT);
    await issue.getByRole('button', { name: 'Recreate it' }).waitFor();
    await bothWidths(page, '63-sync-issues-conflict-and-deleted', issue);

    // The hub's title for Theo: the conflict goes, nothing is sent.
    await field.getByRole('button', { name: 'Keep theirs' }).click();
    await conflicts.waitFor({ state: 'detached', ...WAIT });

    // Dora comes back on the hub, under a new id, as this device had her (with the phone number).
    await issue.getByRole('button', { name: 'Recreate it' }).click();
    await page.getByText('No sync issues: every change reached the hub.').waitFor(WAIT);
    await syncUntil(page, 'Up to date');
    await page.getByRole('link', { name: /sync issue|conflict/ }).waitFor({ state: 'detached', ...WAIT });
    await screenshot(page, '64-sync-issues-settled');
    const found = (await hubApi('GET', '/v2/contacts?q=Deleted')).body.items.map((i) => i.data);
    assert.equal(found.length, 1, 'the hub has Dora again');
    assert.notEqual(found[0].id, doraId);
    assert.deepEqual([found[0].title, found[0].email, found[0].phone], ['Owner', 'dora@example.com', '555-0100']);
    assert.equal((await hubApi('GET', `/v2/contacts/${theoId}`)).body.data.title, 'Hub T');
    assert.equal((await pageApi(page, 'GET', `/v2/contacts/${theoId}`)).body.data.title, 'Hub T');

    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    const dora = page.getByTestId('contact-scroller').getByRole('link', { name: 'Dora Deleted' });
    await dora.waitFor(WAIT);
    assert.equal(await dora.getAttribute('href'), `/contacts/${found[0].id}`);
  });
});
