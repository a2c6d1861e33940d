import { test, until } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

/**
 * Owners everywhere: the contacts, leads and deals lists name each record's
 * owner and filter by owner ("Me" first), a smart list keeps that filter, a
 * record page shows and changes its owner, and the deals list shows each
 * deal's organization and contact and the total of every match.
 */

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
// Names of this spec's own records: found by search or tag, apart from the demo data and other specs'.
const MARK = `Owl${Date.now().toString(36)}`;
const TAG = MARK.toLowerCase();

let browser;
let seededHub;
let page;
let me;
let agentId;
let currency;
const contacts = {};
const leads = {};
const deals = {};


async function created(path, data) {
  const answer = await pageApi(page, 'POST', path, data);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.id;
}

/** In-app navigation (the router follows the address), so the sidebar need not be open on a phone. */
async function go(path, heading) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** On a phone the filters fold behind "Filters". */
async function showFilters() {
  const toggle = page.getByRole('button', { name: /^Filters/ });
  if (await toggle.isVisible() && (await toggle.getAttribute('aria-expanded')) !== 'true') await toggle.click();
}

const rowsOf = (table) => page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: MARK });

/** The names of the rows shown for this spec's records, sorted. */
async function rowNames(table) {
  return (await rowsOf(table).allInnerTexts()).map((text) => text.match(/(Ada|Bea|Cyd)/)?.[1]).filter(Boolean).sort();
}

async function expectRows(table, names) {
  await until(async () => JSON.stringify(await rowNames(table)) === JSON.stringify(names), `${table} shows ${names.join(', ')}`);
}

/** The Owner filter's choices: anyone's, "Me" first, then the team. */
async function checkOwnerChoices() {
  const options = await page.getByLabel('Owner', { exact: true }).locator('option').allInnerTexts();
  assert.equal(options[1], 'Me', `"Me" comes first: ${options.join(', ')}`);
  assert.ok(options.includes('Agent Smith'));
  assert.ok(!options.includes(me.name), 'the signed-in user is "Me", not listed again by name');
}

/** The deals list's total as the API's deals add up (this spec's, with the tag; fewer than a page), formatted as the page formats money. */
async function apiTotal(query) {
  const answer = await pageApi(page, 'GET', `/v2/deals?tag=${TAG}${query}&per_page=100`);
  const cents = answer.body.items.reduce((sum, i) => sum + Math.round(Number(i.data.value) * 100), 0);
  return page.evaluate(({ amount, code }) => new Intl.NumberFormat(undefined, { style: 'currency', currency: code }).format(amount), { amount: cents / 100, code: currency });
}

const totalText = () => page.getByRole('search').locator('.list-total').innerText();

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
  me = (await pageApi(page, 'GET', '/v2/users/self')).body.data;
  agentId = (await pageApi(page, 'GET', '/v2/users?per_page=100')).body.items.map((i) => i.data).find((u) => u.name === 'Agent Smith').id;
  currency = (await pageApi(page, 'GET', '/v2/accounts/self')).body.data.currency;
  const organization = await created('/v2/contacts', { is_organization: true, name: `${MARK} Holdings` });
  contacts.Ada = await created('/v2/contacts', { first_name: 'Ada', last_name: MARK, contact_id: organization });
  contacts.Bea = await created('/v2/contacts', { first_name: 'Bea', last_name: MARK, owner_id: agentId });
  leads.Ada = await created('/v2/leads', { first_name: 'Ada', last_name: MARK });
  leads.Bea = await created('/v2/leads', { first_name: 'Bea', last_name: MARK, owner_id: agentId });
  deals.Ada = await created('/v2/deals', { name: `Ada ${MARK} deal`, contact_id: contacts.Ada, value: '1200.5', currency, tags: [TAG] });
  deals.Bea = await created('/v2/deals', { name: `Bea ${MARK} deal`, contact_id: contacts.Bea, value: '300', currency, tags: [TAG], owner_id: agentId });
  deals.Cyd = await created('/v2/deals', { name: `Cyd ${MARK} deal`, contact_id: contacts.Ada, value: '49.25', currency, tags: [TAG] });
});
test.afterAll(() => closeContexts(browser));

test.describe('owners on the lists', () => {
  test('shows the contacts\' owners by name and narrows the list to "Me" or a teammate', async () => {
    await page.setViewportSize(DESKTOP);
    await go('/contacts', 'Contacts');
    await page.getByLabel('Search contacts').fill(MARK);
    await expectRows('Contacts', ['Ada', 'Bea']);
    await page.getByRole('table', { name: 'Contacts' }).getByRole('columnheader', { name: 'Owner' }).waitFor();
    // The name itself, the signed-in user's own too.
    await rowsOf('Contacts').filter({ hasText: 'Ada' }).getByRole('cell', { name: me.name, exact: true }).waitFor();
    await rowsOf('Contacts').filter({ hasText: 'Bea' }).getByRole('cell', { name: 'Agent Smith', exact: true }).waitFor();
    await checkOwnerChoices();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Me' });
    await expectRows('Contacts', ['Ada']);
    await screenshot(page, '480-owners-contacts-desktop');
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Agent Smith' });
    await expectRows('Contacts', ['Bea']);
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Any owner' });
    await expectRows('Contacts', ['Ada', 'Bea']);
  });

  test('keeps the owner on a phone\'s contact cards, and filters there', async () => {
    await page.setViewportSize(PHONE);
    await expectRows('Contacts', ['Ada', 'Bea']);
    const bea = rowsOf('Contacts').filter({ hasText: 'Bea' });
    await bea.getByRole('cell', { name: 'Owner Agent Smith' }).waitFor();
    assert.ok(await bea.getByText('Agent Smith').isVisible(), 'the owner shows on the card');
    await showFilters();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Agent Smith' });
    await expectRows('Contacts', ['Bea']);
    await screenshot(page, '481-owners-contacts-phone');
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Any owner' });
    // The demo contacts, with emails, phones and statuses: the owner's line still under them.
    await page.getByLabel('Search contacts').fill('');
    await page.getByRole('button', { name: /^Filters/ }).click();
    await page.getByRole('search').getByText(/of \d{3}/).waitFor();
    await page.getByRole('table', { name: 'Contacts' }).getByRole('cell', { name: `Owner ${me.name}` }).first().waitFor();
    await screenshot(page, '481-owners-contacts-phone-demo');
    await page.setViewportSize(DESKTOP);
  });

  test('shows the leads\' owners and filters them, at both widths', async () => {
    await page.setViewportSize(DESKTOP);
    await go('/leads', 'Leads');
    await page.getByLabel('Search leads').fill(MARK);
    await expectRows('Leads', ['Ada', 'Bea']);
    await page.getByRole('row', { name: `Ada ${MARK}` }).getByRole('cell', { name: me.name, exact: true }).waitFor();
    await page.getByRole('row', { name: `Bea ${MARK}` }).getByRole('cell', { name: 'Agent Smith', exact: true }).waitFor();
    await checkOwnerChoices();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Me' });
    await expectRows('Leads', ['Ada']);
    await screenshot(page, '482-owners-leads-desktop');
    await page.setViewportSize(PHONE);
    await showFilters();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Agent Smith' });
    await expectRows('Leads', ['Bea']);
    await page.getByRole('row', { name: `Bea ${MARK}` }).getByText('Agent Smith').waitFor();
    await screenshot(page, '483-owners-leads-phone');
    await page.setViewportSize(DESKTOP);
  });
});

test.describe('the deals list', () => {

  test('shows each deal\'s organization, contact and owner, and the total of what is listed', async () => {
    await page.setViewportSize(DESKTOP);
    await go('/deals/list', 'Deals');
    await page.getByLabel('Tag', { exact: true }).fill(TAG);
    await expectRows('Deals', ['Ada', 'Bea', 'Cyd']);
    const ada = page.getByRole('row', { name: `Ada ${MARK} deal` });
    await ada.getByRole('link', { name: `${MARK} Holdings` }).waitFor();
    await ada.getByRole('link', { name: `Ada ${MARK}`, exact: true }).waitFor();
    await ada.getByRole('cell', { name: me.name, exact: true }).waitFor();
    assert.equal(await ada.getByRole('link', { name: `${MARK} Holdings` }).getAttribute('href'), `/contacts/${await pageApi(page, 'GET', `/v2/deals/${deals.Ada}`).then((a) => a.body.data.organization_id)}`);
    await page.getByRole('row', { name: `Bea ${MARK} deal` }).getByRole('cell', { name: 'Agent Smith', exact: true }).waitFor();
    const all = await apiTotal('');
    await until(async () => (await totalText()).includes(all), `the total reads ${all}`);
    await screenshot(page, '484-owners-deals-desktop');

    await checkOwnerChoices();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Me' });
    await expectRows('Deals', ['Ada', 'Cyd']);
    const mine = await apiTotal(`&owner_id=${me.id}`);
    await until(async () => (await totalText()).includes(mine), `my total reads ${mine}`);
  });

  test('keeps the columns and the total on a phone', async () => {
    await page.setViewportSize(PHONE);
    await showFilters();
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Agent Smith' });
    await expectRows('Deals', ['Bea']);
    const bea = page.getByRole('row', { name: `Bea ${MARK} deal` });
    await bea.getByRole('link', { name: `Bea ${MARK}`, exact: true }).waitFor();
    await bea.getByText('Agent Smith').waitFor();
    const theirs = await apiTotal(`&owner_id=${agentId}`);
    await until(async () => (await totalText()).includes(theirs), `the agent's total reads ${theirs}`);
    await screenshot(page, '485-owners-deals-phone');
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Any owner' });
    await page.setViewportSize(DESKTOP);
  });
});

test.describe('smart lists keep the owner', () => {
  test('saves the contacts filtered by owner and reopens them filtered', async () => {
    await page.setViewportSize(DESKTOP);
    await go('/contacts', 'Contacts');
    await page.getByLabel('Search contacts').fill(MARK);
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Agent Smith' });
    await expectRows('Contacts', ['Bea']);
    const bar = page.getByRole('region', { name: 'Smart list' });
    await bar.getByRole('button', { name: 'Save as smart list' }).click();
    await bar.getByRole('form').getByLabel('Name').fill(`${MARK} agent's`);
    await bar.getByRole('form').getByRole('button', { name: 'Save list' }).click();
    await bar.getByText(`${MARK} agent's`, { exact: true }).waitFor();
    const id = Number(new URL(page.url()).searchParams.get('smart_list_id'));
    const saved = (await pageApi(page, 'GET', `/v2/smart_lists/${id}`)).body.data;
    assert.equal(saved.filters.owner_id, String(agentId));
    assert.ok(saved.columns.includes('Owner'));

    // Away and back: the list opens with its owner filter applied and its rows narrowed.
    await go('/contacts', 'Contacts');
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Any owner' });
    await page.getByLabel('Search contacts').fill(MARK);
    await expectRows('Contacts', ['Ada', 'Bea']);
    await go('/leads', 'Leads');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${MARK} agent's`) }).click();
    await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
    await bar.getByText(`${MARK} agent's`, { exact: true }).waitFor();
    await until(async () => (await page.getByLabel('Owner', { exact: true }).inputValue()) === String(agentId), 'the Owner filter is restored');
    await expectRows('Contacts', ['Bea']);
  });

  test('saves deals filtered by owner and reopens them filtered', async () => {
    await go('/deals/list', 'Deals');
    await page.getByLabel('Tag', { exact: true }).fill(TAG);
    await page.getByLabel('Owner', { exact: true }).selectOption({ label: 'Me' });
    await expectRows('Deals', ['Ada', 'Cyd']);
    const bar = page.getByRole('region', { name: 'Smart list' });
    await bar.getByRole('button', { name: 'Save as smart list' }).click();
    await bar.getByRole('form').getByLabel('Name').fill(`${MARK} my deals`);
    await bar.getByRole('form').getByRole('button', { name: 'Save list' }).click();
    await bar.getByText(`${MARK} my deals`, { exact: true }).waitFor();
    await go('/contacts', 'Contacts');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: new RegExp(`^${MARK} my deals`) }).click();
    await page.getByRole('heading', { name: 'Deals', exact: true }).waitFor();
    await until(async () => (await page.getByLabel('Owner', { exact: true }).inputValue()) === String(me.id), 'the Owner filter is restored');
    await expectRows('Deals', ['Ada', 'Cyd']);
    const mine = await apiTotal(`&owner_id=${me.id}`);
    await until(async () => (await totalText()).includes(mine), 'the smart list\'s total');
  });
});

test.describe('a record page\'s owner', () => {
  const pages = [
    { kind: 'contact', path: () => `/contacts/${contacts.Ada}`, heading: `Ada ${MARK}`, api: () => `/v2/contacts/${contacts.Ada}` },
    { kind: 'lead', path: () => `/leads/${leads.Ada}`, heading: `Ada ${MARK}`, api: () => `/v2/leads/${leads.Ada}` },
    { kind: 'deal', path: () => `/deals/${deals.Cyd}`, heading: `Cyd ${MARK} deal`, api: () => `/v2/deals/${deals.Cyd}` },
  ];

  for (const [i, record] of pages.entries()) {
    test(`shows a ${record.kind}'s owner and gives the ${record.kind} to a teammate`, async () => {
      const phone = i === 1;
      await page.setViewportSize(phone ? PHONE : DESKTOP);
      await go(record.path(), record.heading);
      const details = page.getByRole('region', { name: 'Details' });
      // Folded on a phone.
      if (phone) await details.getByText('Details', { exact: true }).click();
      const owner = details.getByLabel('Owner', { exact: true });
      await until(async () => (await owner.inputValue()) === String(me.id), 'the owner is shown');
      assert.equal(await owner.locator('option:checked').innerText(), me.name);
      // A deal's contact is named once its look-up answered.
      if (record.kind === 'deal') await details.getByRole('link', { name: `Ada ${MARK}`, exact: true }).waitFor();
      await screenshot(page, `48${6 + i}-owners-${record.kind}-page-${phone ? 'phone' : 'desktop'}`);
      await owner.selectOption({ label: 'Agent Smith' });
      await details.getByRole('status').getByText('Saved').waitFor();
      assert.equal((await pageApi(page, 'GET', record.api())).body.data.owner_id, agentId);
      assert.equal(await owner.locator('option:checked').innerText(), 'Agent Smith');
      // And back, by the same control.
      await owner.selectOption({ label: me.name });
      await until(async () => (await pageApi(page, 'GET', record.api())).body.data.owner_id === me.id, 'given back');
    });
  }

  test('shows the owner on the phone\'s record page too', async () => {
    await page.setViewportSize(PHONE);
    await go(`/deals/${deals.Bea}`, `Bea ${MARK} deal`);
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('Details', { exact: true }).click();
    await until(async () => (await details.getByLabel('Owner', { exact: true }).inputValue()) === String(agentId), 'the agent owns it');
    await screenshot(page, '489-owners-deal-page-phone');
    await page.setViewportSize(DESKTOP);
  });
});
