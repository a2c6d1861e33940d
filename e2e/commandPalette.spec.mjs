import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { screenshot, signIn, pageApi, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
let page;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
});
test.afterAll(() => closeContexts(browser));

function api(method, path, data) {
  return pageApi(page, method, path, data);
}

const palette = () => page.getByRole('dialog', { name: 'Command palette' });
const input = () => palette().getByRole('combobox', { name: 'Search records and commands' });
const option = (name) => palette().getByRole('option', { name });
const pathname = () => new URL(page.url()).pathname;

/** Opens the palette with its shortcut (from wherever the focus is) and types. */
async function search(text) {
  await page.keyboard.press('Control+k');
  await input().waitFor();
  await input().fill(text);
}

/** Waits until the palette's first (active) option is the one named. */
async function firstOptionIs(name) {
  await page.waitForFunction((wanted) => {
    const first = document.querySelector('[role=listbox] [role=option]');
    return first?.getAttribute('aria-selected') === 'true' && first.textContent.includes(wanted);
  }, name);
}

/**
 * The app as the desktop shell runs it: a stand-in for the preload's bridge
 * (`window.outpost`) that sends requests with a token, as the main process
 * does, and lets the test emit the shell's events.
 */
async function desktopPage(token) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  await context.addInitScript((accessToken) => {
    const listeners = new Map();
    window.outpost = {
      async request(req) {
        const query = new URLSearchParams();
        for (const [key, value] of Object.entries(req.query ?? {})) {
          if (value !== undefined && value !== null && value !== '') query.append(key, Array.isArray(value) ? value.join(',') : String(value));
        }
        const headers = { Authorization: `Bearer ${accessToken}`, Accept: 'application/json' };
        if (req.body !== undefined) headers['Content-Type'] = 'application/json';
        const response = await fetch(`${req.path}${query.size ? `?${query}` : ''}`, { method: req.method, headers, body: req.body === undefined ? undefined : JSON.stringify(req.body) });
        const text = await response.text();
        return { status: response.status, body: text ? JSON.parse(text) : null };
      },
      on(event, listener) {
        listeners.set(event, [...(listeners.get(event) ?? []), listener]);
        return () => listeners.set(event, (listeners.get(event) ?? []).filter((l) => l !== listener));
      },
    };
    window.emitBridgeEvent = (event, payload) => (listeners.get(event) ?? []).forEach((listener) => listener(payload));
  }, token);
  const desktop = await context.newPage();
  await desktop.goto(new URL(page.url()).origin + '/contacts');
  return desktop;
}

const emit = (target, event, payload) => target.evaluate(([e, p]) => window.emitBridgeEvent(e, p), [event, payload]);

test.describe('the command palette and keyboard shortcuts', () => {
  const made = {};

  test.beforeAll(async () => {
    const org = await api('POST', '/v2/contacts', { is_organization: true, name: 'Quillfeather Supply' });
    const person = await api('POST', '/v2/contacts', {
      first_name: 'Ysolde', last_name: 'Marchetti', email: 'ysolde.m@quillfeather.test', phone: '+1 (415) 867-5309', contact_id: org.body.data.id,
    });
    const lead = await api('POST', '/v2/leads', { first_name: 'Thaddeus', last_name: 'Okonkwo', organization_name: 'Brightwater Labs' });
    const deal = await api('POST', '/v2/deals', { name: 'Quillfeather annual restock', contact_id: org.body.data.id, value: '4800' });
    for (const answer of [org, person, lead, deal]) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    Object.assign(made, { org: org.body.data, person: person.body.data, lead: lead.body.data, deal: deal.body.data });
  });

  test('opens with Ctrl+K, offers the commands with their shortcuts, and closes with Escape, focus back where it was', async () => {
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    await page.getByRole('link', { name: 'Tasks', exact: true }).focus();
    await page.keyboard.press('Control+k');
    await input().waitFor();
    assert.equal(await input().evaluate((el) => el === document.activeElement), true);
    await option(/New task\s*Alt\+Shift\+T/).waitFor();
    await option(/New contact\s*Alt\+Shift\+C/).waitFor();
    await option(/New note\s*Alt\+Shift\+N/).waitFor();
    // Sync now is for desktop replicas only.
    assert.equal(await option(/Sync now/).count(), 0);
    await screenshot(page, 'palette-01-commands');
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('link', { name: 'Tasks', exact: true }).evaluate((el) => el === document.activeElement), true);
  });

  test('finds a contact by name, by email and by phone digits, grouped by type', async () => {
    await search('ysol mar');
    await firstOptionIs('Ysolde Marchetti');
    await palette().getByRole('group', { name: 'Contacts' }).waitFor();
    await screenshot(page, 'palette-02-by-name');
    await input().fill('ysolde.m@quill');
    await firstOptionIs('Ysolde Marchetti');
    await input().fill('415 867');
    await firstOptionIs('Ysolde Marchetti');
    // A phone match shows the phone, in the one format every screen shows (typed as +1 (415) 867-5309).
    await option(/Ysolde Marchetti/).filter({ hasText: '+1 415 867 5309' }).waitFor();
    await screenshot(page, 'palette-03-by-phone');
    await page.keyboard.press('Escape');
    await palette().waitFor({ state: 'detached' });
  });

  test('finds a lead and a deal, moves with the arrow keys and opens the chosen record with Enter', async () => {
    await search('thaddeus');
    await firstOptionIs('Thaddeus Okonkwo');
    await palette().getByRole('group', { name: 'Leads' }).waitFor();
    await input().fill('quillfeather');
    await palette().getByRole('group', { name: 'Deals' }).getByRole('option', { name: /Quillfeather annual restock/ }).waitFor();
    await firstOptionIs('Quillfeather Supply');
    await screenshot(page, 'palette-04-contact-and-deal');
    // Down to the deal (aria-activedescendant follows), then Enter opens it.
    const dealOption = palette().getByRole('option', { name: /Quillfeather annual restock/ });
    while ((await dealOption.getAttribute('aria-selected')) !== 'true') await page.keyboard.press('ArrowDown');
    assert.equal(await input().getAttribute('aria-activedescendant'), await dealOption.getAttribute('id'));
    await page.keyboard.press('Enter');
    await palette().waitFor({ state: 'detached' });
    await page.getByRole('heading', { name: 'Quillfeather annual restock' }).waitFor();
    assert.equal(pathname(), `/deals/${made.deal.id}`);

    await search('okonkwo');
    await firstOptionIs('Thaddeus Okonkwo');
    await page.keyboard.press('Enter');
    await page.waitForURL(`**/leads/${made.lead.id}`);
  });

  test('runs "New task" from the palette: a task for the record on the page, added to its timeline', async () => {
    await page.goto(`${new URL(page.url()).origin}/contacts/${made.person.id}`);
    await page.getByRole('heading', { name: 'Ysolde Marchetti' }).waitFor();
    await search('new ta');
    await firstOptionIs('New task');
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.waitFor();
    assert.equal(await dialog.getByRole('checkbox', { name: 'For the contact on this page' }).isChecked(), true);
    await dialog.getByLabel('Task', { exact: true }).fill('Send Ysolde the spring catalogue');
    await screenshot(page, 'palette-05-new-task');
    await dialog.getByRole('button', { name: 'Add task' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.getByRole('status').filter({ hasText: 'Task added.' }).waitFor();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Send Ysolde the spring catalogue').waitFor();
    const tasks = await api('GET', `/v2/tasks?resource_type=contact&resource_id=${made.person.id}`);
    assert.deepEqual(tasks.body.items.map((i) => i.data.content), ['Send Ysolde the spring catalogue']);
  });

  test('creates with the shortcuts: Alt+Shift+C opens the new-contact form, Alt+Shift+N a note (asking for its record off a record page)', async () => {
    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    await page.locator('body').click({ position: { x: 600, y: 5 } });
    await page.keyboard.press('Alt+Shift+C');
    await page.getByRole('heading', { name: 'New contact' }).waitFor();
    assert.equal(pathname(), '/contacts/new');
    // Not while typing: the letters go into the field.
    await page.getByLabel('Last name *').fill('Typed');
    await page.getByLabel('Last name *').press('Alt+Shift+T');
    assert.equal(await page.getByRole('dialog', { name: 'New task' }).count(), 0);

    await page.getByRole('link', { name: 'Tasks', exact: true }).click();
    await page.getByRole('heading', { name: 'Tasks' }).waitFor();
    await page.locator('body').click({ position: { x: 600, y: 5 } });
    await page.keyboard.press('Alt+Shift+N');
    const dialog = page.getByRole('dialog', { name: 'New note' });
    await dialog.waitFor();
    await dialog.getByLabel('Which contact, lead or deal is it about?').fill('thadd');
    await dialog.getByRole('button', { name: /Lead · Thaddeus Okonkwo/ }).click();
    await dialog.getByLabel('Note', { exact: true }).fill('Met at the Brightwater open day');
    await dialog.getByRole('button', { name: 'Add note' }).click();
    await dialog.waitFor({ state: 'detached' });
    const notes = await api('GET', `/v2/notes?resource_type=lead&resource_id=${made.lead.id}`);
    assert.deepEqual(notes.body.items.map((i) => i.data.content), ['Met at the Brightwater open day']);
  });

  test('follows the desktop shell: menu commands and deep links (bridge events), never to another origin', async () => {
    const { access } = await page.evaluate(() => JSON.parse(sessionStorage.getItem('outpost.tokens')));
    const desktop = await desktopPage(access);
    await desktop.getByRole('button', { name: /Search…/ }).waitFor();
    await emit(desktop, 'command', { name: 'command-palette' });
    await desktop.getByRole('dialog', { name: 'Command palette' }).waitFor();
    // Sent twice for one key press (the menu's accelerator and the page's shortcut): still open.
    await emit(desktop, 'command', { name: 'command-palette' });
    await desktop.keyboard.type('marchetti');
    await desktop.getByRole('option', { name: /Ysolde Marchetti/ }).waitFor();
    await desktop.keyboard.press('Escape');

    await emit(desktop, 'command', { name: 'new-task' });
    await desktop.getByRole('dialog', { name: 'New task' }).waitFor();
    await desktop.keyboard.press('Escape');
    await desktop.getByRole('dialog', { name: 'New task' }).waitFor({ state: 'detached' });
    await emit(desktop, 'command', { name: 'new-contact' });
    await desktop.getByRole('heading', { name: 'New contact' }).waitFor();

    await emit(desktop, 'open-path', { path: `/deals/${made.deal.id}` });
    await desktop.getByRole('heading', { name: 'Quillfeather annual restock' }).waitFor();
    for (const path of ['//evil.example/contacts', 'https://evil.example/', 'contacts/1', '/contacts/1 x']) await emit(desktop, 'open-path', { path });
    // Sync now means nothing on a hub (no replica): ignored like the bad paths.
    await emit(desktop, 'command', { name: 'sync-now' });
    assert.equal(new URL(desktop.url()).pathname, `/deals/${made.deal.id}`);
    await emit(desktop, 'open-path', { path: `/leads/${made.lead.id}` });
    await desktop.getByRole('heading', { name: 'Thaddeus Okonkwo' }).waitFor();
    assert.equal(new URL(desktop.url()).pathname, `/leads/${made.lead.id}`);
    await desktop.context().close();
  });

  test('opens a record from the sidebar button too', async () => {
    await page.getByRole('button', { name: /Search…/ }).click();
    await input().fill('ysolde');
    await firstOptionIs('Ysolde Marchetti');
    await option(/Ysolde Marchetti/).click();
    await page.getByRole('heading', { name: 'Ysolde Marchetti' }).waitFor();
    assert.equal(pathname(), `/contacts/${made.person.id}`);
  });
});
