import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi as api, screenshot, signIn, closeContexts, settled } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

// Settings' administration screens: pipelines and stages, sources
// and reasons, custom fields, as an admin and as an agent, and the warning a
// sequence with email steps carries while the hub has no mail server. Other
// specs share the hub: everything made here is deleted at the end.

const RUN = Date.now().toString(36);
const PIPELINE = `Partners ${RUN}`;
const SOURCE = `Trade fair ${RUN}`;
const REASON = `Went quiet ${RUN}`;
const FIELD = `Tier ${RUN}`;
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

let browser;
let seededHub;
let admin;
let agent;
let smtpConfigured;
const made = { pipelines: [], leadSources: [], lossReasons: [], contactFields: [], sequences: [], templates: [] };

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
  agent = await signIn(browser, seededHub, 'agent');
  smtpConfigured = (await api(admin, 'GET', '/v2/accounts/self')).body.data.smtp_configured;
});
test.afterAll(async () => {
  if (admin) {
    for (const id of made.sequences) await api(admin, 'DELETE', `/v2/sequences/${id}`);
    for (const id of made.templates) await api(admin, 'DELETE', `/v2/email_templates/${id}`);
    for (const id of made.pipelines) await api(admin, 'DELETE', `/v2/pipelines/${id}`);
    for (const id of made.leadSources) await api(admin, 'DELETE', `/v2/lead_sources/${id}`);
    for (const id of made.lossReasons) await api(admin, 'DELETE', `/v2/loss_reasons/${id}`);
    for (const id of made.contactFields) await api(admin, 'DELETE', `/v2/contact/custom_fields/${id}`);
  }
  await closeContexts(browser);
});

/** Opens a screen by its path, as a link or a bookmark would, and waits for its heading. */
async function visit(page, path, heading) {
  await page.goto(`${seededHub.url}${path}`);
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

/** Whether the page scrolls sideways (it must not, down to a phone's width). */
const scrollsSideways = (page) => page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);

/** Waits for a screen's lists, and on Pipelines and stages for the deal counts. */
async function loaded(page) {
  await page.locator('.admin-card').first().waitFor();
  if (await page.locator('.stage-table').count()) await page.locator('.stage-table td.cell-number', { hasText: /^\d+$/ }).first().waitFor();
}

/** Desktop and phone screenshots of the screen at `path`, checking the phone one does not scroll sideways. */
async function shoot(page, path, heading, name) {
  await visit(page, path, heading);
  await loaded(page);
  await screenshot(page, `admin-desktop-${name}`);
  await page.setViewportSize(PHONE);
  await visit(page, path, heading);
  await loaded(page);
  assert.equal(await scrollsSideways(page), false, `${path} scrolls sideways on a phone`);
  await page.screenshot({ path: `e2e/screenshots/admin-phone-${name}.png`, fullPage: true });
  await page.setViewportSize(DESKTOP);
}

const focusedLabel = (page) => page.evaluate(() => document.activeElement?.getAttribute('aria-label'));
const idByName = async (page, path, name) => (await api(page, 'GET', `${path}?name=${encodeURIComponent(name)}`)).body.items[0]?.data.id;

test.describe('pipelines and stages', () => {
  test('lets an admin add a pipeline and its stages, reorder them with the keyboard and set a likelihood', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await admin.getByRole('region', { name: 'Administration' }).scrollIntoViewIfNeeded();
    await screenshot(admin, 'admin-desktop-settings');
    await admin.getByRole('region', { name: 'Administration' }).getByRole('link', { name: 'Pipelines and stages' }).click();
    await admin.getByRole('heading', { name: 'Pipelines and stages', exact: true }).waitFor();

    const adding = admin.getByRole('form', { name: 'New pipeline' });
    await adding.getByLabel('New pipeline').fill(PIPELINE);
    await adding.getByRole('button', { name: 'Add pipeline' }).click();
    const card = admin.getByRole('region', { name: `Pipeline ${PIPELINE}` });
    await card.waitFor();
    made.pipelines.push(await idByName(admin, '/v2/pipelines', PIPELINE));

    await card.getByText('Add a stage').click();
    const stageForm = card.getByRole('form', { name: `Add a stage to ${PIPELINE}` });
    for (const [name, category] of [['Talking', 'Incoming'], ['Pilot', 'In progress'], ['Review', 'In progress']]) {
      await stageForm.getByLabel('Stage name').fill(name);
      await stageForm.getByLabel('Category').selectOption({ label: category });
      await stageForm.getByRole('button', { name: 'Add stage' }).click();
      await card.getByRole('row', { name }).waitFor();
    }
    // A stage name used twice in a pipeline is refused, by the field.
    await stageForm.getByLabel('Stage name').fill('Pilot');
    await stageForm.getByRole('button', { name: 'Add stage' }).click();
    await stageForm.locator('.field.invalid').filter({ hasText: 'Stage name' }).getByRole('alert').waitFor();

    // Review up twice with the keyboard: the focus stays on its arrows as the rows move.
    const position = (name, n) => card.getByRole('row', { name }).locator('td.cell-muted', { hasText: new RegExp(`^${n}$`) });
    await card.getByRole('button', { name: 'Move Review up' }).focus();
    await admin.keyboard.press('Enter');
    await position('Review', 2).waitFor();
    assert.equal(await focusedLabel(admin), 'Move Review up');
    await admin.keyboard.press('Enter');
    await position('Review', 1).waitFor();
    assert.equal(await focusedLabel(admin), 'Move Review down', 'at the top, the focus moves to the arrow still enabled');
    await admin.keyboard.press('Enter');
    await position('Review', 2).waitFor();

    await card.getByRole('button', { name: 'Edit stage Review' }).click();
    const edit = card.getByRole('form', { name: 'Edit stage Review' });
    await edit.getByLabel('Win likelihood (%)').fill('150');
    await edit.getByRole('button', { name: 'Save stage' }).click();
    const error = edit.locator('.field.invalid').filter({ hasText: 'Win likelihood (%)' }).getByRole('alert');
    assert.match(await error.innerText(), /at most 100/);
    await edit.getByLabel('Win likelihood (%)').fill('80');
    await edit.getByRole('button', { name: 'Save stage' }).click();
    await edit.waitFor({ state: 'detached' });
    await card.getByRole('row', { name: 'Review' }).getByText('80 %').waitFor();

    const stages = (await api(admin, 'GET', `/v2/stages?pipeline_id=${made.pipelines[0]}`)).body.items.map((i) => i.data);
    assert.deepEqual(stages.map((s) => [s.name, s.position]), [['Talking', 1], ['Review', 2], ['Pilot', 3]]);
    assert.equal(stages[1].likelihood, 80);
    await shoot(admin, '/settings/pipelines', 'Pipelines and stages', 'pipelines');
  });

  test('shows the new order on the deals board', async () => {
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deals', exact: true }).click();
    await admin.getByLabel('Pipeline').selectOption({ label: PIPELINE });
    await admin.locator('.board-column[aria-label="Pilot"]').waitFor();
    const columns = await admin.locator('.board-column h2').allInnerTexts();
    assert.deepEqual(columns, ['Talking', 'Review', 'Pilot']);
  });

  test('says why a stage holding deals cannot be deleted', async () => {
    const stage = (await api(admin, 'GET', `/v2/stages?pipeline_id=${made.pipelines[0]}&name=Pilot`)).body.items[0].data.id;
    const contact = (await api(admin, 'GET', '/v2/contacts?per_page=1')).body.items[0].data.id;
    const deal = (await api(admin, 'POST', '/v2/deals', { name: `Pilot deal ${RUN}`, contact_id: contact, stage_id: stage })).body.data.id;
    try {
      await visit(admin, '/settings/pipelines', 'Pipelines and stages');
      const card = admin.getByRole('region', { name: `Pipeline ${PIPELINE}` });
      const row = card.getByRole('row', { name: 'Pilot' });
      await row.getByRole('cell', { name: '1', exact: true }).waitFor();
      await row.getByRole('button', { name: 'Delete stage Pilot' }).click();
      const confirm = admin.getByRole('alertdialog', { name: 'Delete stage Pilot?' });
      await confirm.getByRole('button', { name: 'Delete' }).click();
      assert.match(await confirm.getByRole('alert').innerText(), /The stage holds 1 deal\(s\): move them to another stage/);
      await confirm.getByRole('button', { name: 'Cancel' }).click();
      await confirm.waitFor({ state: 'detached' });
    } finally {
      await api(admin, 'DELETE', `/v2/deals/${deal}`);
    }
  });
});

test.describe('sources and reasons', () => {
  test('adds, renames and deletes a lead source and a loss reason; the lead form offers the source', async () => {
    await visit(admin, '/settings/lists', 'Sources and reasons');
    const sources = admin.getByRole('region', { name: 'Lead sources' });
    await sources.getByRole('textbox', { name: 'New lead source' }).fill(`${SOURCE} draft`);
    await sources.getByRole('button', { name: 'Add', exact: true }).click();
    await sources.getByRole('row', { name: `${SOURCE} draft` }).waitFor();
    made.leadSources.push(await idByName(admin, '/v2/lead_sources', `${SOURCE} draft`));
    await sources.getByRole('button', { name: `Rename lead source ${SOURCE} draft` }).click();
    const rename = sources.getByRole('form', { name: `Rename lead source ${SOURCE} draft` });
    await rename.getByLabel('Name').fill(SOURCE);
    await rename.getByRole('button', { name: 'Save' }).click();
    await sources.getByRole('row', { name: SOURCE, exact: true }).waitFor();
    // Lead sources' names are unique: the refusal shows by the field.
    await sources.getByRole('textbox', { name: 'New lead source' }).fill(SOURCE);
    await sources.getByRole('button', { name: 'Add', exact: true }).click();
    await sources.locator('.field.invalid').filter({ hasText: 'New lead source' }).getByRole('alert').waitFor();

    const reasons = admin.getByRole('region', { name: 'Loss reasons' });
    await reasons.getByRole('textbox', { name: 'New loss reason' }).fill(REASON);
    await reasons.getByRole('button', { name: 'Add', exact: true }).click();
    await reasons.getByRole('row', { name: REASON }).waitFor();
    made.lossReasons.push(await idByName(admin, '/v2/loss_reasons', REASON));
    await shoot(admin, '/settings/lists', 'Sources and reasons', 'lists');

    await visit(admin, '/leads/new', 'New lead');
    await admin.getByLabel('Source').locator('option', { hasText: SOURCE }).waitFor({ state: 'attached' });
    // A deal put in a lost stage asks why, offering the new reason.
    const lost = (await api(admin, 'GET', '/v2/stages?category=lost')).body.items[0].data.id;
    await visit(admin, '/deals/new', 'New deal');
    await admin.getByLabel('Stage').selectOption(String(lost));
    await admin.getByLabel('Loss reason').locator('option', { hasText: REASON }).waitFor({ state: 'attached' });

    await visit(admin, '/settings/lists', 'Sources and reasons');
    for (const [region, noun, name] of [['Lead sources', 'lead source', SOURCE], ['Loss reasons', 'loss reason', REASON]]) {
      const card = admin.getByRole('region', { name: region });
      await card.getByRole('button', { name: `Delete ${noun} ${name}` }).click();
      await admin.getByRole('alertdialog', { name: `Delete ${noun} ${name}?` }).getByRole('button', { name: 'Delete' }).click();
      await card.getByRole('row', { name, exact: true }).waitFor({ state: 'detached' });
    }
    assert.equal(await idByName(admin, '/v2/lead_sources', SOURCE), undefined);
    assert.equal(await idByName(admin, '/v2/loss_reasons', REASON), undefined);
  });
});

test.describe('custom fields', () => {
  test('adds a dropdown to contacts, which the contact form then shows, and deletes it', async () => {
    await visit(admin, '/settings/fields', 'Custom fields');
    await admin.getByRole('tab', { name: 'Contacts' }).waitFor();
    const form = admin.getByRole('form', { name: 'New contact field' });
    await form.getByLabel('Field name').fill(FIELD);
    await form.getByLabel('Type').selectOption({ label: 'Dropdown' });
    await form.getByRole('button', { name: 'Add field' }).click();
    await form.locator('.field.invalid').filter({ hasText: 'Choices' }).getByRole('alert').waitFor();
    await form.getByLabel('Choices (one a line)').fill('Gold\nSilver\nBronze');
    await form.getByRole('button', { name: 'Add field' }).click();
    const row = admin.getByRole('row', { name: FIELD });
    await row.getByText('Gold, Silver, Bronze').waitFor();
    made.contactFields.push((await api(admin, 'GET', '/v2/contact/custom_fields')).body.items.find((i) => i.data.name === FIELD).data.id);
    await shoot(admin, '/settings/fields', 'Custom fields', 'fields');

    await visit(admin, '/contacts/new', 'New contact');
    await admin.getByLabel(FIELD).locator('option', { hasText: 'Silver' }).waitFor({ state: 'attached' });

    await visit(admin, '/settings/fields', 'Custom fields');
    await admin.getByRole('button', { name: `Delete field ${FIELD}` }).click();
    const confirm = admin.getByRole('alertdialog', { name: `Delete field ${FIELD}?` });
    assert.match(await confirm.innerText(), /Its values go from every contact/);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await admin.getByRole('row', { name: FIELD }).waitFor({ state: 'detached' });
    const left = (await api(admin, 'GET', '/v2/contact/custom_fields')).body.items.map((i) => i.data.name);
    assert.ok(!left.includes(FIELD));
  });

  test('shows the lead and deal tabs too', async () => {
    await admin.getByRole('tab', { name: 'Deals' }).click();
    await admin.getByRole('form', { name: 'New deal field' }).waitFor();
    assert.equal(await admin.getByRole('tab', { name: 'Deals' }).getAttribute('aria-selected'), 'true');
  });
});

test.describe('as an agent', () => {
  test('shows no Administration card and the screens read only', async () => {
    await visit(agent, '/settings', 'Settings');
    await agent.getByRole('region', { name: 'Custom objects' }).waitFor();
    assert.equal(await agent.getByRole('region', { name: 'Administration' }).count(), 0);
    for (const [path, heading] of [['/settings/pipelines', 'Pipelines and stages'], ['/settings/lists', 'Sources and reasons'], ['/settings/fields', 'Custom fields']]) {
      await visit(agent, path, heading);
      await agent.getByText('Only administrators can change these.').waitFor();
      await agent.locator('.admin-card').first().waitFor();
      assert.equal(await agent.getByRole('button', { name: /^(Rename|Delete|Edit|Move) / }).count(), 0, `${path} has edit controls`);
      assert.equal(await agent.locator('form').count(), 0, `${path} has a form`);
    }
    await screenshot(agent, 'admin-desktop-agent-fields');
  });
});

test.describe('sequences without a mail server', () => {
  test('warn on the sequence, in its form and when enrolling a record', async () => {
    // GET never shows the SMTP URL, so a configured one could not be put back: leave it alone.
    test.skip(smtpConfigured !== false, 'this hub has a mail server set up');
    const template = (await api(admin, 'POST', '/v2/email_templates', { name: `Hello ${RUN}`, subject: 'Hello', body: 'Hi there' })).body.data.id;
    made.templates.push(template);
    const sequence = (await api(admin, 'POST', '/v2/sequences', {
      name: `Mailer ${RUN}`,
      steps: [{ delay_from_previous_step: 1, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: template, is_reply: false } }],
    })).body.data.id;
    made.sequences.push(sequence);
    const warning = (page) => page.getByRole('status').filter({ hasText: "Email steps can't be sent: no mail server is set up." });

    await visit(admin, `/sequences/${sequence}`, `Mailer ${RUN}`);
    await warning(admin).getByRole('link', { name: 'Settings' }).waitFor();
    await screenshot(admin, 'admin-desktop-sequence-warning');
    await visit(admin, `/sequences/${sequence}/edit`, 'Edit sequence');
    await warning(admin).waitFor();

    const contact = (await api(admin, 'GET', '/v2/contacts?per_page=1&is_organization=false')).body.items[0].data;
    await admin.goto(`${seededHub.url}/contacts/${contact.id}`);
    await admin.getByRole('heading', { name: contact.name, exact: true }).waitFor();
    const enrolling = admin.getByRole('region', { name: 'Sequences' });
    await enrolling.getByLabel('Enroll in a sequence').selectOption({ label: `Mailer ${RUN}` });
    await warning(enrolling).waitFor();
    await admin.setViewportSize(PHONE);
    await enrolling.scrollIntoViewIfNeeded();
    await screenshot(admin, 'admin-phone-enroll-warning');
    await admin.setViewportSize(DESKTOP);

    // An agent is told too, without a link to a screen they cannot change.
    await visit(agent, `/sequences/${sequence}`, `Mailer ${RUN}`);
    await warning(agent).waitFor();
    assert.equal(await warning(agent).getByRole('link').count(), 0);
  });
});

test.describe('Exchange rates', () => {
  const card = (page) => page.getByRole('region', { name: 'Exchange rates' });
  let before;

  test('lets an admin add, change and remove a rate in Settings, each with when it was set, and the board converts with it', async () => {
    before = (await api(admin, 'GET', '/v2/exchange_rates')).body.items.map((i) => i.data);
    const { currency } = (await api(admin, 'GET', '/v2/accounts/self')).body.data;
    assert.ok(!before.some((r) => r.currency === 'CHF'), 'no CHF rate yet');
    await visit(admin, '/settings', 'Settings');
    const rates = card(admin);
    await rates.getByRole('heading', { name: 'Exchange rates' }).waitFor();
    // Add one: the currency from the list, the rate typed.
    const add = rates.getByRole('form', { name: 'Add an exchange rate' });
    await add.getByLabel('Currency', { exact: true }).selectOption('CHF');
    await add.getByLabel(`1 CHF in ${currency}`).fill('abc');
    await add.getByRole('button', { name: 'Add rate' }).click();
    await add.getByRole('alert').filter({ hasText: 'A positive number' }).waitFor();
    await add.getByLabel(`1 CHF in ${currency}`).fill('1.1325');
    await add.getByRole('button', { name: 'Add rate' }).click();
    await rates.getByRole('status').filter({ hasText: 'Added the rate of CHF.' }).waitFor();
    const row = rates.getByRole('listitem', { name: 'CHF' });
    assert.equal(await row.getByLabel(`Rate of CHF in ${currency}`).inputValue(), '1.1325');
    const saved = (await api(admin, 'GET', '/v2/exchange_rates/CHF')).body.data;
    assert.equal(saved.rate, '1.1325');
    // When it was set, in the user's own words for a date.
    const setOn = await admin.evaluate((iso) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), saved.set_at);
    await row.getByText(`Set ${setOn}`).waitFor();
    await screenshot(admin, 'settings-exchange-rates-1280');

    // Change it.
    await row.getByLabel(`Rate of CHF in ${currency}`).fill('1.14');
    await row.getByRole('button', { name: 'Save' }).click();
    await rates.getByRole('status').filter({ hasText: 'Saved the rate of CHF.' }).waitFor();
    assert.equal((await api(admin, 'GET', '/v2/exchange_rates/CHF')).body.data.rate, '1.14');

    // A deal in francs now counts in its column's total, at that rate.
    const stages = (await api(admin, 'GET', '/v2/stages?per_page=100')).body.items.map((i) => i.data);
    const incoming = stages.find((st) => st.name === 'Incoming');
    const contactId = (await api(admin, 'GET', '/v2/contacts?per_page=1')).body.items[0].data.id;
    const deal = (await api(admin, 'POST', '/v2/deals', { name: `Francs ${RUN}`, value: '1000', currency: 'CHF', contact_id: contactId, stage_id: incoming.id })).body.data;
    try {
      await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Deals', exact: true }).click();
      const total = admin.getByRole('region', { name: 'Incoming', exact: true }).locator('.deal-total');
      await total.locator('summary').click();
      const francs = await admin.evaluate((c) => `${new Intl.NumberFormat(undefined, { style: 'currency', currency: 'CHF' }).format('1000')} (× 1.14 ${c})`, currency);
      await total.getByRole('list', { name: 'Original amounts' }).getByText(francs).waitFor();
      assert.equal(await total.getByText('without an exchange rate').count(), 0);
    } finally {
      await api(admin, 'DELETE', `/v2/deals/${deal.id}`);
    }

    // Remove it.
    await visit(admin, '/settings', 'Settings');
    await card(admin).getByRole('listitem', { name: 'CHF' }).getByRole('button', { name: 'Remove the rate of CHF' }).click();
    await card(admin).getByRole('status').filter({ hasText: 'Removed the rate of CHF.' }).waitFor();
    assert.equal((await api(admin, 'GET', '/v2/exchange_rates/CHF')).status, 404);

    await admin.setViewportSize(PHONE);
    await card(admin).scrollIntoViewIfNeeded();
    await settled(admin); // the navigation drawer slides out of sight at phone width
    await screenshot(admin, 'settings-exchange-rates-390');
    assert.equal(await scrollsSideways(admin), false);
    await admin.setViewportSize(DESKTOP);
  });

  test('shows agents the rates read only, and the API refuses their changes with 403', async () => {
    await visit(agent, '/settings', 'Settings');
    const rates = card(agent);
    await rates.getByRole('heading', { name: 'Exchange rates' }).waitFor();
    const first = before[0];
    await rates.getByRole('listitem', { name: first.currency }).waitFor();
    assert.equal(await rates.getByRole('textbox').count(), 0);
    assert.equal(await rates.getByRole('button').count(), 0);
    const refused = await api(agent, 'PUT', `/v2/exchange_rates/${first.currency}`, { rate: '9' });
    assert.equal(refused.status, 403);
    await screenshot(agent, 'settings-exchange-rates-agent');
  });

  test('sets the account currency from the ISO 4217 list, saying the rates go with a change', async () => {
    await visit(admin, '/settings', 'Settings');
    const form = admin.getByRole('form', { name: 'Account currency' });
    const select = form.getByLabel('Account currency', { exact: true });
    assert.equal(await select.locator('option[value="XYZ"]').count(), 0);
    const { currency } = (await api(admin, 'GET', '/v2/accounts/self')).body.data;
    assert.equal(await select.inputValue(), currency);
    await select.selectOption('JPY');
    await form.getByRole('note').filter({ hasText: `Changing the currency removes the ${before.length} exchange rates` }).waitFor();
    await screenshot(admin, 'settings-account-currency');
    // Not saved: the other specs' hub keeps its currency and rates.
    await select.selectOption(currency);
    assert.equal(await form.getByRole('note').count(), 0);
    const refused = await api(admin, 'PUT', '/v2/accounts/self', { currency: 'XYZ' });
    assert.equal(refused.status, 422);
  });
});

