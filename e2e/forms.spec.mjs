// Forms that help: the API's refusals in a rep's words naming the
// field by its label, amounts typed as people type them, warnings as email,
// website and phone are typed (Save still works), a reminder explained before
// Save, quick picks for dates, a task linked to a record from the Tasks screen,
// multi-select custom fields as checkboxes, and, on a phone, a failed save that
// scrolls to and focuses its first error.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const MARK = `Frm${Date.now().toString(36)}`;
/** API names and messages a rep must never read. */
const API_WORDING = /content can't be blank|remind_at|due_date|must be a decimal number|"1000\.25"|last_name|is required/;

let browser;
let seededHub;
let page;
let contact;
let multiField;
let dealNumberField;

const api = (method, path, data) => pageApi(page, method, path, data);
/** A call to the custom-objects interface (/api/v2), whose bodies are not in the /v2 envelope. */
const support = (method, path, body) => page.evaluate(async ({ method, path, body }) => {
  const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
  const response = await fetch(path, { method, headers: { Authorization: `Bearer ${access}`, 'Content-Type': 'application/json' }, body: body && JSON.stringify(body) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}, { method, path, body });
const pad = (n) => String(n).padStart(2, '0');
const dayOf = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** A `datetime-local` value `ms` from now, in the page's (and this process's) time zone. */
const localIn = (ms) => {
  const d = new Date(Date.now() + ms);
  return `${dayOf(d)}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};
/** The field (its control, message and quick picks) labelled `label` within `scope` (a page or a form). */
const fieldOf = (scope, label) => {
  // The inner locator is looked for within each field, so it starts from the page, not from the form.
  const root = typeof scope.page === 'function' ? scope.page() : scope;
  return scope.locator('.field').filter({ has: root.getByLabel(label, { exact: true }) });
};

async function formText(locator) {
  return (await locator.innerText()).replace(/\s+/g, ' ');
}

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub, 'admin', { locale: 'en-US' });
  contact = (await api('POST', '/v2/contacts', { first_name: 'Fiona', last_name: `Formfield ${MARK}`, email: `fiona.${MARK.toLowerCase()}@example.com` })).body.data;
  const field = await api('POST', '/v2/contact/custom_fields', { name: `Interests ${MARK}`, type: 'multi_select_list', choices: [{ name: 'Boats' }, { name: 'Bikes' }, { name: 'Cars' }] });
  assert.ok(field.status < 300, JSON.stringify(field.body));
  multiField = field.body.data;
  dealNumberField = (await api('POST', '/v2/deal/custom_fields', { name: `Fleet ${MARK}`, type: 'number' })).body.data;
});

test.afterAll(async () => {
  if (multiField) await api('DELETE', `/v2/contact/custom_fields/${multiField.id}`);
  if (dealNumberField) await api('DELETE', `/v2/deal/custom_fields/${dealNumberField.id}`);
  await closeContexts(browser);
});

test.describe('forms in a rep’s words', () => {
  test('asks for the note in words, where the API says "content can\'t be blank."', async () => {
    await page.goto(new URL(`/contacts/${contact.id}`, page.url()).href);
    const form = page.getByRole('form', { name: 'New note' });
    await form.getByRole('button', { name: 'Add note' }).click();
    const error = fieldOf(form, 'Note').getByRole('alert');
    await error.waitFor();
    assert.equal(await error.innerText(), 'Write the note before saving.');
    const note = form.getByLabel('Note', { exact: true });
    assert.equal(await note.getAttribute('aria-invalid'), 'true');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('placeholder')), 'Write a note', 'the failed save focuses the note');
    assert.doesNotMatch(await formText(form), API_WORDING);
    const describedBy = await note.getAttribute('aria-describedby');
    assert.equal(await page.locator(`[id="${describedBy}"]`).innerText(), 'Write the note before saving.', 'the error describes the field');
  });

  test('explains a reminder after the due date before Save, and in the same words after', async () => {
    await page.getByRole('tab', { name: 'Task', exact: true }).click();
    const form = page.getByRole('form', { name: 'New task' });
    await form.getByLabel('Task', { exact: true }).fill(`Call back ${MARK}`);
    await form.getByLabel('Due', { exact: true }).fill(localIn(24 * 3600_000));
    await form.getByLabel('Reminder', { exact: true }).fill(localIn(26 * 3600_000));
    const warning = fieldOf(form, 'Reminder').getByRole('status');
    await warning.waitFor();
    assert.equal(await warning.innerText(), 'The reminder must be before the due date.');
    await screenshot(page, 'forms-01-reminder-after-due');
    await form.getByRole('button', { name: 'Add task' }).click();
    const error = fieldOf(form, 'Reminder').getByRole('alert');
    await error.waitFor();
    assert.equal(await error.innerText(), 'The reminder must be before the due date.');
    assert.doesNotMatch(await formText(form), API_WORDING);
    // In the past it is only said: the task saves.
    await form.getByLabel('Reminder', { exact: true }).fill(localIn(-3600_000));
    await fieldOf(form, 'Reminder').getByText('The reminder is in the past: it will show at once.').waitFor();
    await form.getByRole('button', { name: 'Add task' }).click();
    await page.getByText(`Call back ${MARK}`).first().waitFor();
  });

  test('fills dates with quick picks', async () => {
    await page.getByRole('tab', { name: 'Task', exact: true }).click();
    const form = page.getByRole('form', { name: 'New task' });
    await form.getByLabel('Due', { exact: true }).fill('');
    await fieldOf(form, 'Due').getByRole('button', { name: 'Tomorrow' }).click();
    const tomorrow = new Date();
    tomorrow.setDate(tomorrow.getDate() + 1);
    assert.equal(await form.getByLabel('Due', { exact: true }).inputValue(), `${dayOf(tomorrow)}T09:00`);
    await fieldOf(form, 'Reminder').getByRole('button', { name: 'Next week' }).click();
    // Next week is after tomorrow's due date: said at once.
    await fieldOf(form, 'Reminder').getByText('The reminder must be before the due date.').waitFor();
    await fieldOf(form, 'Reminder').getByRole('button', { name: 'Today' }).click();
    assert.match(await form.getByLabel('Reminder', { exact: true }).inputValue(), new RegExp(`^${dayOf(new Date())}T`));

    await page.goto(new URL('/deals/new', page.url()).href);
    await page.getByRole('heading', { name: 'New deal' }).waitFor();
    await fieldOf(page, 'Expected close date').getByRole('button', { name: 'Next week' }).click();
    const nextWeek = new Date();
    nextWeek.setDate(nextWeek.getDate() + 7);
    assert.equal(await page.getByLabel('Expected close date', { exact: true }).inputValue(), dayOf(nextWeek));
  });

  test('takes a deal value as people type it, and asks for a number in words where the API says "must be a decimal number"', async () => {
    await page.getByLabel('Name *').fill(`Harbour fit-out ${MARK}`);
    await page.getByLabel('Contact *', { exact: true }).fill('Formfield');
    await page.getByRole('listbox', { name: 'Contact suggestions' }).getByRole('button', { name: new RegExp(MARK) }).click();
    const value = page.getByLabel('Value', { exact: true });
    await value.fill('twelve grand');
    await value.blur();
    await fieldOf(page, 'Value').getByRole('status').filter({ hasText: 'Enter the value as a number, such as 12,500.50.' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    const error = fieldOf(page, 'Value').getByRole('alert');
    await error.waitFor();
    assert.equal(await error.innerText(), 'Enter the value as a number, such as 12,500.50.');
    assert.doesNotMatch(await formText(page.getByRole('form', { name: 'New deal' })), API_WORDING);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-invalid')), 'true');

    await value.fill('12,500');
    await value.blur();
    assert.equal(await value.inputValue(), '12,500', 'written back in the rep’s way');
    // A number custom field of deals is typed the same way.
    await page.getByLabel(`Fleet ${MARK}`, { exact: true }).fill('1,250.5');
    await screenshot(page, 'forms-02-deal-value');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: `Harbour fit-out ${MARK}` }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const deal = (await api('GET', `/v2/deals/${id}`)).body.data;
    assert.equal(deal.value, '12500');
    assert.equal(deal.custom_fields[`Fleet ${MARK}`], 1250.5);
  });

  test('reads amounts the German way in a German browser', async () => {
    const german = await signIn(browser, seededHub, 'admin', { locale: 'de-DE' });
    await german.goto(new URL('/deals/new', german.url()).href);
    await german.getByLabel('Name *').fill(`Werft ${MARK}`);
    await german.getByLabel('Contact *', { exact: true }).fill('Formfield');
    await german.getByRole('listbox', { name: 'Contact suggestions' }).getByRole('button', { name: new RegExp(MARK) }).click();
    await german.getByLabel('Value', { exact: true }).fill('12.500,50');
    await german.getByRole('button', { name: 'Save' }).click();
    await german.getByRole('heading', { name: `Werft ${MARK}` }).waitFor();
    const id = Number(new URL(german.url()).pathname.split('/').pop());
    assert.equal((await pageApi(german, 'GET', `/v2/deals/${id}`)).body.data.value, '12500.5');
    await german.context().close();
  });

  test('warns about an email that does not look like one, and saves it all the same', async () => {
    await page.goto(new URL('/contacts/new', page.url()).href);
    await page.getByLabel('Last name *').fill(`Warned ${MARK}`);
    const email = page.getByLabel('Email', { exact: true });
    await email.fill('pat at example');
    await page.getByLabel('Website', { exact: true }).fill('example');
    await page.getByLabel('Phone', { exact: true }).fill('12');
    await page.getByLabel('Title', { exact: true }).click();
    const warning = fieldOf(page, 'Email').getByRole('status');
    await warning.waitFor();
    assert.match(await warning.innerText(), /does not look like an email address .* You can still save it\./);
    await fieldOf(page, 'Website').getByRole('status').filter({ hasText: 'does not look like a web address' }).waitFor();
    await fieldOf(page, 'Phone').getByRole('status').filter({ hasText: 'does not look like a phone number' }).waitFor();
    assert.equal(await email.getAttribute('aria-invalid'), 'false', 'a warning is no error');
    await screenshot(page, 'forms-03-contact-warnings');
    // Corrected as typed: the warning goes.
    await page.getByLabel('Phone', { exact: true }).fill('+44 20 7946 0958');
    await fieldOf(page, 'Phone').getByRole('status').waitFor({ state: 'detached' });

    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: `Warned ${MARK}` }).waitFor();
    const id = Number(new URL(page.url()).pathname.split('/').pop());
    const saved = (await api('GET', `/v2/contacts/${id}`)).body.data;
    assert.equal(saved.email, 'pat at example');
    assert.equal(saved.website, 'example');
  });

  test('saves at the first press of Save straight from a field with a warning (the warning moves nothing from under the press)', async () => {
    await page.goto(new URL('/contacts/new', page.url()).href);
    await page.getByLabel('Last name *').fill(`Hasty ${MARK}`);
    await page.getByLabel('Phone', { exact: true }).fill('555');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: `Hasty ${MARK}` }).waitFor();
  });

  test('shows a multi-select custom field as checkboxes, and saves what is ticked', async () => {
    await page.goto(new URL(`/contacts/${contact.id}/edit`, page.url()).href);
    const group = page.getByRole('group', { name: `Interests ${MARK}` });
    await group.waitFor();
    assert.equal(await page.locator('select[multiple]').count(), 0, 'no Ctrl-click list');
    await group.getByRole('checkbox', { name: 'Cars' }).check();
    await group.getByRole('checkbox', { name: 'Boats' }).check();
    await group.scrollIntoViewIfNeeded();
    await screenshot(page, 'forms-04-multi-select');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: new RegExp(`Formfield ${MARK}`) }).waitFor();
    const saved = (await api('GET', `/v2/contacts/${contact.id}`)).body.data;
    assert.deepEqual(saved.custom_fields[`Interests ${MARK}`], ['Boats', 'Cars'], 'in the order the choices are offered');
  });
});

test.describe('a custom object’s record form', () => {
  const key = `boat_${MARK.toLowerCase()}`;
  test.beforeAll(async () => {
    const made = await support('POST', '/api/v2/custom_objects', { custom_object: { key, title: 'Boat', title_pluralized: 'Boats' } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const fields = [
      { type: 'decimal', key: 'price', title: 'Price' },
      { type: 'date', key: 'launched', title: 'Launched' },
      { type: 'multiselect', key: 'extras', title: 'Extras', custom_field_options: [{ name: 'Sails', value: 'sails' }, { name: 'Motor', value: 'motor' }, { name: 'Trailer', value: 'trailer' }] },
    ];
    for (const field of fields) {
      const answer = await support('POST', `/api/v2/custom_objects/${key}/fields`, { custom_object_field: field });
      assert.equal(answer.status, 201, JSON.stringify(answer.body));
    }
  });

  test('takes a price as people type it, dates by quick pick and extras as checkboxes; a refusal in words', async () => {
    await page.goto(new URL(`/objects/${key}/new`, page.url()).href);
    const form = page.getByRole('form', { name: 'New Boat' });
    await form.waitFor();
    await form.getByLabel('Price', { exact: true }).fill('24 999.50');
    await fieldOf(form, 'Launched').getByRole('button', { name: 'Today' }).click();
    assert.equal(await form.getByLabel('Launched', { exact: true }).inputValue(), dayOf(new Date()));
    await form.getByRole('group', { name: 'Extras' }).getByRole('checkbox', { name: 'Trailer' }).check();
    await form.getByRole('group', { name: 'Extras' }).getByRole('checkbox', { name: 'Sails' }).check();
    await form.getByRole('button', { name: 'Save boat' }).click();
    const error = fieldOf(form, 'Name *').getByRole('alert');
    await error.waitFor();
    assert.equal(await error.innerText(), 'Enter the name.');
    await screenshot(page, 'forms-09-object-record');
    await form.getByLabel('Name *').fill(`Skiff ${MARK}`);
    await form.getByRole('button', { name: 'Save boat' }).click();
    await page.getByRole('link', { name: `Skiff ${MARK}`, exact: true }).waitFor();
    const records = (await support('GET', `/api/v2/custom_objects/${key}/records`)).body.custom_object_records;
    const saved = records.find((r) => r.name === `Skiff ${MARK}`);
    assert.equal(saved.custom_object_fields.price, '24999.5');
    assert.deepEqual(saved.custom_object_fields.extras, ['sails', 'trailer']);
  });
});

test.describe('a task made on the Tasks screen', () => {
  test('is linked to the contact picked, and shows on that contact’s page', async () => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Tasks' }).click();
    await page.getByRole('heading', { name: 'Tasks', exact: true }).waitFor();
    const form = page.getByRole('form', { name: 'New task' });
    await form.getByLabel('Task', { exact: true }).fill(`Send the brochure ${MARK}`);
    await fieldOf(form, 'Due').getByRole('button', { name: 'Tomorrow' }).click();
    await form.getByLabel('About (contact, lead or deal; optional)').fill(`Formfield ${MARK}`);
    await form.getByRole('list', { name: 'Matching records' }).getByRole('button', { name: new RegExp(`Contact · Fiona Formfield ${MARK}`) }).click();
    await form.getByText(`About contact Fiona Formfield ${MARK}`).waitFor();
    await screenshot(page, 'forms-05-task-about');
    await form.getByRole('button', { name: 'Add task' }).click();
    await form.getByLabel('About (contact, lead or deal; optional)').waitFor();
    const tasks = (await api('GET', `/v2/tasks?resource_type=contact&resource_id=${contact.id}&per_page=100`)).body.items.map((i) => i.data);
    const task = tasks.find((t) => t.content === `Send the brochure ${MARK}`);
    assert.ok(task, 'the task belongs to the contact');
    await page.goto(new URL(`/contacts/${contact.id}`, page.url()).href);
    await page.getByText(`Send the brochure ${MARK}`).first().waitFor();
  });
});

test.describe('on a phone', () => {
  let phone;
  test.beforeAll(async () => {
    phone = await signIn(browser, seededHub, 'admin', { locale: 'en-US' });
    await phone.setViewportSize(PHONE);
  });
  test.afterAll(() => phone.context().close());

  test('scrolls a failed save to its first error and focuses it', async () => {
    await phone.goto(new URL('/contacts/new', phone.url()).href);
    await phone.getByRole('heading', { name: 'New contact' }).waitFor();
    await phone.getByLabel('Email', { exact: true }).fill(`nobody.${MARK.toLowerCase()}@example.com`);
    const save = phone.getByRole('button', { name: 'Save' });
    await save.scrollIntoViewIfNeeded();
    const lastName = phone.getByLabel('Last name *');
    const before = await lastName.boundingBox();
    assert.ok(before.y + before.height < 0 || before.y > PHONE.height, 'the last name is out of view when Save is pressed');
    await save.click();
    await fieldOf(phone, 'Last name *').getByRole('alert').waitFor();
    await phone.waitForFunction(() => document.activeElement?.getAttribute('aria-invalid') === 'true');
    const focused = await phone.evaluate(() => {
      const el = document.activeElement;
      const box = el.getBoundingClientRect();
      return { label: el.closest('label')?.firstChild?.textContent, top: box.top, bottom: box.bottom, height: window.innerHeight };
    });
    assert.equal(focused.label, 'Last name *');
    assert.ok(focused.top >= 0 && focused.bottom <= focused.height, `the focused field is in view (${focused.top}–${focused.bottom} of ${focused.height})`);
    assert.equal(await fieldOf(phone, 'Last name *').getByRole('alert').innerText(), 'Enter the person’s last name.');
    await screenshot(phone, 'forms-06-phone-first-error');
  });

  test('shows the task form with its quick picks and record picker at a phone’s width', async () => {
    await phone.goto(new URL('/tasks', phone.url()).href);
    const form = phone.getByRole('form', { name: 'New task' });
    await form.waitFor();
    await form.getByLabel('Due', { exact: true }).fill(localIn(3600_000));
    await form.getByLabel('Reminder', { exact: true }).fill(localIn(2 * 3600_000));
    await fieldOf(form, 'Reminder').getByRole('status').waitFor();
    const width = await phone.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= PHONE.width, `nothing wider than the phone (${width} px)`);
    await screenshot(phone, 'forms-07-phone-task-form');
  });

  test('shows the lead, call and object record forms at a phone’s width, as at a desktop’s', async () => {
    for (const [p, size] of [[phone, 'phone'], [page, 'desktop']]) {
      await p.goto(new URL('/leads/new', p.url()).href);
      await p.getByRole('heading', { name: 'New lead' }).waitFor();
      await p.getByLabel('Website', { exact: true }).fill('not a site');
      await p.getByLabel('Email', { exact: true }).fill('lee@example');
      await p.getByLabel('Title', { exact: true }).click();
      await fieldOf(p, 'Email').getByRole('status').waitFor();
      await p.getByRole('button', { name: 'Save' }).click();
      await p.locator('.form-error, .field-error').first().waitFor();
      await screenshot(p, `forms-10-lead-${size}`);
      assert.doesNotMatch(await formText(p.getByRole('form', { name: 'New lead' })), API_WORDING);

      await p.goto(new URL(`/contacts/${contact.id}`, p.url()).href);
      await p.getByRole('tab', { name: 'Call', exact: true }).click();
      const call = p.getByRole('form', { name: 'Log a call' });
      await call.getByLabel('Phone number').fill('');
      await call.getByRole('button', { name: 'Log call' }).click();
      const error = fieldOf(call, 'Phone number').getByRole('alert');
      await error.waitFor();
      assert.equal(await error.innerText(), 'Enter the number that was called.');
      await call.getByLabel('Phone number').fill('5');
      await call.getByLabel('Summary').click();
      await call.scrollIntoViewIfNeeded();
      await screenshot(p, `forms-11-call-${size}`);

      await p.goto(new URL(`/objects/boat_${MARK.toLowerCase()}/new`, p.url()).href);
      await p.getByRole('form', { name: 'New Boat' }).getByLabel('Price', { exact: true }).fill('lots');
      await p.getByRole('form', { name: 'New Boat' }).getByLabel('Name *').click();
      await fieldOf(p, 'Price').getByRole('status').waitFor();
      await screenshot(p, `forms-12-object-record-${size}`);
    }
  });

  test('shows the deal form at a phone’s width', async () => {
    await phone.goto(new URL('/deals/new', phone.url()).href);
    await phone.getByRole('heading', { name: 'New deal' }).waitFor();
    await phone.getByLabel('Value', { exact: true }).fill('abc');
    await phone.getByLabel('Value', { exact: true }).blur();
    await fieldOf(phone, 'Value').getByRole('status').waitFor();
    await screenshot(phone, 'forms-08-phone-deal-form');
  });
});
