// Every screen on a phone (390 × 844, a few at 360 × 740) and on a laptop
// (1280 × 800): nothing scrolls the page sideways, the navigation opens from
// the top bar's menu button, unknown addresses show a not-found page, lists
// say how many records they have in all. Screenshots of every screen at both
// widths: e2e/screenshots/phone-*.png and desktop-*.png. The screens and the
// records they show: e2e/screens.mjs.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi, screenshot, signIn, closeContexts, settled } from './browser.mjs';
import { DESKTOP, PHONE, SMALL_PHONE, go as goTo, makeFixtures, removeFixtures, screens } from './screens.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
let page;
/** The records the record screens show, found or made in `before` (e2e/screens.mjs). */
let made;

const api = (method, path, data) => pageApi(page, method, path, data);
const items = async (path) => (await api('GET', path)).body.items.map((i) => i.data);
const go = (path, heading) => goTo(page, path, heading);

/** How far the page, and the screen inside the shell, scroll sideways: 0 when everything fits the width. */
function sidewaysOverflow() {
  return page.evaluate(() => {
    const main = document.querySelector('main.content');
    return {
      page: document.documentElement.scrollWidth - window.innerWidth,
      screen: main ? main.scrollWidth - main.clientWidth : 0,
    };
  });
}

async function visitAll(size, prefix, only = null) {
  await page.setViewportSize(size);
  for (const [name, path, heading] of screens(made)) {
    if (only && !only.includes(name)) continue;
    await go(path, heading);
    assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 }, `${name} at ${size.width} px scrolls sideways`);
    await screenshot(page, `${prefix}-${name}`);
  }
}

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
  made = await makeFixtures(page);
});
test.afterAll(async () => {
  if (page && made) await removeFixtures(page, made);
  await closeContexts(browser);
});

test.describe('phones and small laptops', () => {
  const menu = () => page.getByRole('button', { name: 'Menu' });
  const nav = () => page.getByRole('navigation', { name: 'Main' });

  test('opens the navigation from the menu button on a phone, with the user and sync status in it', async () => {
    await page.setViewportSize(PHONE);
    await go('/', 'Today');
    assert.equal(await nav().getByRole('link', { name: 'Leads' }).isVisible(), false, 'the navigation is shut');
    await menu().click();
    assert.equal(await menu().getAttribute('aria-expanded'), 'true');
    await nav().getByRole('link', { name: 'Leads' }).waitFor();
    await nav().getByRole('button', { name: 'Sign out' }).waitFor();
    await nav().getByText('Administrator').waitFor();
    await settled(page); // the drawer slides in
    await screenshot(page, 'phone-navigation-open');

    await page.keyboard.press('Escape');
    await nav().getByRole('link', { name: 'Leads' }).waitFor({ state: 'hidden' });
    assert.equal(await menu().evaluate((el) => el === document.activeElement), true, 'the keyboard is back on the menu button');

    await menu().click();
    await nav().getByRole('link', { name: 'Leads' }).click();
    await page.getByRole('heading', { name: 'Leads', exact: true }).waitFor();
    await nav().getByRole('link', { name: 'Leads' }).waitFor({ state: 'hidden' });
    assert.equal(await menu().getAttribute('aria-expanded'), 'false', 'a choice closes the drawer');
    await go('/', 'Today');
    assert.equal(await nav().getByRole('link', { name: 'Leads' }).isVisible(), false, 'and it stays shut on the next screen');
  });

  test('fits every screen on a phone (390 px) without scrolling sideways', async () => {
    test.slow(); // every screen, each measured and screenshot: three times the usual time
    await visitAll(PHONE, 'phone');
  });

  test('fits the narrowest phones (360 px) too', async () => {
    await visitAll(SMALL_PHONE, 'phone360', ['contacts', 'contact', 'deals', 'deal', 'lead-new', 'products', 'object-records']);
  });

  test('keeps the deals board scrolling inside itself, with a visible hint', async () => {
    await page.setViewportSize(PHONE);
    await go('/deals', 'Deals');
    const board = page.locator('.board');
    assert.ok(await board.evaluate((el) => el.scrollWidth > el.clientWidth), 'the board is wider than the phone');
    await page.getByText('More stages to the right').waitFor();
    await page.getByRole('button', { name: 'Show more stages' }).click();
    await page.waitForFunction(() => document.querySelector('.board').scrollLeft > 0);
    await page.getByRole('button', { name: 'Show earlier stages' }).waitFor();
    assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 });
    await screenshot(page, 'phone-deals-scrolled');
  });

  test('shows every screen on a laptop (1280 px), the whole deals board included', async () => {
    test.slow(); // every screen, each measured and screenshot: three times the usual time
    await visitAll(DESKTOP, 'desktop');
    await go('/deals', 'Deals');
    for (const stage of ['Incoming', 'Won', 'Lost']) assert.ok(await page.getByRole('region', { name: stage, exact: true }).isVisible(), `${stage} is on screen`);
    assert.equal(await page.getByText('More stages to the right').count(), 0, 'nothing to scroll to');
  });
});

test.describe('not found and list totals', () => {
  test('shows a not-found page for an address the app has no screen for', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${seededHub.url}/contacts/not-a-contact`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    // An address outside every screen's: the hub answers 404 with the app, which says the same.
    const answer = await page.goto(`${seededHub.url}/somewhere/else`);
    assert.equal(answer.status(), 404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to Today' }).click();
    await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
  });

  test('says how many records a list has in all', async () => {
    const total = (await api('GET', '/v2/contacts?per_page=1&count=true')).body.meta.total_count;
    assert.ok(total >= 500, `the seeded contacts (${total})`);
    await go('/contacts', 'Contacts');
    await page.getByText(`1–100 of ${total.toLocaleString('en-US')}`).waitFor();

    const leads = (await api('GET', '/v2/leads?per_page=1&count=true')).body.meta.total_count;
    await go('/leads', 'Leads');
    await page.getByText(`1–${Math.min(50, leads)} of ${leads.toLocaleString('en-US')}`).waitFor();
    await page.getByLabel('Status').selectOption('Working');
    const working = (await api('GET', '/v2/leads?per_page=1&count=true&status=Working')).body.meta.total_count;
    await page.getByText(`1–${Math.min(50, working)} of ${working}`).waitFor();
  });
});

test.describe('words people use', () => {
  test('names the field by its label in a validation message, shown once', async () => {
    await page.setViewportSize(DESKTOP);
    await go('/contacts/new', 'New contact');
    await page.getByRole('button', { name: 'Save' }).click();
    const error = page.locator('.field.invalid').filter({ hasText: 'Last name' }).getByRole('alert');
    await error.waitFor();
    // In a rep's words, naming the field by its label (the API says "last_name can't be blank for individuals.").
    assert.equal(await error.textContent(), 'Enter the person’s last name.');
    assert.equal(await page.getByText('Enter the person’s last name.').count(), 1, 'once, by the field');
    assert.equal(await page.locator('.form-error').count(), 0, 'no summary repeating it');
    await screenshot(page, 'desktop-contact-new-error');
  });

  test('finds notes with a search, each linking its record', async () => {
    const [note] = await items('/v2/notes?sort_by=created_at:desc&per_page=1');
    const word = note.content.split(/\s+/).find((w) => /^[A-Za-z]{5,}$/.test(w));
    await go('/notes', 'Notes');
    await page.getByLabel('Search notes').fill(word);
    const found = page.getByRole('list', { name: 'Notes' }).getByRole('listitem').first();
    await page.waitForFunction((w) => [...document.querySelectorAll('.note-content')].every((n) => n.textContent.toLowerCase().includes(w.toLowerCase())), word);
    // The record by its name (not "the contact") once the names arrived.
    const link = found.getByRole('link').first().filter({ hasNotText: /^the (contact|lead|deal)$/ });
    await link.waitFor();
    assert.match(await link.getAttribute('href'), /^\/(contacts|leads|deals)\/\d+$/);
    await screenshot(page, 'desktop-notes-searched');
  });
});
