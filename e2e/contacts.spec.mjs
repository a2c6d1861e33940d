import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { asSharedComputer, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
});
test.afterAll(() => closeContexts(browser));

/** Waits until the list shows exactly one row, the one with this text (not the loading row). */
function waitForOnlyRow(page, text) {
  return page.waitForFunction((wanted) => {
    const rows = [...document.querySelectorAll('[data-testid=contact-scroller] [role=row]')];
    return rows.length === 1 && rows[0].textContent.includes(wanted);
  }, text);
}

test.describe('signing in', () => {
  test('refuses a wrong password and lets the right one in', async () => {
    const page = await browser.newPage();
    await page.goto(seededHub.url);
    await page.getByLabel('Email').fill(seededHub.admin.email);
    await asSharedComputer(page);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
    await screenshot(page, '01-sign-in-error');
    await page.getByLabel('Password').fill(seededHub.admin.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
    assert.equal(new URL(page.url()).pathname, '/');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('heading', { name: 'Contacts' }).waitFor();
    await screenshot(page, '02-contacts-list');
    await page.close();
  });
});

test.describe('contacts', () => {
  let page;
  test.beforeAll(async () => {
    page = await signIn(browser, seededHub);
  });
  test.afterAll(() => page?.close());

  test('creates an organization, then a person in it', async () => {
    await page.getByRole('link', { name: 'New contact' }).click();
    await page.getByRole('radio', { name: 'Organization' }).check();
    await page.getByLabel('Name *').fill('Zephyr Outfitters');
    await page.getByLabel('Customer status').selectOption('current');
    await page.getByRole('group', { name: 'Billing address' }).getByLabel('city').fill('Denver');
    await page.getByLabel('Tags (comma-separated)').fill('key-account, e2e');
    await screenshot(page, '03-new-organization');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Zephyr Outfitters' }).waitFor();
    const orgUrl = page.url();

    await page.getByRole('link', { name: 'Add a person' }).click();
    await page.getByLabel('First name').fill('Quinn');
    await page.getByLabel('Last name *').fill('Marlowe');
    await page.getByLabel('Email').fill('quinn@zephyr.test');
    await page.getByLabel('Phone').fill('+1 303 555 0199');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Quinn Marlowe' }).waitFor();
    // The organization is in the person's details, and in the header beside how to reach them.
    await page.getByRole('region', { name: 'Details' }).getByRole('link', { name: 'Zephyr Outfitters' }).waitFor();
    await page.locator('.record-header').getByRole('link', { name: 'Zephyr Outfitters' }).waitFor();
    await screenshot(page, '04-person-page');

    await page.goto(orgUrl);
    await page.getByRole('heading', { name: 'People' }).waitFor();
    await page.getByRole('link', { name: 'Quinn Marlowe' }).waitFor();
    await screenshot(page, '05-organization-page');
  });

  test('edits the person', async () => {
    await page.getByRole('link', { name: 'Quinn Marlowe' }).click();
    await page.getByRole('link', { name: 'Edit' }).click();
    await page.getByLabel('Title').fill('Head of Purchasing');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Head of Purchasing').first().waitFor();
    await screenshot(page, '06-person-edited');
  });

  test('shows the API field error next to the field', async () => {
    await page.getByRole('link', { name: 'Contacts' }).click();
    await page.getByRole('link', { name: 'New contact' }).click();
    await page.getByLabel('First name').fill('Nameless');
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('.field.invalid').filter({ hasText: 'Last name' }).getByRole('alert');
    await error.waitFor();
    // In a rep's words, naming the field (not the API's "last_name can't be blank"), once: no summary repeats it under the form.
    assert.equal(await error.textContent(), 'Enter the person’s last name.');
    // The failed save brings the rep to it.
    assert.equal(await page.evaluate(() => document.activeElement?.closest('.field')?.querySelector('[role=alert]')?.textContent), 'Enter the person’s last name.');
    assert.equal(await page.locator('.form-error').count(), 0);
    await screenshot(page, '07-validation-error');
  });

  test('searches as you type and filters the list', async () => {
    await page.getByRole('link', { name: 'Contacts' }).click();
    const rows = page.getByTestId('contact-scroller').getByRole('row');
    await rows.first().waitFor();
    await page.getByLabel('Search contacts').fill('quinn marl');
    await waitForOnlyRow(page, 'Quinn Marlowe');
    await screenshot(page, '08-search');

    await page.getByLabel('Search contacts').fill('');
    await page.getByLabel('Kind').selectOption('organizations');
    await page.getByLabel('Customer status').selectOption('current');
    await page.getByLabel('Tag').fill('e2e');
    await waitForOnlyRow(page, 'Zephyr Outfitters');
    await screenshot(page, '09-filters');

    await page.getByLabel('Tag').fill('');
    await page.getByLabel('Customer status').selectOption('');
    await page.getByRole('button', { name: /^Name/ }).click();
    await page.getByRole('columnheader', { name: /Name/ }).and(page.locator('[aria-sort=descending]')).waitFor();
    await screenshot(page, '10-sorted-desc');
  });

  test('scrolls through pages of the virtualised list', async () => {
    await page.getByLabel('Kind').selectOption('all');
    const scroller = page.getByTestId('contact-scroller');
    await scroller.getByRole('row').first().waitFor();
    for (let i = 0; i < 10; i++) await scroller.evaluate((el) => el.scrollBy(0, 4000));
    // More than the first page loaded: "1–200 of 512" or further.
    await page.waitForFunction(() => /^1–(1\d\d|[2-9]\d\d) of /.test(document.querySelector('.count')?.textContent ?? ''));
    const rendered = await scroller.getByRole('row').count();
    assert.ok(rendered < 80, `only the visible rows are in the DOM (${rendered})`);
    await screenshot(page, '11-scrolled');
  });
});
