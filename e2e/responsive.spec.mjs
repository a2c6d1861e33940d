// Every screen on a phone (390 × 844, a few at 360 × 740) and on a laptop
// (1280 × 800): nothing scrolls the page sideways, the navigation opens from
// the top bar's menu button, unknown addresses show a not-found page, lists
// say how many records they have in all. Screenshots of every screen at both
// widths: e2e/screenshots/phone-*.png and desktop-*.png.
//
// Other specs share the hub: the account's plan and add-ons are set so every
// screen has something to show, and put back as they were afterwards, as is
// the custom object made here.
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { HUB, launch, pageApi, screenshot, signIn } from './browser.mjs';

const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const OBJECT = 'site_visit_form';

let browser;
let page;
let account;
/** The records the record screens show, found or made in `before`. */
const made = {};

const api = (method, path, data) => pageApi(page, method, path, data);
const items = async (path) => (await api('GET', path)).body.items.map((i) => i.data);

/** A call to the custom-objects interface (its bodies are not in the /v2 envelope). */
function support(method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
    const headers = { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' };
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    return { status: response.status, body: await response.text() };
  }, { method, path, body });
}

async function makeFixtures() {
  account = (await api('GET', '/v2/accounts/self')).body.data;
  // Products and enrollments show only on a plan and with add-ons that have them.
  await api('PUT', '/v2/accounts/self', { plan: 'elite', addons: ['outbound_sequences'], commerce_changes: 'enabled' });
  // A person in an organization, and that organization with its people; one of their deals if they have one.
  made.person = (await items('/v2/contacts?is_organization=false&per_page=100')).find((c) => c.contact_id);
  made.organization = (await api('GET', `/v2/contacts/${made.person.contact_id}`)).body.data;
  made.lead = (await items('/v2/leads?sort_by=updated_at:desc&per_page=1'))[0];
  made.deal = (await items(`/v2/deals?contact_id=${made.person.id}&per_page=1`))[0] ?? (await items('/v2/deals?per_page=1'))[0];
  made.sequence = (await items('/v2/sequences?per_page=1'))[0];
  const enrolled = await api('POST', '/v2/sequence_enrollments', { sequence_id: made.sequence.id, resource_type: 'contact', resource_id: made.person.id });
  made.enrollment = enrolled.status === 200 ? enrolled.body.data : (await items('/v2/sequence_enrollments?per_page=1'))[0];
  await support('POST', '/api/v2/custom_objects', { custom_object: { key: OBJECT, title: 'Site visit form', title_pluralized: 'Site visit forms' } });
  for (const [key, type, title] of [['visited_on', 'date', 'Visited on'], ['checklist_done', 'checkbox', 'Checklist done'], ['notes', 'textarea', 'Notes']]) {
    await support('POST', `/api/v2/custom_objects/${OBJECT}/fields`, { custom_object_field: { key, type, title } });
  }
  for (const name of ['Denver store, March', 'Boulder depot, April']) {
    await support('POST', `/api/v2/custom_objects/${OBJECT}/records`, { custom_object_record: { name, custom_object_fields: { visited_on: '2026-03-02', checklist_done: true } } });
  }
  // The app reads the objects when it starts: once more, with the new one.
  await page.reload();
  await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
}

/** Every screen: a name for its screenshot, its path, and a heading that says it is there. */
function screens() {
  const { person, organization, lead, deal, sequence, enrollment } = made;
  const personName = [person.first_name, person.last_name].filter(Boolean).join(' ');
  return [
    ['today', '/', 'Today'],
    ['contacts', '/contacts', 'Contacts'],
    ['contact', `/contacts/${person.id}`, personName],
    ['organization', `/contacts/${organization.id}`, organization.name],
    ['contact-new', '/contacts/new', 'New contact'],
    ['contact-edit', `/contacts/${person.id}/edit`, 'Edit contact'],
    ['contacts-import-csv', '/contacts/import', 'Import contacts from CSV'],
    ['contacts-import-vcard', '/contacts/import-vcard', 'Import contacts from vCard'],
    ['leads', '/leads', 'Leads'],
    ['lead', `/leads/${lead.id}`, [lead.first_name, lead.last_name].filter(Boolean).join(' ') || lead.organization_name],
    ['lead-new', '/leads/new', 'New lead'],
    ['deals', '/deals', 'Deals'],
    ['deal', `/deals/${deal.id}`, deal.name],
    ['deal-new', '/deals/new', 'New deal'],
    ['tasks', '/tasks', 'Tasks'],
    ['notes', '/notes', 'Notes'],
    ['reports', '/reports', 'Reports'],
    ['products', '/products', 'Products'],
    ['sequences', '/sequences', 'Sequences'],
    ['sequence', `/sequences/${sequence.id}`, sequence.name],
    ['sequence-new', '/sequences/new', 'New sequence'],
    ['enrollments', '/enrollments', 'Enrollments'],
    ['enrollment', `/enrollments/${enrollment.id}`, enrollment.sequence.data.name],
    ['settings', '/settings', 'Settings'],
    ['custom-objects', '/settings/custom-objects', 'Custom objects'],
    ['custom-object', `/settings/custom-objects/${OBJECT}`, 'Site visit form'],
    ['objects', '/objects', 'Objects'],
    ['object-records', `/objects/${OBJECT}`, 'Site visit forms'],
    ['object-record-new', `/objects/${OBJECT}/new`, 'New Site visit form'],
    ['sync-issues', '/sync-issues', 'Sync issues'],
    ['not-found', '/somewhere/else', 'Page not found'],
  ];
}

/** Opens a screen the way the app's links do (the hub serves the UI at its own paths only). */
async function go(path, heading) {
  await page.evaluate((to) => {
    window.history.pushState(null, '', to);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }, path);
  await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
  // Panels, names and counts arrive after the heading.
  await page.waitForTimeout(700);
}

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
  for (const [name, path, heading] of screens()) {
    if (only && !only.includes(name)) continue;
    await go(path, heading);
    assert.deepEqual(await sidewaysOverflow(), { page: 0, screen: 0 }, `${name} at ${size.width} px scrolls sideways`);
    await screenshot(page, `${prefix}-${name}`);
  }
}

before(async () => {
  browser = await launch();
  page = await signIn(browser);
  await makeFixtures();
});
after(async () => {
  if (page) {
    await support('DELETE', `/api/v2/custom_objects/${OBJECT}`);
    if (made.enrollment?.state === 'active') await api('PUT', `/v2/sequence_enrollments/${made.enrollment.id}`, { state: 'finished' });
    if (account) await api('PUT', '/v2/accounts/self', { plan: account.plan, addons: account.addons, commerce_changes: account.commerce_changes });
  }
  await browser?.close();
});

describe('phones and small laptops', () => {
  const menu = () => page.getByRole('button', { name: 'Menu' });
  const nav = () => page.getByRole('navigation', { name: 'Main' });

  it('opens the navigation from the menu button on a phone, with the user and sync status in it', async () => {
    await page.setViewportSize(PHONE);
    await go('/', 'Today');
    assert.equal(await nav().getByRole('link', { name: 'Leads' }).isVisible(), false, 'the navigation is shut');
    await menu().click();
    assert.equal(await menu().getAttribute('aria-expanded'), 'true');
    await nav().getByRole('link', { name: 'Leads' }).waitFor();
    await nav().getByRole('button', { name: 'Sign out' }).waitFor();
    await nav().getByText('Administrator').waitFor();
    await page.waitForTimeout(300); // the drawer slides in
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

  it('fits every screen on a phone (390 px) without scrolling sideways', async () => {
    await visitAll(PHONE, 'phone');
  });

  it('fits the narrowest phones (360 px) too', async () => {
    await visitAll(SMALL_PHONE, 'phone360', ['contacts', 'contact', 'deals', 'deal', 'lead-new', 'products', 'object-records']);
  });

  it('keeps the deals board scrolling inside itself, with a visible hint', async () => {
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

  it('shows every screen on a laptop (1280 px), the whole deals board included', async () => {
    await visitAll(DESKTOP, 'desktop');
    await go('/deals', 'Deals');
    for (const stage of ['Incoming', 'Won', 'Lost']) assert.ok(await page.getByRole('region', { name: stage, exact: true }).isVisible(), `${stage} is on screen`);
    assert.equal(await page.getByText('More stages to the right').count(), 0, 'nothing to scroll to');
  });
});

describe('not found and list totals', () => {
  it('shows a not-found page for an address the app has no screen for', async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(`${HUB}/contacts/not-a-contact`);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    // An address outside every screen's: the hub answers 404 with the app, which says the same.
    const answer = await page.goto(`${HUB}/somewhere/else`);
    assert.equal(answer.status(), 404);
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await page.getByRole('link', { name: 'Go to Today' }).click();
    await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
  });

  it('says how many records a list has in all', async () => {
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

describe('words people use', () => {
  it('names the field by its label in a validation message, shown once', async () => {
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

  it('finds notes with a search, each linking its record', async () => {
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
