// A rep's day on a replica's page (`outpost serve --upstream`), with the hub out of reach:
// find a contact by the digits and parts of a name they remember, reschedule and edit a task,
// correct and delete activities, hand the contact to a colleague, mark a deal lost with its
// reason. Each is an ordinary edit: queued while offline, on the hub once it is back.
// The spec runs a hub of its own (stopped and started again on the same port to play "offline").
import { expect, test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stablePort, hubClient, serveHub, serveReplica, stop, stopAll, syncToken, syncUntil } from './ownHub.mjs';
import { pageApi, screenshot, signInAt, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const CLI = fileURLToPath(new URL('../bin/outpost.mjs', import.meta.url));
const ADMIN = { email: 'day-admin@example.com', password: 'replica-day-password' };
const COLLEAGUE = { email: 'rita@example.com', name: 'Rita Colleague' };
const WAIT = { timeout: 20_000 };
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let browser;
let hubDir;
let replicaDir;
let hubPort;
let hub;
let token;
let replica;

const startHub = () => serveHub(hubPort, hubDir, ADMIN);

/** The hub's REST API as the admin (the token the replica uses too). */
const hubApi = hubClient(() => hub.url, () => token);

async function created(path, data) {
  const answer = await hubApi('POST', path, data);
  assert.equal(answer.status, 200, `POST ${path}: ${JSON.stringify(answer.body)}`);
  return answer.body.data;
}

/** A moment `days` from now at hh:mm local time (the browser and this process share the machine's zone), as the API writes it (whole seconds). */
function localAt(days, hours, minutes) {
  const at = new Date();
  at.setDate(at.getDate() + days);
  at.setHours(hours, minutes, 0, 0);
  return at.toISOString().replace('.000Z', 'Z');
}

const seeded = {};

test.beforeAll(async ({ browser: workerBrowser }) => {
  browser = workerBrowser;
  hubDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-day-hub-'));
  replicaDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-day-replica-'));
  hubPort = await stablePort();
  hub = await startHub();
  execFileSync(process.execPath, [CLI, 'users', 'add', '--email', COLLEAGUE.email, '--name', COLLEAGUE.name, '--role', 'agent', '--password', 'rita-password-1', '--data-dir', hubDir], { stdio: 'ignore' });
  // Pipelines, stages and loss reasons as a real account has them.
  execFileSync(process.execPath, [CLI, 'seed', '--contacts', '20', '--data-dir', hubDir], { stdio: 'ignore' });
  token = syncToken(hubDir, ADMIN.email);

  const contact = await created('/v2/contacts', { first_name: 'Paloma', last_name: 'Fieldwork', phone: '+44 7700 900123', mobile: '+1 (312) 847-2066' });
  seeded.contact = contact;
  seeded.task = await created('/v2/tasks', { content: 'Send Paloma the price list', due_date: localAt(-1, 14, 30), resource_type: 'contact', resource_id: contact.id });
  seeded.note = await created('/v2/notes', { content: 'Prefers mornings', resource_type: 'contact', resource_id: contact.id });
  seeded.call = await created('/v2/calls', { summary: 'Left a voicemail', made_at: localAt(-2, 11, 0), incoming: false, missed: false, duration: 30, phone_number: '+447700900123', resource_type: 'contact', resource_id: contact.id });
  const stages = (await hubApi('GET', '/v2/stages?per_page=100')).body.items.map((i) => i.data);
  const open = stages.find((s) => s.category === 'incoming' || s.category === 'in_progress');
  seeded.lost = stages.find((s) => s.category === 'lost' && s.pipeline_id === open.pipeline_id);
  seeded.deal = await created('/v2/deals', { name: 'Paloma fleet renewal', contact_id: contact.id, stage_id: open.id, value: '1200.00', currency: 'USD' });
  seeded.reasons = (await hubApi('GET', '/v2/loss_reasons?per_page=100')).body.items.map((i) => i.data);
  assert.ok(seeded.reasons.length > 0, 'the seed gives the account loss reasons');
  seeded.colleague = (await hubApi('GET', '/v2/users?per_page=100')).body.items.map((i) => i.data).find((u) => u.email === COLLEAGUE.email);

  replica = await serveReplica(hub.url, token, replicaDir);
});

test.afterAll(async () => {
  await closeContexts(browser);
  await stopAll();
  for (const dir of [hubDir, replicaDir]) if (dir) rmSync(dir, { recursive: true, force: true });
});

test.describe('a rep\'s day on a replica, offline', () => {
  let page;
  let status;

  const openContact = async () => {
    await page.goto(`${replica.url}/contacts/${seeded.contact.id}`);
    await page.getByRole('heading', { name: 'Paloma Fieldwork' }).waitFor(WAIT);
  };
  const timeline = () => page.getByRole('region', { name: 'Timeline' });

  test.beforeAll(async () => {
    page = await signInAt(browser, replica.url, ADMIN);
    status = page.getByRole('status', { name: 'Sync status' });
    await status.filter({ hasText: 'Up to date' }).waitFor(WAIT);
    // The seeded records reached the replica.
    await expect.poll(async () => (await pageApi(page, 'GET', `/v2/deals/${seeded.deal.id}`)).status, { message: 'the seeded records reached the replica', ...WAIT }).toBe(200);
    await stop(hub.child);
    await status.filter({ hasText: 'Offline' }).waitFor(WAIT);
  });
  test.afterAll(() => page?.context().close());

  test('finds the contact from its local data by the digits and the part of a name a rep types', async () => {
    const palette = async (text) => {
      await page.keyboard.press('Control+K');
      const dialog = page.getByRole('dialog', { name: /command/i });
      await dialog.waitFor(WAIT);
      await dialog.getByRole('combobox').fill(text);
      const found = dialog.getByRole('option', { name: /Paloma Fieldwork/ });
      await found.first().waitFor(WAIT);
      await page.keyboard.press('Escape');
    };
    // The mobile's last 7 digits, the landline's national number with its trunk 0, a word's middle.
    for (const text of ['8472066', '07700 900123', 'aloma']) await palette(text);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('searchbox', { name: /Search contacts/i }).fill('312 847 2066');
    await page.getByTestId('contact-scroller').getByRole('link', { name: 'Paloma Fieldwork' }).waitFor(WAIT);
    await screenshot(page, 'day-replica-found-by-digits');
  });

  test('reschedules the overdue task to tomorrow, keeping its time of day, at phone width', async () => {
    await page.setViewportSize(PHONE);
    try {
      await openContact();
      const task = timeline().getByRole('listitem').filter({ hasText: 'Send Paloma the price list' });
      await task.getByRole('button', { name: 'Reschedule' }).click();
      await page.getByRole('menuitem', { name: 'Tomorrow' }).click();
      const wanted = localAt(1, 14, 30);
      await expect.poll(async () => (await pageApi(page, 'GET', `/v2/tasks/${seeded.task.id}`)).body.data.due_date, { message: 'the replica has the task due tomorrow at 14:30' }).toBe(wanted);
      await screenshot(page, 'day-replica-rescheduled-phone');
    } finally {
      await page.setViewportSize(DESKTOP);
    }
  });

  test('corrects the note in place and stays on the page', async () => {
    await openContact();
    await timeline().getByRole('button', { name: 'Edit note' }).click();
    const form = timeline().getByRole('form', { name: 'Edit the note' });
    await form.getByLabel('Note').fill('Prefers mornings before 10');
    await form.getByRole('button', { name: 'Save' }).click();
    await timeline().getByText('Prefers mornings before 10').waitFor(WAIT);
    assert.match(new URL(page.url()).pathname, new RegExp(`/contacts/${seeded.contact.id}$`));
  });

  test('deletes the call after asking once in the app\'s dialog', async () => {
    page.once('dialog', () => assert.fail('the browser\'s own confirm box was used'));
    await timeline().getByRole('button', { name: 'Delete call' }).click();
    const dialog = page.getByRole('alertdialog').or(page.getByRole('dialog'));
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await timeline().getByText('Left a voicemail').waitFor({ state: 'detached', ...WAIT });
  });

  test('hands the contact to a colleague', async () => {
    await page.getByLabel('Owner').selectOption({ label: COLLEAGUE.name });
    await expect.poll(async () => (await pageApi(page, 'GET', `/v2/contacts/${seeded.contact.id}`)).body.data.owner_id, { message: 'the replica has the new owner' }).toBe(seeded.colleague.id);
  });

  test('marks the deal lost only with a reason', async () => {
    await page.goto(`${replica.url}/deals/${seeded.deal.id}`);
    await page.getByRole('heading', { name: 'Paloma fleet renewal' }).waitFor(WAIT);
    await page.getByLabel('Stage').selectOption({ label: seeded.lost.name });
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Reason').selectOption({ label: seeded.reasons[0].name });
    await screenshot(page, 'day-replica-lost-reason');
    await dialog.getByRole('button', { name: `Move to ${seeded.lost.name}` }).click();
    await expect.poll(async () => {
      const deal = (await pageApi(page, 'GET', `/v2/deals/${seeded.deal.id}`)).body.data;
      return { stage_id: deal.stage_id, loss_reason_id: deal.loss_reason_id };
    }, { message: 'the replica has the deal lost with its reason' }).toEqual({ stage_id: seeded.lost.id, loss_reason_id: seeded.reasons[0].id });
  });

  test('sends every change to the hub once it is back', async () => {
    await status.filter({ hasText: /pending/ }).waitFor(WAIT);
    await screenshot(page, 'day-replica-offline-pending');
    hub = await startHub();
    await syncUntil(page, 'Up to date');
    const task = (await hubApi('GET', `/v2/tasks/${seeded.task.id}`)).body.data;
    assert.equal(task.due_date, localAt(1, 14, 30));
    const note = (await hubApi('GET', `/v2/notes/${seeded.note.id}`)).body.data;
    assert.equal(note.content, 'Prefers mornings before 10');
    assert.equal((await hubApi('GET', `/v2/calls/${seeded.call.id}`)).status, 404);
    const contact = (await hubApi('GET', `/v2/contacts/${seeded.contact.id}`)).body.data;
    assert.equal(contact.owner_id, seeded.colleague.id);
    const deal = (await hubApi('GET', `/v2/deals/${seeded.deal.id}`)).body.data;
    assert.equal(deal.stage_id, seeded.lost.id);
    assert.equal(deal.loss_reason_id, seeded.reasons[0].id);
    await screenshot(page, 'day-replica-synced');
  });
});
