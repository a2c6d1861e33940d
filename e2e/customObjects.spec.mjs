import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { screenshot, signIn, pageApi, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

// Custom objects: the admin defines an object and its fields under Settings,
// the agent works with its records from the navigation. Other specs share the
// hub, so the objects made here and the account's plan are put back as they
// were (in `after` too, should a test fail half way).

let browser;
let seededHub;
let admin;
let agent;
let initialPlan;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
  agent = await signIn(browser, seededHub, 'agent');
  initialPlan = (await pageApi(admin, 'GET', '/v2/accounts/self')).body.data.plan;
});
test.afterAll(async () => {
  if (admin) {
    for (const key of ['vehicle', 'spare_1', 'spare_2', 'spare_3']) await support(admin, 'DELETE', `/api/v2/custom_objects/${key}`);
    if (initialPlan) await pageApi(admin, 'PUT', '/v2/accounts/self', { plan: initialPlan });
  }
  await closeContexts(browser);
});

/**
 * A call to the custom-objects interface as the page's signed-in user. Its
 * bodies are not in the /v2 envelope (`{"custom_object": …}`), so pageApi's
 * `{data}` wrapping does not fit writes; reads go through pageApi.
 */
function support(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
    const headers = { Authorization: `Bearer ${access}`, Accept: 'application/json', 'Content-Type': 'application/json' };
    const response = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }, { method, path, body });
}

const OBJECT = '/api/v2/custom_objects/vehicle';
const records = async (page) => (await pageApi(page, 'GET', `${OBJECT}/records?page[size]=100`)).body.custom_object_records;
/** A form control's error: the `.field.invalid` wrapper holding `label`, and its alert. */
const fieldError = (form, label) => form.locator('.field.invalid').filter({ hasText: label }).getByRole('alert');

/** Waits until an input shows `value` (a lookup picker fills in its record's name once that arrives). */
async function waitForValue(input, value) {
  const element = await input.elementHandle();
  await input.page().waitForFunction(([el, want]) => el.value === want, [element, value]);
}

async function openAdmin(page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('region', { name: 'Custom objects' }).getByRole('link', { name: 'Custom objects' }).click();
  await page.getByRole('heading', { name: 'Custom objects', exact: true }).waitFor();
}

/** Adds a field through the admin's form and waits for its row. */
async function addField(fields, { title, key, type, fill }) {
  const form = fields.getByRole('form', { name: 'Add a field' });
  await form.getByLabel('Field title *').fill(title);
  await form.getByLabel('Field key *').fill(key);
  await form.getByLabel('Type *').selectOption(type);
  if (fill) await fill(form);
  await form.getByRole('button', { name: 'Add field' }).click();
  await fields.getByRole('row', { name: title }).waitFor();
}

test.describe('custom objects', () => {
  let contactId;
  let agentId;

  test('lets an admin define an object, with the interface\'s errors by the form\'s fields', async () => {
    await openAdmin(admin);
    await admin.getByRole('button', { name: 'New object' }).click();
    const form = admin.getByRole('form', { name: 'New custom object' });
    await form.getByLabel('Key *').fill('Bad key!');
    await form.getByLabel('Title *', { exact: true }).fill('Vehicle');
    await form.getByRole('button', { name: 'Create object' }).click();
    await fieldError(form, 'Key').waitFor();
    await fieldError(form, 'Plural title').waitFor();
    await screenshot(admin, '100-custom-object-errors');

    await form.getByLabel('Key *').fill('vehicle');
    await form.getByLabel('Plural title *').fill('Vehicles');
    await form.getByLabel('Description').fill('Company cars and vans');
    await form.getByRole('button', { name: 'Create object' }).click();
    await admin.getByRole('heading', { name: 'Vehicle', exact: true }).waitFor();
    // The navigation lists the new object by its plural title at once.
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vehicles' }).waitFor();

    const object = (await pageApi(admin, 'GET', OBJECT)).body.custom_object;
    assert.deepEqual([object.key, object.title, object.title_pluralized, object.description], ['vehicle', 'Vehicle', 'Vehicles', 'Company cars and vans']);
    assert.equal(await admin.getByRole('form', { name: 'Object details' }).getByLabel('Key *').getAttribute('readonly'), '', 'the key cannot change');

    // Titles and description change in place; the object keeps its key.
    const details = admin.getByRole('form', { name: 'Object details' });
    await details.getByLabel('Description').fill('Company cars, vans and buses');
    await details.getByRole('button', { name: 'Save object' }).click();
    await details.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
    assert.equal((await pageApi(admin, 'GET', OBJECT)).body.custom_object.description, 'Company cars, vans and buses');
  });

  test('adds a text, a drop-down, a pattern field and lookups to a contact, a user and a record of the object', async () => {
    const fields = admin.getByRole('region', { name: 'Fields' });
    await fields.getByRole('row', { name: 'Name', exact: true }).waitFor();
    await addField(fields, { title: 'Model', key: 'model', type: 'text' });
    await addField(fields, {
      title: 'Color', key: 'color', type: 'dropdown', fill: async (form) => {
        await form.getByLabel('Choice 1 name').fill('Racing red');
        await form.getByRole('button', { name: 'Add choice' }).click();
        await form.getByLabel('Choice 2 name').fill('Blue');
        await form.getByLabel('Choice 2 value').fill('blue');
      },
    });
    await addField(fields, { title: 'Plate', key: 'plate', type: 'regexp', fill: (form) => form.getByLabel('Pattern *').fill('^[A-Z]{2}-[0-9]{3}$') });

    // A lookup needs its target: the refusal shows by the picker of targets.
    const form = fields.getByRole('form', { name: 'Add a field' });
    await form.getByLabel('Field title *').fill('Driver');
    await form.getByLabel('Field key *').fill('driver');
    await form.getByLabel('Type *').selectOption('lookup');
    await form.getByRole('button', { name: 'Add field' }).click();
    await fieldError(form, 'Links to').waitFor();
    await form.getByLabel('Links to *').selectOption({ label: 'Contact' });
    await form.getByRole('button', { name: 'Add field' }).click();
    await fields.getByRole('row', { name: 'Driver' }).getByText('Links to Contact').waitFor();
    // Lookups to users and to records of a custom object (this very one: a vehicle towing another).
    await addField(fields, { title: 'Fleet manager', key: 'manager', type: 'lookup', fill: (form) => form.getByLabel('Links to *').selectOption({ label: 'User' }) });
    await addField(fields, { title: 'Towed by', key: 'towed_by', type: 'lookup', fill: (form) => form.getByLabel('Links to *').selectOption({ label: 'Vehicle' }) });
    await fields.getByRole('row', { name: 'Towed by' }).getByText('Links to Vehicle').waitFor();

    // Titles and the active switch change; key and type stay.
    await fields.getByRole('button', { name: 'Edit field Model' }).click();
    const edit = fields.getByRole('form', { name: 'Edit field Model' });
    await edit.getByLabel('Field title *').fill('Model name');
    await edit.getByRole('button', { name: 'Save field' }).click();
    await fields.getByRole('row', { name: 'Model name' }).waitFor();
    await fields.getByRole('row', { name: 'Color' }).getByText('Racing red, Blue').waitFor();
    await screenshot(admin, '101-custom-object-fields');

    const defined = (await pageApi(admin, 'GET', `${OBJECT}/fields`)).body.custom_object_fields;
    const own = defined.filter((f) => !f.system);
    assert.deepEqual(own.map((f) => [f.key, f.type, f.title]), [['model', 'text', 'Model name'], ['color', 'dropdown', 'Color'], ['plate', 'regexp', 'Plate'], ['driver', 'lookup', 'Driver'],
      ['manager', 'lookup', 'Fleet manager'], ['towed_by', 'lookup', 'Towed by']]);
    assert.deepEqual(own[1].custom_field_options.map((o) => [o.name, o.value]), [['Racing red', 'racing_red'], ['Blue', 'blue']]);
    assert.equal(own[2].regexp_for_validation, '^[A-Z]{2}-[0-9]{3}$');
    assert.deepEqual(own.slice(3).map((f) => f.relationship_target_type), ['sell:contact', 'zen:user', 'zen:custom_object:vehicle']);
  });

  test('shows the plan\'s limit on objects next to the form', async () => {
    assert.equal((await pageApi(admin, 'PUT', '/v2/accounts/self', { plan: 'starter' })).status, 200);
    const existing = (await pageApi(admin, 'GET', '/api/v2/custom_objects')).body.custom_objects.length;
    for (let i = existing + 1; i <= 3; i++) {
      const made = await support(admin, 'POST', '/api/v2/custom_objects', { custom_object: { key: `spare_${i}`, title: `Spare ${i}`, title_pluralized: `Spares ${i}` } });
      assert.equal(made.status, 201);
    }
    await openAdmin(admin);
    await admin.getByRole('button', { name: 'New object' }).click();
    const form = admin.getByRole('form', { name: 'New custom object' });
    await form.getByLabel('Key *').fill('boat');
    await form.getByLabel('Title *', { exact: true }).fill('Boat');
    await form.getByLabel('Plural title *').fill('Boats');
    await form.getByRole('button', { name: 'Create object' }).click();
    const refusal = form.locator('.form-error');
    await refusal.waitFor();
    assert.match(await refusal.textContent(), /starter/);
    assert.match(await refusal.textContent(), /3/);
    await screenshot(admin, '102-custom-object-plan-limit');
    assert.equal((await pageApi(admin, 'GET', '/api/v2/custom_objects/boat')).status, 404);

    for (let i = existing + 1; i <= 3; i++) assert.equal((await support(admin, 'DELETE', `/api/v2/custom_objects/spare_${i}`)).status, 204);
    assert.equal((await pageApi(admin, 'PUT', '/v2/accounts/self', { plan: initialPlan })).status, 200);
  });

  test('lets the agent create a record through the form, showing a bad value\'s error by its field', async () => {
    const contact = await pageApi(agent, 'POST', '/v2/contacts', { first_name: 'Vera', last_name: 'Wheeler' });
    assert.equal(contact.status, 200);
    contactId = contact.body.data.id;
    agentId = String((await pageApi(agent, 'GET', '/v2/users/self')).body.data.id);

    // The agent signed in before the object existed: the navigation has it once the app loads again.
    await agent.reload();
    await agent.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vehicles' }).click();
    await agent.getByRole('heading', { name: 'Vehicles', exact: true }).waitFor();
    await agent.getByText('No vehicles yet.').waitFor();

    await agent.getByRole('link', { name: 'New vehicle' }).click();
    const form = agent.getByRole('form', { name: 'New Vehicle' });
    await form.getByLabel('Name *').fill('Van 1');
    await form.getByLabel('Model name').fill('Transit');
    await form.getByLabel('Color').selectOption({ label: 'Blue' });
    await form.getByLabel('Plate').fill('ab 12');
    await form.getByLabel('Driver').fill('Wheel');
    await form.getByRole('listbox', { name: 'Driver suggestions' }).getByRole('button', { name: /Vera Wheeler/ }).click();
    await form.getByRole('button', { name: 'Save vehicle' }).click();
    await fieldError(form, 'Plate').waitFor();
    assert.equal(await form.locator('.field.invalid').count(), 1, 'only the plate is wrong');
    await screenshot(agent, '103-record-field-error');
    assert.equal((await records(agent)).length, 0, 'nothing saved');

    await form.getByLabel('Plate').fill('AB-123');
    await form.getByRole('button', { name: 'Save vehicle' }).click();
    const row = agent.getByRole('row', { name: 'Van 1' });
    await row.getByText('Transit').waitFor();
    await row.getByText('Blue').waitFor();
    await row.getByText('AB-123').waitFor();
    // The lookup shows the contact's name, not its id.
    await row.getByText('Vera Wheeler').waitFor();
    await screenshot(agent, '104-records-list');

    const [saved] = await records(agent);
    assert.equal(saved.name, 'Van 1');
    assert.deepEqual(saved.custom_object_fields, { model: 'Transit', color: 'blue', plate: 'AB-123', driver: String(contactId), manager: null, towed_by: null });
    assert.equal(saved.created_by_user_id, agentId);
  });

  test('lets the agent edit the record: the form starts from its values, and a cleared field is cleared', async () => {
    const truck = await support(agent, 'POST', `${OBJECT}/records`, { custom_object_record: { name: 'Tow truck' } });
    assert.equal(truck.status, 201);
    await agent.getByRole('link', { name: 'Edit Van 1' }).click();
    const form = agent.getByRole('form', { name: 'Edit Van 1' });
    assert.equal(await form.getByLabel('Model name').inputValue(), 'Transit');
    assert.equal(await form.getByLabel('Color').inputValue(), 'blue');
    await waitForValue(form.getByLabel('Driver'), 'Vera Wheeler');
    await form.getByLabel('Name *').fill('Van 1 (long wheelbase)');
    await form.getByLabel('Model name').fill('Transit Custom');
    await form.getByLabel('Color').selectOption({ label: '—' });
    await form.getByLabel('Fleet manager').fill('smi');
    await form.getByRole('listbox', { name: 'Fleet manager suggestions' }).getByRole('button', { name: /Agent Smith/ }).click();
    await form.getByLabel('Towed by').fill('tow');
    await form.getByRole('listbox', { name: 'Towed by suggestions' }).getByRole('button', { name: 'Tow truck' }).click();
    await screenshot(agent, '105-record-edit');
    await form.getByRole('button', { name: 'Save vehicle' }).click();
    const row = agent.getByRole('row', { name: 'Van 1 (long wheelbase)' });
    await row.getByText('Transit Custom').waitFor();
    await row.getByText('Agent Smith').waitFor();
    await row.getByText('Tow truck').waitFor();

    const edited = (await records(agent)).find((r) => r.name === 'Van 1 (long wheelbase)');
    assert.equal(edited.name, 'Van 1 (long wheelbase)');
    assert.deepEqual(edited.custom_object_fields, {
      model: 'Transit Custom', color: null, plate: 'AB-123', driver: String(contactId), manager: agentId, towed_by: truck.body.custom_object_record.id,
    });
    assert.equal(edited.updated_by_user_id, agentId);
  });

  test('pages through the records with the cursors and searches them', async () => {
    for (let i = 1; i <= 26; i++) {
      const made = await support(agent, 'POST', `${OBJECT}/records`, { custom_object_record: { name: `Bus ${String(i).padStart(2, '0')}`, custom_object_fields: { model: 'Citaro' } } });
      assert.equal(made.status, 201);
    }
    await agent.reload();
    const table = agent.getByRole('table', { name: 'Vehicles' });
    // Where the page is in the list: "1–25 of 28", then "26–28 of 28".
    await agent.getByText('1–25 of 28').waitFor();
    await table.getByRole('row', { name: 'Van 1 (long wheelbase)' }).waitFor();
    await agent.getByRole('button', { name: 'Next' }).click();
    await table.getByRole('row', { name: 'Bus 26' }).waitFor();
    await agent.getByText('26–28 of 28').waitFor();
    assert.equal(await agent.getByRole('button', { name: 'Next' }).isDisabled(), true);
    await agent.getByRole('button', { name: 'Previous' }).click();
    await table.getByRole('row', { name: 'Van 1 (long wheelbase)' }).waitFor();
    assert.equal(await agent.getByRole('button', { name: 'Previous' }).isDisabled(), true);

    await agent.getByLabel('Search Vehicles').fill('transit');
    await table.getByRole('row', { name: 'Bus 01' }).waitFor({ state: 'detached' });
    await table.getByRole('row', { name: 'Van 1 (long wheelbase)' }).waitFor();
    assert.equal(await table.getByRole('row').count(), 2, 'the header and the one match');
    await screenshot(agent, '106-records-search');
    await agent.getByLabel('Search Vehicles').fill('');
    await agent.getByText('1–25 of 28').waitFor();
  });

  test('shows the agent the definitions read only', async () => {
    await openAdmin(agent);
    await agent.getByRole('note').filter({ hasText: 'Only administrators define objects' }).waitFor();
    assert.equal(await agent.getByRole('button', { name: 'New object' }).count(), 0);
    await agent.getByRole('row', { name: 'Vehicle' }).getByRole('link', { name: 'Vehicle', exact: true }).click();
    await agent.getByRole('heading', { name: 'Vehicle', exact: true }).waitFor();
    const fields = agent.getByRole('region', { name: 'Fields' });
    await fields.getByRole('row', { name: 'Driver' }).waitFor();
    await agent.getByLabel('Object details').getByText('Company cars, vans and buses').waitFor();
    assert.equal(await agent.getByRole('form').count(), 0, 'no forms at all');
    assert.equal(await agent.getByRole('button', { name: /^(Delete|Edit field|Add field|Save)/ }).count(), 0);
    await screenshot(agent, '107-definitions-agent');

    const refused = await support(agent, 'POST', '/api/v2/custom_objects', { custom_object: { key: 'sneaky', title: 'Sneaky', title_pluralized: 'Sneakies' } });
    assert.equal(refused.status, 403);
    assert.equal(refused.body.error, 'Forbidden');
  });

  test('deletes a record after asking', async () => {
    await agent.getByRole('link', { name: 'Open Vehicles' }).click();
    await agent.getByRole('button', { name: 'Delete Bus 01' }).click();
    const confirm = agent.getByRole('alertdialog', { name: 'Delete Bus 01?' });
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    assert.equal((await records(agent)).length, 28, 'cancel keeps it');
    await agent.getByRole('button', { name: 'Delete Bus 01' }).click();
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await agent.getByRole('row', { name: 'Bus 01' }).waitFor({ state: 'detached' });
    assert.equal((await records(agent)).some((r) => r.name === 'Bus 01'), false);
  });

  test('lets the admin delete a field and then the object, after asking', async () => {
    await openAdmin(admin);
    await admin.getByRole('row', { name: 'Vehicle' }).getByRole('link', { name: 'Vehicle', exact: true }).click();
    const fields = admin.getByRole('region', { name: 'Fields' });
    await fields.getByRole('button', { name: 'Delete field Plate' }).click();
    await admin.getByRole('alertdialog', { name: 'Delete field Plate?' }).getByRole('button', { name: 'Delete' }).click();
    await fields.getByRole('row', { name: 'Plate' }).waitFor({ state: 'detached' });
    const van = (await records(admin)).find((r) => r.name.startsWith('Van 1'));
    assert.equal('plate' in van.custom_object_fields, false, 'the values went with the field');

    await admin.getByRole('button', { name: 'Delete object Vehicle' }).click();
    await screenshot(admin, '108-confirm-delete-object');
    await admin.getByRole('alertdialog', { name: 'Delete object Vehicle?' }).getByRole('button', { name: 'Delete' }).click();
    await admin.getByText('No custom objects yet.').or(admin.getByRole('table', { name: 'Custom objects' })).first().waitFor();
    await admin.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Vehicles' }).waitFor({ state: 'detached' });
    assert.equal((await pageApi(admin, 'GET', OBJECT)).status, 404);
  });
});
