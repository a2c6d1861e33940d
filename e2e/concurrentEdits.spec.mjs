// An edit form sends only the fields changed in it, so two clients
// editing different fields of one record both keep their change (a form that
// sent every field would put back the other's field with the value it loaded).
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
/** The browser whose edit form is open while the other client saves. */
let pageA;
/** The other client: a second signed-in browser context (its own tab and token). */
let pageB;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  pageA = await signIn(browser, seededHub);
  pageB = await signIn(browser, seededHub);
});
test.afterAll(() => closeContexts(browser));

/** Opens a record's edit form and waits until the record is loaded into it. */
async function openEditForm(page, path, heading, loadedField, loadedValue) {
  await page.goto(`${seededHub.url}${path}/edit`);
  await page.getByRole('heading', { name: heading }).waitFor();
  await page.waitForFunction(([label, value]) => {
    const field = [...document.querySelectorAll('label')].find((l) => l.textContent.trim().startsWith(label))?.querySelector('input');
    return field?.value === value;
  }, [loadedField, loadedValue]);
}

/** Clicks Save and answers the body of the PUT it sends. */
async function saveAndCapturePut(page, path) {
  const put = page.waitForRequest((request) => request.method() === 'PUT' && new URL(request.url()).pathname === path);
  await page.getByRole('button', { name: 'Save' }).click();
  return (await put).postDataJSON();
}

test.describe('editing different fields of one record at once', () => {
  test('keeps the email another browser saved while this one changes the phone of a contact', async () => {
    const created = await pageApi(pageA, 'POST', '/v2/contacts', {
      first_name: 'Robin', last_name: 'Concurrent', email: 'robin@old.test', phone: '+1 555 0100', title: 'Buyer',
    });
    assert.equal(created.status, 200);
    const id = created.body.data.id;

    await openEditForm(pageA, `/contacts/${id}`, 'Edit contact', 'Email', 'robin@old.test');

    // Meanwhile browser B changes the email through its own edit form.
    await openEditForm(pageB, `/contacts/${id}`, 'Edit contact', 'Email', 'robin@old.test');
    await pageB.getByLabel('Email').fill('robin@new.test');
    assert.deepEqual(await saveAndCapturePut(pageB, `/v2/contacts/${id}`), { data: { email: 'robin@new.test' } });
    await pageB.getByRole('heading', { name: 'Robin Concurrent' }).waitFor();

    // Browser A, still showing the old email, changes only the phone.
    await pageA.getByLabel('Phone').fill('+1 555 0199');
    assert.deepEqual(await saveAndCapturePut(pageA, `/v2/contacts/${id}`), { data: { phone: '+1 555 0199' } });
    await pageA.getByRole('heading', { name: 'Robin Concurrent' }).waitFor();
    await screenshot(pageA, '140-concurrent-contact-edit');

    const saved = (await pageApi(pageA, 'GET', `/v2/contacts/${id}`)).body.data;
    assert.equal(saved.email, 'robin@new.test', "B's email is not undone");
    assert.equal(saved.phone, '+1 555 0199');
    assert.equal(saved.title, 'Buyer');
  });

  test('keeps the value another client PUT while this browser renames a deal', async () => {
    const contact = await pageApi(pageA, 'POST', '/v2/contacts', { last_name: 'Dealside' });
    const created = await pageApi(pageA, 'POST', '/v2/deals', { name: 'Harbor Expansion', value: '1000', contact_id: contact.body.data.id });
    assert.equal(created.status, 200);
    const id = created.body.data.id;

    await openEditForm(pageA, `/deals/${id}`, 'Edit deal', 'Name', 'Harbor Expansion');

    // Meanwhile another client changes the value through the API, with its own token.
    const changed = await pageApi(pageB, 'PUT', `/v2/deals/${id}`, { value: '2500.75' });
    assert.equal(changed.status, 200);

    // Browser A, still showing the old value, changes only the name.
    await pageA.getByLabel('Name *').fill('Harbor Expansion Phase 2');
    assert.deepEqual(await saveAndCapturePut(pageA, `/v2/deals/${id}`), { data: { name: 'Harbor Expansion Phase 2' } });
    await pageA.getByRole('heading', { name: 'Harbor Expansion Phase 2' }).waitFor();

    const saved = (await pageApi(pageA, 'GET', `/v2/deals/${id}`)).body.data;
    assert.match(saved.value, /^2500\.75$/, 'the value the other client saved is not undone');
    assert.equal(saved.name, 'Harbor Expansion Phase 2');
  });

  test('keeps the subject another client PUT while this browser rewrites an email template', async () => {
    const created = await pageApi(pageA, 'POST', '/v2/email_templates', { name: 'Concurrent follow-up', subject: 'Old subject', body: 'Old body' });
    assert.equal(created.status, 200);
    const id = created.body.data.id;

    await pageA.goto(`${seededHub.url}/sequences`);
    await pageA.getByRole('button', { name: 'Edit template Concurrent follow-up' }).click();
    const form = pageA.getByRole('form', { name: 'Edit template Concurrent follow-up' });

    const changed = await pageApi(pageB, 'PUT', `/v2/email_templates/${id}`, { subject: 'New subject' });
    assert.equal(changed.status, 200);

    await form.getByLabel('Body').fill('New body');
    const put = pageA.waitForRequest((request) => request.method() === 'PUT' && new URL(request.url()).pathname === `/v2/email_templates/${id}`);
    await form.getByRole('button', { name: 'Save template' }).click();
    assert.deepEqual((await put).postDataJSON(), { data: { body: 'New body' } });
    await form.waitFor({ state: 'detached' });

    const saved = (await pageApi(pageA, 'GET', `/v2/email_templates/${id}`)).body.data;
    assert.equal(saved.subject, 'New subject', 'the subject the other client saved is not undone');
    assert.equal(saved.body, 'New body');
  });

  test('saves an unchanged form without a request and opens the record', async () => {
    const created = await pageApi(pageA, 'POST', '/v2/contacts', { last_name: 'Untouched', email: 'untouched@example.test' });
    const id = created.body.data.id;
    const before = (await pageApi(pageA, 'GET', `/v2/contacts/${id}`)).body.data;

    await openEditForm(pageA, `/contacts/${id}`, 'Edit contact', 'Email', 'untouched@example.test');
    const puts = [];
    const onRequest = (request) => request.method() === 'PUT' && puts.push(request.url());
    pageA.on('request', onRequest);
    await pageA.getByRole('button', { name: 'Save' }).click();
    await pageA.getByRole('heading', { name: 'Untouched' }).waitFor();
    pageA.off('request', onRequest);

    assert.equal(new URL(pageA.url()).pathname, `/contacts/${id}`);
    assert.deepEqual(puts, []);
    const saved = (await pageApi(pageA, 'GET', `/v2/contacts/${id}`)).body.data;
    assert.equal(saved.updated_at, before.updated_at, 'nothing was written');
  });
});
