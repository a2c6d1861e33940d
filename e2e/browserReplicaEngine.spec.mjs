// The replica's own rules, run by the browser's engine worker: the scenarios of
// test/replica/fieldMerge.test.ts and replica.test.ts (which run the engine in
// Node, on better-sqlite3 and on SQLite in WebAssembly), here on the engine the
// page starts in its worker, over OPFS, syncing with a real hub through a link
// the spec cuts (connection refused). The spec asks the worker as the app asks
// it (a posted `request`, what the app's WorkerBridge sends), not through the
// screens: what is under test is the engine's sync, not the forms.
import { expect, test } from './fixtures.mjs';
import { cuttableLink } from './cuttableLink.mjs';
import { hubClient, passwordToken } from './ownHub.mjs';
import { closeContexts, signInOn } from './browser.mjs';
import { askEngine, askingTheEngine } from '../test/support/engineWorkerPage.mjs';

test.describe.configure({ mode: 'serial' });

const WAIT = { timeout: 30_000 };
const MARK = `Bw${Date.now().toString(36)}`;

let link;
let context;
let page;
let hub;
let seededHubUrl;

/** A request to the browser's engine, posted as the app posts it: `{ status, body }`. */
const local = (method, path, data, query) => askEngine(page, { method, path, query, body: data === undefined ? undefined : { data } });

/** Syncs the browser's engine now (the app's "Sync now"): its status after. */
const sync = async () => (await local('POST', '/v2/replica/sync')).body.data;

/** A contact made on the hub and synced into the browser. */
async function contactOnBoth(data) {
  const made = await hub('POST', '/v2/contacts', data);
  expect(made.status).toBe(200);
  await expect.poll(async () => (await sync(), (await local('GET', `/v2/contacts/${made.body.data.id}`)).status), WAIT).toBe(200);
  return made.body.data.id;
}

test.beforeAll(async ({ browser, seededHub }) => {
  link = await cuttableLink(new URL(seededHub.url).port);
  seededHubUrl = seededHub.url;
  hub = hubClient(seededHub.url, await passwordToken(seededHub.url, seededHub.admin));
  context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript(askingTheEngine);
  page = await context.newPage();
  await signInOn(page, link.url, seededHub.admin, { keepData: true });
  await expect(page.getByRole('status', { name: 'Sync status' })).toHaveText('Up to date', WAIT);
});

test.afterAll(async ({ browser }) => {
  await closeContexts(browser);
  await link?.close();
});

test('an offline edit and a colleague\'s edit of one record merge field by field', async () => {
  const id = await contactOnBoth({ last_name: `Okafor ${MARK}`, email: 'old@example.com', phone: '111' });
  await link.cut();
  expect((await hub('PUT', `/v2/contacts/${id}`, { email: 'new@example.com' })).status).toBe(200);
  // The edit form as it was: every field, the email as the rep last saw it.
  const saved = await local('PUT', `/v2/contacts/${id}`, { last_name: `Okafor ${MARK}`, email: 'old@example.com', phone: '222' });
  expect(saved.status).toBe(200);
  expect(await sync()).toMatchObject({ state: 'offline', pending: 1 });
  await link.heal();
  await expect.poll(async () => (await sync()).state, WAIT).toBe('up_to_date');
  expect((await hub('GET', `/v2/contacts/${id}`)).body.data).toMatchObject({ email: 'new@example.com', phone: '222' });
  expect((await local('GET', `/v2/contacts/${id}`)).body.data).toMatchObject({ email: 'new@example.com', phone: '222' });
});

test('a field changed on both sides is a conflict until the rep chooses; keeping the rep\'s value or typing a third is sent', async () => {
  const id = await contactOnBoth({ last_name: `Lindqvist ${MARK}`, title: 'Buyer', description: 'x' });
  await link.cut();
  await hub('PUT', `/v2/contacts/${id}`, { title: 'Head of purchasing', description: 'hub' });
  await local('PUT', `/v2/contacts/${id}`, { title: 'Chief buyer', description: 'rep' });
  await link.heal();
  await expect.poll(async () => (await sync()).conflicts, WAIT).toBe(2);
  // The hub kept its values; the browser shows the hub's state and lists both conflicts with both sides.
  expect((await local('GET', `/v2/contacts/${id}`)).body.data).toMatchObject({ title: 'Head of purchasing', description: 'hub' });
  const listed = await local('GET', '/v2/replica/conflicts', undefined, { resource_type: 'contact', record_id: id });
  const byField = Object.fromEntries(listed.body.items.map((item) => [item.data.field, item.data]));
  expect(byField.title).toMatchObject({ yours: { value: 'Chief buyer' }, theirs: { value: 'Head of purchasing' } });
  expect(byField.description).toMatchObject({ yours: { value: 'rep' }, theirs: { value: 'hub' } });

  expect((await local('POST', `/v2/replica/conflicts/${byField.title.id}/resolve`, { keep: 'yours' })).status).toBe(200);
  expect((await local('POST', `/v2/replica/conflicts/${byField.description.id}/resolve`, { value: 'both' })).status).toBe(200);
  // A choice that is neither side nor a value is refused in the error envelope.
  const refused = await local('POST', `/v2/replica/conflicts/${byField.title.id}/resolve`, { keep: 'mine' });
  expect(refused.status).toBeGreaterThanOrEqual(400);
  expect(refused.body.errors.length).toBeGreaterThan(0);
  await expect.poll(async () => (await sync()).conflicts, WAIT).toBe(0);
  expect((await hub('GET', `/v2/contacts/${id}`)).body.data).toMatchObject({ title: 'Chief buyer', description: 'both' });
});

test('records made offline referring to each other (a task, a note, a call) reach the hub with the hub\'s ids', async () => {
  await link.cut();
  const contact = await local('POST', '/v2/contacts', { first_name: 'Ines', last_name: `Offline ${MARK}` });
  expect(contact.status).toBe(200);
  const tempId = contact.body.data.id;
  expect(tempId).toBeLessThan(0);
  const task = await local('POST', '/v2/tasks', { content: `Call Ines ${MARK}`, resource_type: 'contact', resource_id: tempId });
  const note = await local('POST', '/v2/notes', { content: `Met Ines ${MARK}`, resource_type: 'contact', resource_id: tempId });
  const call = await local('POST', '/v2/calls', { phone_number: '+44 20 7946 0018', summary: `Rang Ines ${MARK}`, duration: 95, resource_type: 'contact', resource_id: tempId });
  expect([task.status, note.status, call.status]).toEqual([200, 200, 200]);
  expect(await sync()).toMatchObject({ state: 'offline', pending: 4 });
  await link.heal();
  await expect.poll(async () => (await sync()).pending, WAIT).toBe(0);

  const mapped = await local('GET', `/v2/replica/ids/contact/${tempId}`);
  expect(mapped.status).toBe(200);
  const hubId = mapped.body.data.hub_id;
  expect((await hub('GET', `/v2/contacts/${hubId}`)).body.data).toMatchObject({ first_name: 'Ines', last_name: `Offline ${MARK}` });
  const tasks = await hub('GET', `/v2/tasks?resource_type=contact&resource_id=${hubId}`);
  const notes = await hub('GET', `/v2/notes?resource_type=contact&resource_id=${hubId}`);
  expect(tasks.body.items.map((item) => item.data.content)).toEqual([`Call Ines ${MARK}`]);
  expect(notes.body.items.map((item) => item.data.content)).toEqual([`Met Ines ${MARK}`]);
  const calls = await hub('GET', `/v2/calls?resource_type=contact&resource_id=${hubId}`);
  expect(calls.body.items.map((item) => [item.data.summary, item.data.duration])).toEqual([[`Rang Ines ${MARK}`, 95]]);
  // The browser holds them under the hub's ids now.
  expect((await local('GET', `/v2/contacts/${hubId}`)).body.data.last_name).toBe(`Offline ${MARK}`);
});

test('a delete made offline reaches the hub; an edit of a record the hub deleted becomes a sync issue', async () => {
  const gone = await contactOnBoth({ last_name: `Leaving ${MARK}` });
  const edited = await contactOnBoth({ last_name: `Edited ${MARK}`, title: 'Old' });
  await link.cut();
  expect((await local('DELETE', `/v2/contacts/${gone}`)).status).toBe(204);
  expect((await hub('DELETE', `/v2/contacts/${edited}`)).status).toBe(204);
  expect((await local('PUT', `/v2/contacts/${edited}`, { title: 'New' })).status).toBe(200);
  await link.heal();
  await expect.poll(async () => (await sync()).pending, WAIT).toBe(0);
  expect((await hub('GET', `/v2/contacts/${gone}`)).status).toBe(404);
  const issues = await local('GET', '/v2/replica/issues');
  const issue = issues.body.items.map((item) => item.data).find((data) => data.record_id === edited);
  expect(issue).toBeTruthy();
  expect(issue.resource_type).toBe('contact');
});

test('what only the hub makes (converting a lead, a file) goes to the hub from the page, and offline is refused saying so', async () => {
  const lead = await hub('POST', '/v2/leads', { first_name: 'Noor', last_name: `Haddad ${MARK}` });
  await expect.poll(async () => (await sync(), (await local('GET', `/v2/leads/${lead.body.data.id}`)).status), WAIT).toBe(200);
  const converted = await local('POST', '/v2/lead_conversions', { lead_id: lead.body.data.id });
  expect(converted.status, JSON.stringify(converted.body)).toBe(200);
  // What the hub made is in the browser at once, for the screen that follows.
  const individual = converted.body.data.individual_id;
  expect((await local('GET', `/v2/contacts/${individual}`)).body.data.last_name).toBe(`Haddad ${MARK}`);
  // A file goes as it came (the app's upload: its bytes, not JSON).
  const uploaded = await page.evaluate((contactId) => window.__outpostAsk({
    call: 'request',
    request: { method: 'POST', path: '/v2/documents', query: { resource_type: 'contact', resource_id: contactId, name: 'brief.txt' }, upload: { contentType: 'text/plain', bytes: new TextEncoder().encode('héllo, hub').buffer } },
  }), individual);
  expect(uploaded.status, JSON.stringify(uploaded.body)).toBe(200);
  const download = new URL((await hub('GET', `/v2/documents/${uploaded.body.data.id}`)).body.data.download_url);
  expect(await (await fetch(`${seededHubUrl}${download.pathname}${download.search}`)).text()).toBe('héllo, hub');
  // What a replica does not copy is read from the hub (the settings' OAuth applications). Removed again at once:
  // this worker's hub is shared with oauthClients.spec.mjs, which starts from none.
  const app = await hub('POST', '/v2/oauth_clients', { name: `Planner ${MARK}`, redirect_uri: 'https://planner.example.com/callback' });
  try {
    expect((await local('GET', '/v2/oauth_clients')).body.items.map((item) => item.data.client_id)).toContain(app.body.data.client_id);
  } finally {
    expect((await hub('DELETE', `/v2/oauth_clients/${app.body.data.client_id}`)).status).toBe(204);
  }
  await link.cut();
  const refused = await local('POST', '/v2/contact/custom_fields', { name: `Segment ${MARK}`, type: 'string' });
  expect(refused.status).toBe(503);
  expect(refused.body.errors[0].error.message).toMatch(/made on the hub, which cannot be reached now/);
  await link.heal();
});
