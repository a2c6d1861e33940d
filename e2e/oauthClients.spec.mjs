import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { screenshot, signIn, closeContexts, settled } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
let admin;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
});
test.afterAll(() => closeContexts(browser));

/** Opens Settings through the navigation and waits for the screen. */
async function openSettings(page) {
  await page.getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
}

/** The text of the `<dd>` that follows the `<dt>` with this label, inside `scope`. */
async function detail(scope, label) {
  return (await scope.locator('dt', { hasText: label }).locator('xpath=following-sibling::dd[1]').textContent()).trim();
}

test.describe('applications (OAuth clients) in Settings', () => {
  let apps;
  let clientId;

  test('adds a confidential application after fixing its redirect URI, and shows the secret once', async () => {
    await openSettings(admin);
    apps = admin.getByRole('region', { name: 'Applications' });
    await apps.getByText('No applications are registered.').waitFor();

    await apps.getByLabel('Name', { exact: true }).fill('CRM add-on');
    await apps.getByLabel('Redirect URI').fill('http://example.com/cb');
    await apps.getByRole('button', { name: 'Add application' }).click();
    const error = apps.locator('.field.invalid').filter({ hasText: 'Redirect URI' }).getByRole('alert');
    await error.waitFor();
    // The field by its label, as the form names it.
    assert.match(await error.textContent(), /Redirect URI must use https/);
    assert.equal(await apps.getByLabel('Redirect URI').getAttribute('aria-invalid'), 'true');
    assert.equal(await apps.locator('.field.invalid').count(), 1, 'only the redirect URI is marked');
    await screenshot(admin, '29-applications-field-error');

    await apps.getByLabel('Redirect URI').fill('https://crm-addon.example/callback');
    await apps.getByRole('button', { name: 'Add application' }).click();
    const box = apps.getByRole('region', { name: 'New application credentials' });
    await box.waitFor();
    await box.getByText('Copy the secret now: it is not shown again').waitFor();
    clientId = await detail(box, 'Client ID');
    const secret = await detail(box, 'Client secret');
    assert.match(clientId, /^[0-9a-f]{64}$/);
    assert.match(secret, /^[0-9a-f]{64}$/);
    assert.notEqual(secret, clientId);
    // The form is ready for the next one, without the old error.
    assert.equal(await apps.getByLabel('Name', { exact: true }).inputValue(), '');
    assert.equal(await apps.locator('.field.invalid').count(), 0);

    const row = apps.getByRole('listitem', { name: 'CRM add-on' });
    await row.waitFor();
    await row.getByText('https://crm-addon.example/callback').waitFor();
    await row.getByText(clientId).waitFor();
    assert.equal(await row.getByText('public', { exact: true }).count(), 0);
    assert.ok(!(await row.textContent()).includes(secret), 'the list never shows the secret');
    await screenshot(admin, '30-applications-added');

    await box.getByRole('button', { name: 'I have copied it' }).click();
    await box.waitFor({ state: 'detached' });
    // Not shown again, not even after a reload.
    await admin.reload();
    await apps.getByRole('listitem', { name: 'CRM add-on' }).waitFor();
    assert.ok(!(await admin.content()).includes(secret));
  });

  test('adds a public application, which has no secret', async () => {
    await apps.getByLabel('Name', { exact: true }).fill('Field app (iOS)');
    await apps.getByLabel('Redirect URI').fill('http://127.0.0.1/oauth/callback');
    await apps.getByLabel('Public client (no secret; PKCE)').check();
    await apps.getByRole('button', { name: 'Add application' }).click();
    const box = apps.getByRole('region', { name: 'New application credentials' });
    await box.getByText('A public client has no secret').waitFor();
    assert.match(await detail(box, 'Client ID'), /^[0-9a-f]{64}$/);
    assert.equal(await box.getByText('Client secret').count(), 0);
    const row = apps.getByRole('listitem', { name: 'Field app (iOS)' });
    await row.getByText('public', { exact: true }).waitFor();
    await screenshot(admin, '31-applications-public');
    await box.getByRole('button', { name: 'Done' }).click();
    await box.waitFor({ state: 'detached' });
  });

  test('removes an application after asking in the app\'s confirmation dialog', async () => {
    const row = apps.getByRole('listitem', { name: 'CRM add-on' });
    const confirm = admin.getByRole('alertdialog', { name: 'Remove CRM add-on?' });
    // Cancel keeps it.
    await row.getByRole('button', { name: 'Remove CRM add-on' }).click();
    await confirm.getByText('Its sign-ins and tokens stop working at once.').waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: 'Remove CRM add-on' }).waitFor();

    await row.getByRole('button', { name: 'Remove CRM add-on' }).click();
    await screenshot(admin, '32-applications-confirm-remove');
    await admin.setViewportSize({ width: 390, height: 844 });
    await settled(admin);
    await screenshot(admin, '32-applications-confirm-remove-phone');
    await admin.setViewportSize({ width: 1280, height: 800 });
    await confirm.getByRole('button', { name: 'Remove' }).click();
    await row.waitFor({ state: 'detached' });
    await apps.getByRole('listitem', { name: 'Field app (iOS)' }).waitFor();
    await admin.reload();
    await apps.getByRole('listitem', { name: 'Field app (iOS)' }).waitFor();
    assert.equal(await apps.getByRole('listitem', { name: 'CRM add-on' }).count(), 0);
    assert.ok(!(await admin.content()).includes(clientId), 'the removed client is gone after a reload');
    await screenshot(admin, '33-applications-removed');
  });

  test('is not shown to an agent', async ({ agentPage: agent }) => {
    await openSettings(agent);
    await agent.locator('[aria-label=You]').getByText('Agent', { exact: true }).waitFor();
    assert.equal(await agent.getByRole('region', { name: 'Applications' }).count(), 0);
    assert.equal(await agent.getByRole('button', { name: 'Add application' }).count(), 0);
    await screenshot(agent, '34-agent-settings');
  });
});
