// Record pages laid out for selling, and lists that cut nothing off.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi, screenshot, signIn, closeContexts, atRest } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const WIDE = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
// Unique per run: the e2e hub keeps its data between specs.
const RUN = Date.now().toString(36);
const LONG_NAME = `Wolfeschlegelsteinhausenbergerdorff${RUN}${'x'.repeat(200)}`.slice(0, 200);
const LONG_EMAIL = `purchasing.department.for.the.whole.northern.region.${RUN}@an-extremely-long-company-domain-name-for-wrapping.example`;

let browser;
let seededHub;
let page;
const made = {};
const api = (method, path, data) => pageApi(page, method, path, data);

async function create(path, data) {
  const answer = await api('POST', path, data);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

/** Opens a screen the way the app's links do, and waits for its heading and the panels that load after it. */
async function go(path, heading) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
  await atRest(page);
}

/** How far the page, and the screen inside the shell, scroll sideways: 0 when everything fits. */
function sidewaysOverflow() {
  return page.evaluate(() => {
    const main = document.querySelector('main.content');
    return { page: document.documentElement.scrollWidth - window.innerWidth, screen: main ? main.scrollWidth - main.clientWidth : 0 };
  });
}

/** Where an element is on the screen (its box), failing when it is not shown. */
async function box(locator) {
  const found = await locator.boundingBox();
  assert.ok(found, 'the element is on the page');
  return found;
}

/** The cells (and headers) of a list whose text is cut off: wider than the cell, without a tooltip to read it whole. */
function clippedCells(selector) {
  return page.evaluate((cells) => [...document.querySelectorAll(cells)]
    .filter((cell) => cell.scrollWidth > cell.clientWidth + 1 && !cell.title)
    .map((cell) => `${cell.getAttribute('data-label') ?? cell.tagName}: ${cell.textContent.slice(0, 60)}`), selector);
}

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
  made.outcome = (await api('GET', '/v2/call_outcomes?per_page=100')).body.items[0].data;
  made.organization = await create('/v2/contacts', { is_organization: true, name: `Harlow Hardware ${RUN}` });
  made.contact = await create('/v2/contacts', {
    first_name: 'Quinn', last_name: `Harlow ${RUN}`, contact_id: made.organization.id, title: 'Store manager', email: `quinn.${RUN}@harlow.example`,
    phone: '(303) 555-0147', customer_status: 'current',
    address: { line1: '1 Main St', city: 'Hyannis', postal_code: '02601', state: 'MA', country: 'US' },
  });
  // A call as a phone logs it, with its length (the call form has no duration field): 4 minutes 30 seconds.
  made.call = await create('/v2/calls', {
    resource_type: 'contact', resource_id: made.contact.id, phone_number: '303-555-0147', summary: 'Went through the spring order',
    outcome_id: made.outcome.id, duration: 270, incoming: false, made_at: new Date(Date.now() - 3600_000).toISOString(),
  });
  made.long = await create('/v2/contacts', { last_name: LONG_NAME, email: LONG_EMAIL, phone: '+44 20 7946 0018' });
  made.lead = await create('/v2/leads', { first_name: 'Jane', last_name: `Doe ${RUN}`, organization_name: `Bernhard LLC ${RUN}`, email: LONG_EMAIL, phone: '720 555 0101' });
  made.deal = await create('/v2/deals', { name: `Spring order ${RUN}`, contact_id: made.organization.id, value: '12500' });
});
test.afterAll(async () => {
  await page?.setViewportSize(WIDE);
  await closeContexts(browser);
});

test.describe('record pages for selling', () => {
  const contactName = () => `Quinn Harlow ${RUN}`;
  const timeline = () => page.getByRole('region', { name: 'Timeline' });
  const callEntry = () => timeline().getByRole('listitem').filter({ hasText: 'Went through the spring order' });

  test('puts the composer and the timeline above the fold at 1280×800, the details beside them', async () => {
    await page.setViewportSize(WIDE);
    await go(`/contacts/${made.contact.id}`, contactName());
    const tabs = await box(page.getByRole('tablist', { name: 'Add to the timeline' }));
    const note = await box(page.getByLabel('Note', { exact: true }));
    const firstEntry = await box(callEntry());
    assert.ok(tabs.y + tabs.height <= WIDE.height && note.y + note.height <= WIDE.height, 'the composer is on the first screen');
    assert.ok(firstEntry.y + firstEntry.height <= WIDE.height, `the newest activity is on the first screen (ends at ${firstEntry.y + firstEntry.height})`);
    const details = await box(page.getByRole('region', { name: 'Details' }));
    assert.ok(details.x > note.x + note.width && details.y < WIDE.height / 2, 'the details are in a column beside the timeline');
    // How to reach the contact is in its header: the phone in the one format, dialling E.164.
    const header = page.locator('.record-header');
    assert.equal(await header.getByRole('link', { name: '+1 303 555 0147' }).getAttribute('href'), 'tel:+13035550147');
    await screenshot(page, 'record-contact-1280');
  });

  test("shows a logged call's outcome and duration in the timeline", async () => {
    const text = await callEntry().innerText();
    assert.match(text, new RegExp(`Outgoing call · ${made.outcome.name} · 4 min 30 s`));
    assert.equal(await callEntry().getByRole('link', { name: '+1 303 555 0147' }).getAttribute('href'), 'tel:+13035550147');
  });

  test('shows the address in its country\'s order', async () => {
    const details = page.getByRole('region', { name: 'Details' });
    await details.getByText('Hyannis, MA 02601', { exact: true }).waitFor();
  });

  test('keeps the composer near the top on a phone and folds the panels, each with its count', async () => {
    await page.setViewportSize(PHONE);
    await go(`/contacts/${made.contact.id}`, contactName());
    const tabs = await box(page.getByRole('tablist', { name: 'Add to the timeline' }));
    assert.ok(tabs.y + tabs.height <= PHONE.height / 2, `the composer starts in the upper half of the first screen (ends at ${tabs.y + tabs.height})`);
    const firstEntry = await box(callEntry());
    assert.ok(firstEntry.y < PHONE.height * 1.25, `the newest activity follows the composer (at ${firstEntry.y})`);
    // The panels are folded: a summary line with the title and count each, opened with a tap.
    const tags = page.getByRole('region', { name: 'Tags' });
    assert.equal(await tags.locator('details').evaluate((d) => d.open), false);
    assert.equal(await tags.getByLabel('New tag').isVisible(), false);
    const details = page.getByRole('region', { name: 'Details' });
    assert.match(await details.locator('summary').innerText(), /Details\s*\d+/);
    await details.locator('summary').click();
    await details.getByText('Hyannis, MA 02601', { exact: true }).waitFor();
    assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 });
    await screenshot(page, 'record-contact-390');
    await page.setViewportSize(WIDE);
  });

  for (const size of [PHONE, WIDE]) {
    test(`keeps Edit and Delete on screen beside a 200-character name without spaces at ${size.width} px`, async () => {
      await page.setViewportSize(size);
      await go(`/contacts/${made.long.id}`, LONG_NAME);
      for (const control of [page.getByRole('link', { name: 'Edit', exact: true }), page.getByRole('button', { name: 'Delete', exact: true })]) {
        const at = await box(control);
        assert.ok(at.x >= 0 && at.x + at.width <= size.width, `${await control.innerText()} is within the width (${at.x}–${at.x + at.width})`);
        assert.ok(at.y + at.height <= size.height, `${await control.innerText()} is on the first screen`);
      }
      assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 }, 'nothing scrolls sideways');
      const heading = await box(page.getByRole('heading', { name: LONG_NAME }));
      assert.ok(heading.x + heading.width <= size.width, 'the name wraps within the screen');
      await screenshot(page, `record-long-name-${size.width}`);
    });
  }

  test('lays out lead and deal pages the same way, at both widths', async () => {
    for (const size of [WIDE, PHONE]) {
      await page.setViewportSize(size);
      await go(`/leads/${made.lead.id}`, `Jane Doe ${RUN}`);
      await box(page.getByRole('tablist', { name: 'Add to the timeline' }));
      assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 }, `the lead page at ${size.width} px`);
      await screenshot(page, `record-lead-${size.width}`);
      await go(`/deals/${made.deal.id}`, `Spring order ${RUN}`);
      const tabs = await box(page.getByRole('tablist', { name: 'Add to the timeline' }));
      assert.ok(tabs.y + tabs.height <= size.height, `the deal's composer is on the first screen at ${size.width} px`);
      // The conflict panel and the stage stay where a deal is changed.
      await page.getByLabel('Stage').waitFor();
      assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 }, `the deal page at ${size.width} px`);
      await screenshot(page, `record-deal-${size.width}`);
    }
    await page.setViewportSize(WIDE);
  });

  test("lists the deal made from a converted lead, by its useful name, on the person's page", async () => {
    await go(`/leads/${made.lead.id}`, `Jane Doe ${RUN}`);
    await page.getByRole('button', { name: 'Convert' }).click();
    const dialog = page.getByRole('dialog', { name: `Convert Jane Doe ${RUN}` });
    await dialog.getByLabel('Value').fill('2500');
    await dialog.getByRole('button', { name: 'Convert' }).click();
    await page.waitForURL(/\/contacts\/\d+$/);
    await page.getByRole('heading', { name: `Jane Doe ${RUN}`, exact: true }).waitFor();
    const dealName = `Bernhard LLC ${RUN} – Jane Doe ${RUN}`;
    const deals = page.getByRole('region', { name: 'Deals' });
    const link = deals.getByRole('link', { name: dealName, exact: true });
    await link.waitFor();
    const conversion = (await api('GET', `/v2/lead_conversions?lead_id=${made.lead.id}`)).body.items[0].data;
    assert.equal(await link.getAttribute('href'), `/deals/${conversion.deal_id}`);
    assert.equal(await deals.getByText('No deals yet.').count(), 0);
    await screenshot(page, 'record-converted-person-1280');
  });
});

test.describe('lists', () => {
  test('cuts no column off in the contacts list at 1280 px, even a 200-character name', async () => {
    await page.setViewportSize(WIDE);
    await go('/contacts', 'Contacts');
    await screenshot(page, 'list-contacts-1280');
    assert.deepEqual(await clippedCells('.contact-table [role=columnheader], .contact-table [role=cell]'), []);
    await page.getByLabel('Search contacts').fill(LONG_NAME.slice(0, 50));
    await page.getByRole('link', { name: LONG_NAME, exact: true }).waitFor();
    assert.deepEqual(await clippedCells('.contact-table [role=columnheader], .contact-table [role=cell]'), []);
    assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 });
    await screenshot(page, 'list-contacts-long-1280');
  });

  test('cuts no column off in the leads list at 1280 px, with its widest emails', async () => {
    await go('/leads', 'Leads');
    const table = page.getByRole('table', { name: 'Leads' });
    await table.locator('tbody tr').first().waitFor();
    assert.deepEqual(await clippedCells('table[aria-label=Leads] th, table[aria-label=Leads] td'), []);
    const frame = await page.locator('.table-frame').first().evaluate((el) => el.scrollWidth - el.clientWidth);
    assert.equal(frame, 0, 'the table fits its frame: nothing to scroll to');
    await page.getByLabel('Search leads').fill(`Doe ${RUN}`);
    await table.getByRole('link', { name: `Jane Doe ${RUN}` }).waitFor();
    assert.deepEqual(await clippedCells('table[aria-label=Leads] th, table[aria-label=Leads] td'), []);
    // One phone format in the list too.
    await table.getByRole('row').filter({ hasText: `Jane Doe ${RUN}` }).getByRole('link', { name: '+1 720 555 0101' }).waitFor();
    await screenshot(page, 'list-leads-1280');
  });

  test('shows the lists as cards on a phone without scrolling sideways', async () => {
    await page.setViewportSize(PHONE);
    await go('/contacts', 'Contacts');
    assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 });
    await screenshot(page, 'list-contacts-390');
    await go('/leads', 'Leads');
    assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 });
    await screenshot(page, 'list-leads-390');
    await page.setViewportSize(WIDE);
  });
});

