// What a rep notices in the first hour: phone numbers in one format on the
// Duplicates cards, the merge view's words (empty, same on both), phones
// compared as numbers and addresses chosen part by part; an email or phone
// that cannot be one is not a link; a custom field named with an apostrophe;
// a field's error gone once it is fixed; the reports fitting a phone.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
let page;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// Email groups come first, by key: digits sort before letters, so this group is on the first page.
const EMAIL = '0-0-first.hour@firsthour.test';
const RUN = Date.now().toString(36);

async function created(path, data) {
  const answer = await pageApi(page, 'POST', path, data);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.id;
}

async function visit(path, heading) {
  await page.goto(`${seededHub.url}${path}`);
  await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
}

/** After a change of width: the drawer and anything else moving has come to rest, so a screenshot shows the layout. */
const settled = () => page.waitForFunction(() => document.getAnimations().every((animation) => animation.playState !== 'running'));

/** How far the page scrolls sideways (0 when it fits). */
const sideways = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub, 'admin', { locale: 'en-US' });
});
test.afterAll(() => closeContexts(browser));

test.describe('duplicates and merging', () => {
  let survivor;
  let other;

  test('shows both records’ phone numbers on the Duplicates card in one international format, at 1280 and 390 px', async () => {
    survivor = await created('/v2/contacts', {
      first_name: 'Hour', last_name: `First ${RUN}`, email: EMAIL, phone: '(312) 847-2066', title: 'Buyer',
      address: { line1: '1 Main St', city: 'Chicago', postal_code: null, state: 'IL', country: 'US' },
    });
    other = await created('/v2/contacts', {
      first_name: 'Hour', last_name: `First ${RUN}`, email: EMAIL, phone: '+1 312-847-2066',
      address: { line1: '1 Main Street', city: 'Chicago', postal_code: '60601', state: 'IL', country: 'US' },
    });
    await visit('/duplicates', 'Duplicates');
    const card = page.locator('.duplicate-group').filter({ hasText: EMAIL });
    await card.waitFor();
    const lines = await card.locator('.duplicate-records li').allTextContents();
    assert.equal(lines.length, 2);
    for (const line of lines) assert.match(line, /\+1 312 847 2066/, line);
    assert.doesNotMatch(lines.join(' '), /\(312\)|312-847/);
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'first-hour-duplicates-1280');
    await page.setViewportSize(PHONE);
    await settled();
    await card.scrollIntoViewIfNeeded();
    await screenshot(page, 'first-hour-duplicates-390');
    assert.equal(await sideways(), 0);
    await page.setViewportSize(DESKTOP);
  });

  test('says empty and same in words, takes the two spellings of one number as the same, and chooses an address part by part', async () => {
    await page.locator('.duplicate-group').filter({ hasText: EMAIL }).getByRole('link', { name: /^Merge/ }).click();
    await page.getByRole('heading', { name: 'Merge contacts' }).waitFor();
    // The same on both: the phone (two spellings), the email, the city; nothing to choose there.
    const same = page.locator('.merge-row').filter({ has: page.locator('.merge-legend', { hasText: 'Same on both' }) });
    const alike = await same.locator('.merge-joined').textContent();
    for (const field of ['Phone', 'Email', 'Address: city', 'Address: state', 'Address: country']) assert.ok(alike.includes(field), `${field} in "${alike}"`);
    assert.equal(await page.getByRole('group', { name: 'Phone' }).count(), 0);
    // A blank value reads "empty", never a dash or "none".
    const title = page.getByRole('group', { name: 'Title' });
    await title.getByRole('radio', { name: 'Buyer' }).waitFor();
    await title.getByRole('radio', { name: 'empty' }).waitFor();
    const postalCode = page.getByRole('group', { name: 'Address: postal code' });
    assert.equal(await postalCode.getByRole('radio', { name: '60601' }).isChecked(), true, 'a blank part is filled from the other by default');
    await postalCode.getByRole('radio', { name: 'empty' }).waitFor();
    const mergeText = await page.locator('.merge-table').textContent();
    assert.doesNotMatch(mergeText, /—|\bnone\b|\bcurrent\b/);
    // The street is chosen on its own: the other's.
    const street = page.getByRole('group', { name: 'Address: street' });
    await street.getByRole('radio', { name: '1 Main Street' }).check();
    await screenshot(page, 'first-hour-merge-1280');
    await page.setViewportSize(PHONE);
    await settled();
    await page.getByRole('heading', { name: 'Merge contacts' }).scrollIntoViewIfNeeded();
    await screenshot(page, 'first-hour-merge-390');
    assert.equal(await sideways(), 0);
    await page.setViewportSize(DESKTOP);

    await page.getByRole('button', { name: /^Merge into/ }).click();
    await page.waitForURL(new RegExp(`/contacts/${survivor}$`));
    const merged = (await pageApi(page, 'GET', `/v2/contacts/${survivor}`)).body.data;
    assert.deepEqual(merged.address, { line1: '1 Main Street', city: 'Chicago', postal_code: '60601', state: 'IL', country: 'US' });
    assert.equal(merged.phone, '(312) 847-2066', 'the survivor keeps its own spelling');
    assert.equal((await pageApi(page, 'GET', `/v2/contacts/${other}`)).status, 404);
  });
});

test.describe('contact points', () => {
  test('shows an email or a phone that cannot be one as plain text, and a real one as a link', async () => {
    const id = await created('/v2/contacts', { first_name: 'Plain', last_name: `Text ${RUN}`, email: 'bob@', phone: 'call me', mobile: '+44 7700 900123' });
    await visit(`/contacts/${id}`, `Plain Text ${RUN}`);
    const main = page.locator('main');
    await main.getByText('bob@', { exact: true }).first().waitFor();
    await main.getByText('call me', { exact: true }).first().waitFor();
    assert.equal(await main.getByRole('link', { name: 'bob@' }).count(), 0);
    assert.equal(await main.getByRole('link', { name: 'call me' }).count(), 0);
    assert.equal(await main.locator('a[href^="mailto:bob"], a[href="tel:"]').count(), 0);
    const mobile = main.getByRole('link', { name: '+44 7700 900123' }).first();
    assert.equal(await mobile.getAttribute('href'), 'tel:+447700900123');
  });
});

test.describe('custom fields form', () => {
  test('says what is wrong in words, drops the error once the name is typed, and takes a name with an apostrophe', async () => {
    await visit('/settings/fields', 'Custom fields');
    const form = page.getByRole('form', { name: 'New contact field' });
    const name = form.getByRole('textbox', { name: 'Field name' });
    await form.getByRole('button', { name: 'Add field' }).click();
    const error = form.locator('.field-error');
    await error.waitFor();
    assert.equal(await error.textContent(), 'Enter the field name.');
    assert.equal(await name.getAttribute('aria-invalid'), 'true');
    await screenshot(page, 'first-hour-field-error-1280');
    await page.setViewportSize(PHONE);
    await settled();
    await form.scrollIntoViewIfNeeded();
    await screenshot(page, 'first-hour-field-error-390');
    assert.equal(await sideways(), 0);
    await page.setViewportSize(DESKTOP);

    // A tab (pasted from a spreadsheet, say) is refused in words, not as a validator's message.
    await name.fill('Rep\tnote');
    await error.waitFor({ state: 'detached' });
    await form.getByRole('button', { name: 'Add field' }).click();
    await error.waitFor();
    assert.equal(await error.textContent(), 'The field name must be one line of text, without tabs.');

    // Fixing the field takes its error away at once, before any save.
    const fieldName = `Rep's note ${RUN}`;
    await name.fill(fieldName);
    await error.waitFor({ state: 'detached' });
    assert.equal(await name.getAttribute('aria-invalid'), 'false');
    assert.equal(await name.inputValue(), `Rep's note ${RUN}`, 'the typing is kept');
    await form.getByRole('button', { name: 'Add field' }).click();
    await page.getByRole('table', { name: 'Custom fields of contacts' }).getByText(fieldName, { exact: true }).waitFor();
    const definitions = (await pageApi(page, 'GET', '/v2/contact/custom_fields')).body.items.map((item) => item.data.name);
    assert.ok(definitions.includes(fieldName));
  });
});

test.describe('reports on a phone', () => {
  test('scroll their tables inside their cards: the page is never wider than 390 px', async () => {
    await page.setViewportSize(PHONE);
    await settled();
    await visit('/reports', 'Reports');
    const tables = page.getByRole('region', { name: /^Table: / });
    await tables.first().waitFor();
    await page.locator('.report-table').nth(1).waitFor();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      tables: [...document.querySelectorAll('.report-table-wrap')].map((wrap) => wrap.getBoundingClientRect().right),
    }));
    assert.ok(widths.page <= 390, `page ${widths.page} px wide`);
    for (const right of widths.tables) assert.ok(right <= 390, `a table's box ends at ${right} px`);
    await tables.first().scrollIntoViewIfNeeded();
    await screenshot(page, 'first-hour-reports-390');
    await page.setViewportSize(DESKTOP);
  });
});
