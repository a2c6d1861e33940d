import { test, until } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { screenshot, signIn, closeContexts } from './browser.mjs';

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

/** The REST API as the signed-in user of the page (its token is in the tab's sessionStorage). */
function api(method, path) {
  return page.evaluate(async ({ method, path }) => {
    const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
    const response = await fetch(path, { method, headers: { Authorization: `Bearer ${access}`, Accept: 'application/json' } });
    return { status: response.status, body: await response.json() };
  }, { method, path });
}


test.describe('leads', () => {
  let leadId;

  test('refuses a lead without a last name or an organization name, inline', async () => {
    await page.getByRole('link', { name: 'Leads', exact: true }).click();
    await page.getByRole('heading', { name: 'Leads' }).waitFor();
    await page.getByRole('link', { name: 'New lead' }).click();
    await page.getByLabel('First name').fill('Ada');
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('.field.invalid').filter({ hasText: 'Last name' }).getByRole('alert');
    await error.waitFor();
    // In the form's words: the fields by their labels.
    assert.match(await error.textContent(), /last name or an organization name/);
    assert.equal(new URL(page.url()).pathname, '/leads/new', 'nothing was saved');
    await screenshot(page, '60-lead-validation-error');
  });

  test('creates a lead and tags it', async () => {
    await page.getByLabel('Last name').fill('Lovelace');
    await page.getByLabel('Organization name').fill('Analytical Engines');
    await page.getByLabel('Email').fill('ada@engines.test');
    await page.getByLabel('Phone').fill('+44 20 7946 0018');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    leadId = Number(new URL(page.url()).pathname.split('/').pop());

    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByLabel('New tag').fill('trade-fair');
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await tags.getByRole('button', { name: 'Remove tag trade-fair' }).waitFor();
    assert.deepEqual((await api('GET', `/v2/leads/${leadId}`)).body.data.tags, ['trade-fair']);

    await page.getByLabel('Note', { exact: true }).fill('Met at the trade fair, wants a demo');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Met at the trade fair, wants a demo').waitFor();
    await screenshot(page, '61-lead-page');
  });

  test('finds the lead in the list', async () => {
    await page.getByRole('link', { name: 'Leads', exact: true }).click();
    await page.getByLabel('Search leads').fill('lovelace');
    const table = page.getByRole('table', { name: 'Leads' });
    await table.getByRole('link', { name: 'Ada Lovelace' }).waitFor();
    await page.getByLabel('Tag').fill('trade-fair');
    await page.waitForFunction(() => document.querySelectorAll('table[aria-label=Leads] tbody tr').length === 1);
    await screenshot(page, '62-leads-list');
    await table.getByRole('link', { name: 'Ada Lovelace' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
  });

  test('converts the lead with a deal and lands on the new contact', async () => {
    await page.getByRole('button', { name: 'Convert' }).click();
    const dialog = page.getByRole('dialog', { name: 'Convert Ada Lovelace' });
    await dialog.waitFor();
    await dialog.getByLabel('Owner').selectOption({ label: 'Agent Smith' });
    assert.equal(await dialog.getByLabel('Create a deal').isChecked(), true);
    await dialog.getByLabel('Value').fill('4800');
    await screenshot(page, '63-convert-dialog');
    await dialog.getByRole('button', { name: 'Convert' }).click();

    // The person the lead became, with links to everything the conversion made.
    await page.waitForURL(/\/contacts\/\d+$/);
    await page.getByRole('heading', { name: 'Ada Lovelace', exact: true }).waitFor();
    const summary = page.getByRole('region', { name: 'Lead conversion' });
    const organizationLink = summary.getByText('Organization:').getByRole('link', { name: 'Analytical Engines' });
    await organizationLink.waitFor();
    const dealLink = summary.getByText('Deal:').getByRole('link');
    await dealLink.waitFor();

    const conversion = (await api('GET', `/v2/lead_conversions?lead_id=${leadId}`)).body.items[0].data;
    assert.equal(new URL(page.url()).pathname, `/contacts/${conversion.individual_id}`);
    assert.equal(await dealLink.getAttribute('href'), `/deals/${conversion.deal_id}`);
    assert.equal(await organizationLink.getAttribute('href'), `/contacts/${conversion.organization_id}`);
    const agent = (await api('GET', '/v2/users?per_page=100')).body.items.map((i) => i.data).find((u) => u.name === 'Agent Smith');
    const deal = (await api('GET', `/v2/deals/${conversion.deal_id}`)).body.data;
    assert.equal(deal.owner_id, agent.id, 'the chosen owner owns the deal');
    // The deal is named after the organization and the person, and the person's page lists it (they are its associated contact).
    assert.equal(deal.name, 'Analytical Engines – Ada Lovelace');
    const deals = page.getByRole('region', { name: 'Deals' });
    assert.equal(await deals.getByRole('link', { name: 'Analytical Engines – Ada Lovelace' }).getAttribute('href'), `/deals/${conversion.deal_id}`);
    assert.equal(await deals.getByText('No deals yet.').count(), 0);

    // The lead's note moves to the new records in the background; once the API shows it there, so does the page.
    await until(async () => (await api('GET', `/v2/notes?resource_type=contact&resource_id=${conversion.individual_id}`)).body.items.length === 1);
    await page.reload();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Met at the trade fair, wants a demo').waitFor();
    await screenshot(page, '64-converted-contact');
  });

  test('opens the deal made from the lead', async () => {
    await page.getByRole('region', { name: 'Lead conversion' }).getByText('Deal:').getByRole('link').click();
    // The deal belongs to the organization, with the person associated with it.
    await page.getByRole('heading', { name: 'Analytical Engines – Ada Lovelace', exact: true }).waitFor();
    const contacts = page.getByRole('region', { name: 'Associated contacts' });
    await contacts.getByRole('link', { name: 'Analytical Engines', exact: true }).waitFor();
    await contacts.getByRole('link', { name: 'Ada Lovelace', exact: true }).waitFor();
    assert.match(new URL(page.url()).pathname, /^\/deals\/\d+$/);
    await screenshot(page, '65-deal-from-lead');

    await page.goto(new URL(`/leads/${leadId}`, page.url()).href);
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await page.getByRole('region', { name: 'Lead conversion' }).waitFor();
    assert.equal(await page.getByRole('button', { name: 'Convert' }).count(), 0, 'a converted lead cannot be converted again');
  });
});
