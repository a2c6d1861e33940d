// The browser's first sync of a hub big enough for its end to run on two threads
// (replica/bulkLoad.ts, db/sqlThreads.web.ts): the engine worker builds the
// secondary indexes and the smaller search indexes while a helper worker builds
// the contacts' search index from a copy of the database, which the engine then
// copies in. What it builds must answer exactly as the hub's own indexes do, and
// keep itself current afterwards.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from './fixtures.mjs';
import { hubClient, passwordToken, serveHub, stop } from './ownHub.mjs';
import { closeContexts, signInOn } from './browser.mjs';
import { askEngine, askingTheEngine } from '../test/support/engineWorkerPage.mjs';

test.describe.configure({ mode: 'serial' });

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));
const ADMIN = { email: 'first-sync@example.com', password: 'first-sync-password' };
/** Above PARALLEL_FINISH_ROWS (5 000 rows written) with the contacts alone. */
const CONTACTS = 6000;
const WAIT = { timeout: 60_000 };
const FIRST_SYNC_LINE = /\[outpost engine\] replica: first sync of (\d+) records in [\d.]+ s: (.*)$/;

let dir;
let served;
let hub;
let page;
let firstSyncLine;

/** A request to the browser's engine, posted as the app posts it (its query apart): `{ status, body }`. */
function local(method, pathAndQuery, data) {
  const url = new URL(pathAndQuery, 'http://engine');
  return askEngine(page, { method, path: url.pathname, query: Object.fromEntries(url.searchParams), body: data === undefined ? undefined : { data } });
}
const ids = (body) => body.items.map((item) => item.data.id).sort((a, b) => a - b);

test.beforeAll(async ({ browser }) => {
  dir = mkdtempSync(join(tmpdir(), 'outpost-e2e-first-sync-'));
  served = await serveHub(0, dir, ADMIN);
  execFileSync(process.execPath, [CLI, 'seed', '--contacts', String(CONTACTS), '--data-dir', dir], { stdio: 'ignore' });
  hub = hubClient(served.url, await passwordToken(served.url, ADMIN));
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(askingTheEngine);
  page = await context.newPage();
  page.on('console', (message) => {
    firstSyncLine ??= FIRST_SYNC_LINE.exec(message.text())?.[2];
  });
  await signInOn(page, served.url, ADMIN, { keepData: true });
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText('Up to date', WAIT);
});

test.afterAll(async ({ browser }) => {
  await closeContexts(browser);
  await stop(served?.child);
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test('ends on two threads: the contacts\' search index built by a helper worker, the rest by the engine', async () => {
  await expect.poll(() => firstSyncLine, WAIT).toBeDefined();
  expect(firstSyncLine).toMatch(/secondary indexes [\d.]+ s here \(with the other search indexes\) beside search indexes [\d.]+ s on a helper worker \(the contacts'\), then their copy [\d.]+ s with its commit/);
});

test('the indexes it built find what the hub\'s find: names, a part of a name, a phone\'s last digits, leads, deals, tasks and notes', async () => {
  const contact = (await hub('GET', '/v2/contacts?per_page=1&sort_by=id:desc')).body.items[0].data;
  const lead = (await hub('GET', '/v2/leads?per_page=1')).body.items[0].data;
  const deal = (await hub('GET', '/v2/deals?per_page=1')).body.items[0].data;
  const task = (await hub('GET', '/v2/tasks?per_page=1')).body.items[0].data;
  const note = (await hub('GET', '/v2/notes?per_page=1')).body.items[0].data;
  const phone = (contact.phone ?? contact.mobile).replace(/\D/g, '');
  const word = (text) => text.split(/\s+/).find((w) => /^\p{L}{4,}$/u.test(w));
  const searches = [
    `/v2/search?q=${encodeURIComponent(contact.last_name)}&per_page=25`,
    `/v2/search?q=${encodeURIComponent(contact.last_name.slice(1, 5))}&per_page=25`,
    `/v2/search?q=${phone.slice(-7)}&per_page=25`,
    `/v2/search?q=${encodeURIComponent(lead.last_name)}&per_page=25`,
    `/v2/search?q=${encodeURIComponent(word(deal.name))}&per_page=25`,
    `/v2/tasks?q=${encodeURIComponent(word(task.content))}&per_page=100`,
    `/v2/notes?q=${encodeURIComponent(word(note.content))}&per_page=100`,
  ];
  for (const path of searches) {
    const [onHub, inBrowser] = [await hub('GET', path), await local('GET', path)];
    expect(onHub.status, path).toBe(200);
    expect(inBrowser.status, path).toBe(200);
    expect(ids(onHub.body).length, path).toBeGreaterThan(0);
    expect(ids(inBrowser.body), path).toEqual(ids(onHub.body));
  }
  expect(ids((await local('GET', `/v2/search?q=${phone.slice(-7)}&per_page=25`)).body)).toContain(contact.id);
});

test('the search indexes keep themselves current after it: a contact renamed is found by its new name only', async () => {
  const contact = (await local('GET', '/v2/contacts?per_page=1&sort_by=id:asc&is_organization=true')).body.items[0].data;
  const word = contact.name;
  expect(ids((await local('GET', `/v2/search?q=${encodeURIComponent(word)}&per_page=25`)).body)).toContain(contact.id);
  const renamed = `Quorvath${Date.now().toString(36)}`;
  expect((await local('PUT', `/v2/contacts/${contact.id}`, { name: renamed })).status).toBe(200);
  expect(ids((await local('GET', `/v2/search?q=${renamed}&per_page=25`)).body)).toEqual([contact.id]);
  expect(ids((await local('GET', `/v2/search?q=${encodeURIComponent(word)}&per_page=25`)).body)).not.toContain(contact.id);
});
