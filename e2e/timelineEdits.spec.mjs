// Notes, calls and visits corrected and deleted in place on a record's
// timeline, and the app's one confirmation dialog (never the browser's box).
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stablePort, hubClient, serveHub, serveReplica, stop, stopAll, syncToken, syncUntil } from './ownHub.mjs';
import { pageApi, screenshot, signIn, signInAt, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const WIDTHS = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'phone', viewport: { width: 390, height: 844 } },
];

let browser;
let seededHub;
let admin;
let agent;
// Any browser confirm/alert box fails the spec: the app asks in its own dialog.
const browserDialogs = [];

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
  agent = await signIn(browser, seededHub, 'agent');
  for (const page of [admin, agent]) noteBrowserDialogs(page);
});

function noteBrowserDialogs(page) {
  page.on('dialog', (dialog) => {
    browserDialogs.push(dialog.message());
    void dialog.dismiss();
  });
}
test.afterAll(() => closeContexts(browser));

const activity = (page) => page.getByRole('region', { name: 'Timeline' }).getByRole('listitem');
const confirmDialog = (page, name) => page.getByRole('alertdialog', { name });

async function newContact(page, lastName, data = {}) {
  const { body } = await pageApi(page, 'POST', '/v2/contacts', { last_name: lastName, ...data });
  return body.data.id;
}

async function openContact(page, id, lastName) {
  await page.goto(new URL(`/contacts/${id}`, page.url()).href);
  await page.getByRole('heading', { name: lastName }).waitFor();
}

for (const { name: width, viewport } of WIDTHS) {
  test.describe(`timeline edits at ${viewport.width} px`, () => {
    const lastName = `Timeline ${width} ${RUN}`;
    let contactId;
    const made = {};

    test.beforeAll(async () => {
      await admin.setViewportSize(viewport);
      contactId = await newContact(admin, lastName);
      const about = { resource_type: 'contact', resource_id: contactId };
      made.note = (await pageApi(admin, 'POST', '/v2/notes', { ...about, content: `Wants a quote ${width}` })).body.data.id;
      made.call = (await pageApi(admin, 'POST', '/v2/calls', { ...about, phone_number: '+1 312 847 2066', summary: `Left a voicemail ${width}` })).body.data.id;
      made.visit = (await pageApi(admin, 'POST', '/v2/visits', { ...about, summary: `Met at the depot ${width}` })).body.data.id;
      await openContact(admin, contactId, lastName);
    });

    test('edits a note in place: the page stays and the text is saved', async () => {
      const entry = activity(admin).filter({ hasText: `Wants a quote ${width}` });
      await entry.getByRole('button', { name: 'Edit note' }).click();
      // Open, the entry shows its form in place of its text.
      const form = activity(admin).getByRole('form', { name: 'Edit the note' });
      const text = form.getByRole('textbox');
      assert.equal(await text.inputValue(), `Wants a quote ${width}`);
      assert.equal(await text.evaluate((el) => el === document.activeElement), true, 'the text has the focus');
      const url = admin.url();
      await text.fill('');
      await form.getByRole('button', { name: 'Save' }).click();
      await form.getByText("Write the note before saving.").waitFor();
      await text.fill(`Wants a quote for 12 seats ${width}`);
      await form.getByText("Write the note before saving.").waitFor({ state: 'detached' });
      await screenshot(admin, `timeline-edit-note-${width}`);
      await form.getByRole('button', { name: 'Save' }).click();
      await activity(admin).filter({ hasText: `Wants a quote for 12 seats ${width}` }).getByRole('button', { name: 'Edit note' }).waitFor();
      assert.equal(admin.url(), url, 'the rep stays on the page');
      assert.equal((await pageApi(admin, 'GET', `/v2/notes/${made.note}`)).body.data.content, `Wants a quote for 12 seats ${width}`);
    });

    test('edits a call in place: summary, outcome and length', async () => {
      const entry = activity(admin).filter({ hasText: `Left a voicemail ${width}` });
      await entry.getByRole('button', { name: 'Edit call' }).click();
      const form = activity(admin).getByRole('form', { name: 'Edit the call' });
      assert.equal(await form.getByLabel('Phone number').inputValue(), '+1 312 847 2066');
      await form.getByLabel('Summary').fill(`Spoke to the buyer ${width}`);
      await form.getByLabel('Outcome').selectOption({ label: 'Interested' });
      await form.getByLabel('Length').fill('4:30');
      await screenshot(admin, `timeline-edit-call-${width}`);
      await form.getByRole('button', { name: 'Save' }).click();
      await activity(admin).filter({ hasText: `Spoke to the buyer ${width}` }).getByText('Interested · 4 min 30 s').waitFor();
      const call = (await pageApi(admin, 'GET', `/v2/calls/${made.call}`)).body.data;
      assert.deepEqual([call.summary, call.duration, call.phone_number], [`Spoke to the buyer ${width}`, 270, '+1 312 847 2066']);
    });

    test('edits a visit in place, and Cancel leaves it as it was', async () => {
      const entry = activity(admin).filter({ hasText: `Met at the depot ${width}` });
      await entry.getByRole('button', { name: 'Edit visit' }).click();
      const form = activity(admin).getByRole('form', { name: 'Edit the visit' });
      await form.getByLabel('Visit summary').fill('Not this');
      await form.getByRole('button', { name: 'Cancel' }).click();
      await form.waitFor({ state: 'detached' });
      assert.equal(await entry.getByRole('button', { name: 'Edit visit' }).evaluate((el) => el === document.activeElement), true, 'focus is back on Edit');
      assert.equal((await pageApi(admin, 'GET', `/v2/visits/${made.visit}`)).body.data.summary, `Met at the depot ${width}`);

      await entry.getByRole('button', { name: 'Edit visit' }).click();
      await form.getByLabel('Visit summary').fill(`Met the buyer at the depot ${width}`);
      await form.getByLabel('Location').selectOption('verified');
      await form.getByRole('button', { name: 'Save' }).click();
      await activity(admin).filter({ hasText: `Met the buyer at the depot ${width}` }).waitFor();
      const visit = (await pageApi(admin, 'GET', `/v2/visits/${made.visit}`)).body.data;
      assert.deepEqual([visit.summary, visit.rep_location_verification_status], [`Met the buyer at the depot ${width}`, 'verified']);
    });

    test('deletes each after asking once in the dialog; Cancel and Escape keep it', async () => {
      const checks = [
        ['note', `Wants a quote for 12 seats ${width}`, '/v2/notes'],
        ['call', `Spoke to the buyer ${width}`, '/v2/calls'],
        ['visit', `Met the buyer at the depot ${width}`, '/v2/visits'],
      ];
      for (const [kind, text, path] of checks) {
        const entry = activity(admin).filter({ hasText: text });
        const trigger = entry.getByRole('button', { name: `Delete ${kind}` });
        await trigger.click();
        const dialog = confirmDialog(admin, `Delete this ${kind}?`);
        await dialog.getByText(text).waitFor();
        if (kind === 'note') await screenshot(admin, `timeline-delete-dialog-${width}`);
        await dialog.getByRole('button', { name: 'Cancel' }).click();
        await dialog.waitFor({ state: 'detached' });
        assert.equal(await trigger.evaluate((el) => el === document.activeElement), true, 'focus returns to the button that asked');
        await trigger.click();
        await dialog.waitFor();
        await admin.keyboard.press('Escape');
        await dialog.waitFor({ state: 'detached' });
        assert.equal((await pageApi(admin, 'GET', `${path}/${made[kind]}`)).status, 200, `the ${kind} is kept`);

        await trigger.click();
        await dialog.getByRole('button', { name: 'Delete' }).click();
        await entry.waitFor({ state: 'detached' });
        assert.equal((await pageApi(admin, 'GET', `${path}/${made[kind]}`)).status, 404, `the ${kind} is gone`);
      }
      assert.deepEqual(browserDialogs, []);
    });
  });
}

test.describe('who may change an activity', () => {
  const lastName = `Shared timeline ${RUN}`;
  let contactId;

  test.beforeAll(async () => {
    await admin.setViewportSize({ width: 1280, height: 800 });
    contactId = await newContact(admin, lastName);
    const about = { resource_type: 'contact', resource_id: contactId };
    await pageApi(admin, 'POST', '/v2/notes', { ...about, content: 'The manager’s note' });
    await pageApi(agent, 'POST', '/v2/notes', { ...about, content: 'The rep’s note' });
  });

  test('the agent sees Edit and Delete on their own note only, not on the admin’s', async () => {
    await openContact(agent, contactId, lastName);
    const own = activity(agent).filter({ hasText: 'The rep’s note' });
    await own.getByRole('button', { name: 'Edit note' }).waitFor();
    await own.getByRole('button', { name: 'Delete note' }).waitFor();
    const others = activity(agent).filter({ hasText: 'The manager’s note' });
    await others.waitFor();
    assert.equal(await others.getByRole('button').count(), 0);
  });

  test('the admin sees them on the agent’s note too, and may correct it', async () => {
    await openContact(admin, contactId, lastName);
    const entry = activity(admin).filter({ hasText: 'The rep’s note' });
    await entry.getByRole('button', { name: 'Edit note' }).click();
    const form = activity(admin).getByRole('form', { name: 'Edit the note' });
    await form.getByRole('textbox').fill('The rep’s note, corrected by the manager');
    await form.getByRole('button', { name: 'Save' }).click();
    await activity(admin).filter({ hasText: 'The rep’s note, corrected by the manager' }).getByRole('button', { name: 'Delete note' }).waitFor();
  });

  test('shows the API’s refusal in words when it refuses', async () => {
    // The note goes (on another device) while the dialog asks: the API refuses, and the dialog says why.
    const { body } = await pageApi(agent, 'POST', '/v2/notes', { resource_type: 'contact', resource_id: contactId, content: 'Soon gone' });
    await openContact(agent, contactId, lastName);
    const entry = activity(agent).filter({ hasText: 'Soon gone' });
    await entry.getByRole('button', { name: 'Delete note' }).click();
    await pageApi(agent, 'DELETE', `/v2/notes/${body.data.id}`);
    const dialog = confirmDialog(agent, 'Delete this note?');
    await dialog.getByRole('button', { name: 'Delete' }).click();
    await dialog.getByRole('alert').waitFor();
    assert.match(await dialog.getByRole('alert').innerText(), /note .*not found/i);
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'detached' });
  });
});

test.describe('the Call form and the record pages', () => {
  test('pre-fills the number in the international format', async () => {
    const lastName = `Caller ${RUN}`;
    const id = await newContact(admin, lastName, { phone: '+447700900123' });
    await openContact(admin, id, lastName);
    await admin.getByRole('tab', { name: 'Call' }).click();
    assert.equal(await admin.getByRole('form', { name: 'Log a call' }).getByLabel('Phone number').inputValue(), '+44 7700 900123');
  });

  test('asks in the app’s dialog before deleting a contact, a lead or a deal', async () => {
    const contactName = `Doomed contact ${RUN}`;
    const contact = await newContact(admin, contactName);
    const lead = (await pageApi(admin, 'POST', '/v2/leads', { last_name: `Doomed lead ${RUN}` })).body.data.id;
    const deal = (await pageApi(admin, 'POST', '/v2/deals', { name: `Doomed deal ${RUN}`, contact_id: contact })).body.data.id;
    for (const [path, name, list] of [[`/deals/${deal}`, `Doomed deal ${RUN}`, '/deals'], [`/leads/${lead}`, `Doomed lead ${RUN}`, '/leads'], [`/contacts/${contact}`, contactName, '/contacts']]) {
      await admin.goto(new URL(path, admin.url()).href);
      await admin.getByRole('heading', { name }).waitFor();
      await admin.getByRole('button', { name: 'Delete', exact: true }).click();
      const dialog = confirmDialog(admin, `Delete ${name}?`);
      await dialog.getByText('This cannot be undone.').waitFor();
      if (list === '/deals') {
        await screenshot(admin, 'confirm-dialog-desktop');
        await admin.setViewportSize({ width: 390, height: 844 });
        await screenshot(admin, 'confirm-dialog-phone');
        await admin.setViewportSize({ width: 1280, height: 800 });
      }
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      assert.equal((await pageApi(admin, 'GET', `/v2${path}`)).status, 200, `${name} is kept`);
      await admin.getByRole('button', { name: 'Delete', exact: true }).click();
      await dialog.getByRole('button', { name: 'Delete' }).click();
      await admin.waitForURL((url) => url.pathname === list);
      assert.equal((await pageApi(admin, 'GET', `/v2${path}`)).status, 404, `${name} is deleted`);
    }
    assert.deepEqual(browserDialogs, [], 'no browser confirm box');
  });
});

test.describe('on a replica, offline, then synced', () => {
  const ADMIN = { email: 'timeline-replica@example.com', password: 'timeline-replica-password' };
  const WAIT = { timeout: 20_000 };
  const dirs = [];
  let hubPort;
  let hub;
  let token;
  let page;
  const made = {};
  let contactId;

  const startHub = () => serveHub(hubPort, dirs[0], ADMIN);
  const hubApi = hubClient(() => hub.url, () => token);

  test.beforeAll(async () => {
    dirs.push(mkdtempSync(join(tmpdir(), 'outpost-e2e-timeline-hub-')), mkdtempSync(join(tmpdir(), 'outpost-e2e-timeline-replica-')));
    hubPort = await stablePort();
    hub = await startHub();
    token = syncToken(dirs[0], ADMIN.email);
    contactId = (await hubApi('POST', '/v2/contacts', { last_name: `Replica timeline ${RUN}` })).body.data.id;
    const about = { resource_type: 'contact', resource_id: contactId };
    made.note = (await hubApi('POST', '/v2/notes', { ...about, content: 'Typo in the quote' })).body.data.id;
    made.call = (await hubApi('POST', '/v2/calls', { ...about, phone_number: '+44 7700 900123', summary: 'Logged by mistake' })).body.data.id;
    made.visit = (await hubApi('POST', '/v2/visits', { ...about, summary: 'Visted the site' })).body.data.id;
    const replica = await serveReplica(hub.url, token, dirs[1]);
    page = await signInAt(browser, replica.url, ADMIN);
    noteBrowserDialogs(page);
  });
  test.afterAll(async () => {
    await page?.context().close();
    await stopAll();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('edits and deletes on the replica while the hub is away, and the hub has them once it is back', async () => {
    await syncUntil(page, 'Up to date');
    await stop(hub.child);
    await page.goto(new URL(`/contacts/${contactId}`, page.url()).href);
    await activity(page).filter({ hasText: 'Typo in the quote' }).waitFor(WAIT);

    await activity(page).filter({ hasText: 'Typo in the quote' }).getByRole('button', { name: 'Edit note' }).click();
    const noteForm = activity(page).getByRole('form', { name: 'Edit the note' });
    await noteForm.getByRole('textbox').fill('The quote, corrected offline');
    await noteForm.getByRole('button', { name: 'Save' }).click();
    await activity(page).filter({ hasText: 'The quote, corrected offline' }).waitFor(WAIT);

    await activity(page).filter({ hasText: 'Visted the site' }).getByRole('button', { name: 'Edit visit' }).click();
    const visitForm = activity(page).getByRole('form', { name: 'Edit the visit' });
    await visitForm.getByLabel('Visit summary').fill('Visited the site');
    await visitForm.getByRole('button', { name: 'Save' }).click();
    await activity(page).filter({ hasText: 'Visited the site' }).waitFor(WAIT);

    const call = activity(page).filter({ hasText: 'Logged by mistake' });
    await call.getByRole('button', { name: 'Delete call' }).click();
    await confirmDialog(page, 'Delete this call?').getByRole('button', { name: 'Delete' }).click();
    await call.waitFor({ state: 'detached', ...WAIT });
    await syncUntil(page, 'Offline');
    await screenshot(page, 'timeline-replica-offline');

    hub = await startHub();
    await syncUntil(page, 'Up to date');
    assert.equal((await hubApi('GET', `/v2/notes/${made.note}`)).body.data.content, 'The quote, corrected offline');
    assert.equal((await hubApi('GET', `/v2/visits/${made.visit}`)).body.data.summary, 'Visited the site');
    assert.equal((await hubApi('GET', `/v2/calls/${made.call}`)).status, 404);
    assert.deepEqual(browserDialogs, []);
  });
});
