import { test, until } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { blockingViolations, violationLines } from './axe.mjs';
import { pageApi, screenshot, signIn, closeContexts, settled } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

/**
 * Smart lists: a list screen's view saved under a name, in the
 * sidebar with its count, opened with its filters, edited and saved again or
 * as a new one; a shared list seen by the agent but not theirs to change.
 */

let browser;
let seededHub;
let admin;
let agent;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
  agent = await signIn(browser, seededHub, 'agent');
});
test.afterAll(() => closeContexts(browser));

const sidebar = (page) => page.getByRole('navigation', { name: 'Main' });
const smartListLink = (page, name) => sidebar(page).getByRole('link', { name: new RegExp(`^${name} `) });
const smartListBar = (page) => page.getByRole('region', { name: 'Smart list' });
const openId = (page) => Number(new URL(page.url()).searchParams.get('smart_list_id'));
const total = async (page, path) => (await pageApi(page, 'GET', path)).body.meta.total_count;


async function saveAs(page, name, shared) {
  const bar = smartListBar(page);
  await bar.getByRole('button', { name: /^Save as (smart list|new)$/ }).click();
  const form = bar.getByRole('form');
  await form.getByLabel('Name').fill(name);
  if (shared) await form.getByLabel('Share with the team').check();
  await form.getByRole('button', { name: 'Save list' }).click();
  await bar.getByText(name, { exact: true }).waitFor();
}

test.describe('smart lists', () => {
  let customers;

  test('saves the contacts screen\'s filters as a shared list, shown in the sidebar with its count', async () => {
    await admin.getByLabel('Kind').selectOption('organizations');
    await admin.getByLabel('Customer status').selectOption('current');
    const expected = await total(admin, '/v2/contacts?is_organization=true&customer_status=current&count=true&per_page=1');
    assert.ok(expected > 0, 'the demo data has current customer organizations');
    await admin.locator('.filter-bar .count').getByText(`of ${expected}`).waitFor();
    await saveAs(admin, 'Customer organizations', true);
    customers = openId(admin);
    assert.ok(customers > 0);
    const saved = (await pageApi(admin, 'GET', `/v2/smart_lists/${customers}`)).body.data;
    assert.deepEqual(saved.filters, { is_organization: 'true', customer_status: 'current' });
    assert.equal(saved.sort_by, 'name:asc');
    assert.equal(saved.shared, true);
    assert.deepEqual(saved.columns, ['Name', 'Email', 'Phone', 'Status', 'Owner', 'Updated']);
    const link = smartListLink(admin, 'Customer organizations');
    await link.getByText(String(expected), { exact: true }).waitFor();
    assert.equal(await link.getAttribute('aria-current'), 'page');
    await screenshot(admin, '150-smart-list-saved');
  });

  test('opens from the sidebar with its filters applied', async () => {
    await sidebar(admin).getByRole('link', { name: 'Leads', exact: true }).click();
    await admin.getByRole('heading', { name: 'Leads', exact: true }).waitFor();
    await smartListLink(admin, 'Customer organizations').click();
    await admin.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
    await smartListBar(admin).getByText('Customer organizations', { exact: true }).waitFor();
    assert.equal(await admin.getByLabel('Kind').inputValue(), 'organizations');
    assert.equal(await admin.getByLabel('Customer status').inputValue(), 'current');
    const expected = await total(admin, `/v2/contacts?smart_list_id=${customers}&count=true&per_page=1`);
    await admin.locator('.filter-bar .count').getByText(`of ${expected}`).waitFor();
    assert.equal(await smartListBar(admin).getByRole('button', { name: 'Save', exact: true }).count(), 0, 'nothing to save while unchanged');
  });

  test('offers Save and Save as new once the filters change', async () => {
    await admin.getByLabel('Prospect status').selectOption('current');
    const bar = smartListBar(admin);
    await bar.getByText('filters changed').waitFor();
    await bar.getByRole('button', { name: 'Save', exact: true }).waitFor();
    await screenshot(admin, '151-smart-list-changed');
    // Save as new: a second list, the first unchanged.
    await saveAs(admin, 'Customer orgs also prospects', false);
    const second = openId(admin);
    assert.notEqual(second, customers);
    assert.deepEqual((await pageApi(admin, 'GET', `/v2/smart_lists/${second}`)).body.data.filters, { is_organization: 'true', customer_status: 'current', prospect_status: 'current' });
    assert.deepEqual((await pageApi(admin, 'GET', `/v2/smart_lists/${customers}`)).body.data.filters, { is_organization: 'true', customer_status: 'current' });
    const count = await total(admin, `/v2/contacts?smart_list_id=${second}&count=true&per_page=1`);
    await smartListLink(admin, 'Customer orgs also prospects').getByText(String(count), { exact: true }).waitFor();

    // Save: the open list takes the change.
    await smartListLink(admin, 'Customer organizations').click();
    await bar.getByText('Customer organizations', { exact: true }).waitFor();
    await until(async () => (await admin.getByLabel('Customer status').inputValue()) === 'current', 'the list\'s filters applied');
    await admin.getByLabel('Tag').fill('vip');
    await bar.getByRole('button', { name: 'Save', exact: true }).click();
    await until(async () => (await pageApi(admin, 'GET', `/v2/smart_lists/${customers}`)).body.data.filters.tag === 'vip', 'the change saved');
    await bar.getByText('filters changed').waitFor({ state: 'detached' });
    // Leaving the list and coming back to Contacts shows all contacts again, not the list's.
    await sidebar(admin).getByRole('link', { name: 'Leads', exact: true }).click();
    await admin.getByRole('heading', { name: 'Leads', exact: true }).waitFor();
    await sidebar(admin).getByRole('link', { name: 'Contacts', exact: true }).click();
    await until(async () => (await admin.getByLabel('Customer status').inputValue()) === '', 'the contacts\' own filters back');
    assert.equal(await admin.getByLabel('Tag').inputValue(), '');
    assert.equal(await smartListBar(admin).getByRole('button', { name: 'Save as smart list' }).count(), 1);
  });

  test('is shown to the agent, who may use it but not change it', async () => {
    await agent.reload();
    const link = smartListLink(agent, 'Customer organizations');
    await link.waitFor();
    assert.equal(await smartListLink(agent, 'Customer orgs also prospects').count(), 0, 'a private list is its owner\'s only');
    await link.click();
    const bar = smartListBar(agent);
    await bar.getByText('Customer organizations', { exact: true }).waitFor();
    await bar.getByText('Shared').waitFor();
    assert.equal(await bar.getByRole('button', { name: 'Rename' }).count(), 0);
    assert.equal(await bar.getByRole('button', { name: /^Delete/ }).count(), 0);
    await agent.getByLabel('Tag').fill('');
    await bar.getByText('filters changed').waitFor();
    assert.equal(await bar.getByRole('button', { name: 'Save', exact: true }).count(), 0, 'not the agent\'s to save');
    await bar.getByRole('button', { name: 'Save as new' }).waitFor();
    await screenshot(agent, '152-smart-list-shared-agent');
    const refused = await pageApi(agent, 'PUT', `/v2/smart_lists/${customers}`, { name: 'Mine' });
    assert.equal(refused.status, 403);
  });

  test('saves a deals list view, and lists of leads and tasks, each under its resource', async () => {
    await sidebar(admin).getByRole('link', { name: 'Deals', exact: true }).click();
    await admin.getByRole('navigation', { name: 'Deals view' }).getByRole('link', { name: 'List' }).click();
    await admin.getByRole('table', { name: 'Deals' }).waitFor();
    await admin.getByLabel('Hot').selectOption('false');
    await admin.getByLabel('Sort by').selectOption('value:desc');
    const deals = await total(admin, '/v2/deals?hot=false&count=true&per_page=1');
    await admin.locator('.filter-bar .count').getByText(`of ${deals}`).waitFor();
    await saveAs(admin, 'Cool deals', false);
    assert.equal(new URL(admin.url()).pathname, '/deals/list');
    await smartListLink(admin, 'Cool deals').getByText(String(deals), { exact: true }).waitFor();
    await screenshot(admin, '153-deals-list-smart-list');

    await sidebar(admin).getByRole('link', { name: 'Leads', exact: true }).click();
    await admin.getByLabel('Status').selectOption('New');
    await saveAs(admin, 'New leads', false);
    await sidebar(admin).getByRole('link', { name: 'Tasks', exact: true }).click();
    await admin.getByRole('heading', { name: 'Tasks', exact: true }).waitFor();
    await admin.getByLabel('Owner').selectOption({ label: "Anyone's tasks" });
    await saveAs(admin, 'Everyone\'s tasks', false);
    const tasks = await total(admin, '/v2/tasks?count=true&per_page=1');
    await smartListLink(admin, 'Everyone\'s tasks').getByText(String(tasks), { exact: true }).waitFor();
    const groups = await sidebar(admin).locator('.smart-lists-resource').allTextContents();
    assert.deepEqual(groups, ['Contacts', 'Leads', 'Deals', 'Tasks']);
    await screenshot(admin, '154-smart-lists-sidebar');
  });

  test('passes axe (WCAG 2.x A and AA) with smart lists open, their form, the sidebar and the deals list', async () => {
    const blocking = async () => violationLines(await blockingViolations(admin));
    await smartListLink(admin, 'Cool deals').click();
    await smartListBar(admin).getByText('Cool deals', { exact: true }).waitFor();
    assert.deepEqual(await blocking(), [], 'the deals list with a smart list open');
    await smartListLink(admin, 'Customer organizations').click();
    await smartListBar(admin).getByText('Customer organizations', { exact: true }).waitFor();
    await admin.getByLabel('Tag').fill('nobody-has-this');
    await smartListBar(admin).getByRole('button', { name: 'Save as new' }).click();
    await smartListBar(admin).getByRole('form').waitFor();
    assert.deepEqual(await blocking(), [], 'contacts with a changed smart list and the save form');
    await smartListBar(admin).getByRole('button', { name: 'Cancel' }).click();
  });

  test('renames and deletes a list from its screen', async () => {
    await smartListLink(admin, 'New leads').click();
    const bar = smartListBar(admin);
    await bar.getByText('New leads', { exact: true }).waitFor();
    await bar.getByRole('button', { name: 'Rename' }).click();
    await bar.getByRole('form').getByLabel('Name').fill('Fresh leads');
    await bar.getByRole('form').getByRole('button', { name: 'Save' }).click();
    await smartListLink(admin, 'Fresh leads').waitFor();
    const id = openId(admin);
    await bar.getByRole('button', { name: 'Delete Fresh leads' }).click();
    await admin.getByRole('alertdialog', { name: 'Delete Fresh leads?' }).getByRole('button', { name: 'Delete' }).click();
    await admin.waitForURL((url) => url.pathname === '/leads' && !url.searchParams.has('smart_list_id'));
    await smartListLink(admin, 'Fresh leads').waitFor({ state: 'detached' });
    assert.equal((await pageApi(admin, 'GET', `/v2/smart_lists/${id}`)).status, 404);
    assert.equal(await admin.getByLabel('Status').inputValue(), '', 'the screen is back to its own filters');
  });

  test('works on a phone', async () => {
    await admin.setViewportSize({ width: 390, height: 844 });
    await admin.goto(new URL(`/contacts?smart_list_id=${customers}`, admin.url()).href);
    await smartListBar(admin).getByText('Customer organizations', { exact: true }).waitFor();
    assert.equal(await admin.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), true, 'no sideways scroll');
    await screenshot(admin, '155-smart-list-phone');
    await admin.getByRole('button', { name: 'Menu' }).click();
    await smartListLink(admin, 'Cool deals').waitFor();
    await settled(admin); // the drawer slides in
    await screenshot(admin, '156-smart-lists-phone-drawer');
    await smartListLink(admin, 'Cool deals').click();
    await smartListBar(admin).getByText('Cool deals', { exact: true }).waitFor();
    await settled(admin); // the drawer slides out
    await screenshot(admin, '157-deals-list-phone');
  });
});
