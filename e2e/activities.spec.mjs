import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { screenshot, signIn, closeContexts } from './browser.mjs';

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

/** Creates a contact through the UI and opens its page. */
async function newContact(page, lastName) {
  await page.getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('link', { name: 'New contact' }).click();
  await page.getByLabel('Last name *').fill(lastName);
  await page.getByLabel('Phone').fill('+1 720 555 0142');
  await page.getByRole('button', { name: 'Save' }).click();
  await page.getByRole('heading', { name: lastName }).waitFor();
  return page.url();
}

test.describe('activities', () => {
  let contactUrl;

  test('adds a task to a contact and completes it on the Tasks screen', async () => {
    contactUrl = await newContact(admin, 'Timelined');
    await admin.getByRole('tab', { name: 'Task', exact: true }).click();
    await admin.getByLabel('Task', { exact: true }).fill('Send the signed contract');
    await admin.getByRole('button', { name: 'Add task' }).click();
    await admin.getByText('Send the signed contract').waitFor();

    await admin.getByRole('link', { name: 'Tasks' }).click();
    const box = admin.getByRole('checkbox', { name: 'Complete: Send the signed contract' });
    await box.waitFor();
    await screenshot(admin, '12-tasks');
    // One click completes it; the list reloads and shows it under Completed.
    await box.click();
    const completed = admin.locator('[aria-label=Completed]').getByRole('checkbox', { name: 'Complete: Send the signed contract' });
    await completed.waitFor();
    assert.equal(await completed.isChecked(), true);
    await screenshot(admin, '13-task-completed');
  });

  test('adds a private note that another user cannot see', async ({ agentPage: agent }) => {
    await admin.goto(contactUrl);
    await admin.getByLabel('Note', { exact: true }).fill('Budget approved, keep quiet until Friday');
    await admin.getByLabel('Private').check();
    await admin.getByRole('button', { name: 'Add note' }).click();
    await admin.getByText('Budget approved, keep quiet until Friday').waitFor();
    await admin.getByLabel('Note', { exact: true }).fill('Prefers morning calls');
    await admin.getByRole('button', { name: 'Add note' }).click();
    await admin.getByText('Prefers morning calls').waitFor();
    await screenshot(admin, '14-notes');

    await agent.goto(contactUrl);
    await agent.getByText('Prefers morning calls').waitFor();
    assert.equal(await agent.getByText('Budget approved, keep quiet until Friday').count(), 0);
    await screenshot(agent, '15-other-user-view');
  });

  test('logs a call', async () => {
    await admin.goto(contactUrl);
    await admin.getByRole('tab', { name: 'Call', exact: true }).click();
    assert.equal(await admin.getByLabel('Phone number').inputValue(), '+1 720 555 0142');
    await admin.getByLabel('Summary').fill('Walked through the renewal terms');
    await admin.getByLabel('Outcome').selectOption({ label: 'Interested' });
    // A length that is none is said by its field before anything is sent; minutes and seconds as a rep types them.
    await admin.getByLabel('Length').fill('soon');
    await admin.getByRole('button', { name: 'Log call' }).click();
    await admin.getByText('Enter the length in minutes, such as 4 or 4:30.').waitFor();
    await admin.getByLabel('Length').fill('4:30');
    await admin.getByRole('button', { name: 'Log call' }).click();
    await admin.getByText('Walked through the renewal terms', { exact: false }).waitFor();
    // The timeline says what kind of call it was and how it went.
    const entry = admin.getByRole('region', { name: 'Timeline' }).getByRole('listitem').filter({ hasText: 'Walked through the renewal terms' });
    assert.match(await entry.innerText(), /Outgoing call · Interested · 4 min 30 s/);
    await screenshot(admin, '16-call-logged');
  });

  test('records a visit', async () => {
    await admin.goto(contactUrl);
    await admin.getByRole('tab', { name: 'Visit', exact: true }).click();
    await admin.getByLabel('Visit summary').fill('Showed the spring catalogue');
    await admin.getByLabel('Location').selectOption('verified');
    await admin.getByRole('button', { name: 'Record visit' }).click();
    await admin.getByText('Showed the spring catalogue').waitFor();
  });

  test('shows a reminder once its time has come', async () => {
    await admin.goto(contactUrl);
    await admin.getByRole('tab', { name: 'Task', exact: true }).click();
    const local = (ms) => new Date(Date.now() + ms - new Date().getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
    await admin.getByLabel('Task', { exact: true }).fill('Confirm the delivery slot');
    await admin.getByLabel('Due').fill(local(3 * 3600_000));
    await admin.getByLabel('Reminder').fill(local(-60_000));
    await admin.getByRole('button', { name: 'Add task' }).click();
    await admin.getByText('Confirm the delivery slot').first().waitFor();
    // The bell's notification centre lists it (the one summary toast may have come and gone).
    await admin.getByRole('button', { name: /^Notifications \(\d+\)$/ }).click();
    await admin.getByRole('dialog', { name: 'Notifications' }).getByRole('listitem', { name: 'Confirm the delivery slot' }).waitFor();
    await screenshot(admin, '18-reminder');
    await admin.keyboard.press('Escape');
  });

  test('attaches a document and downloads it', async () => {
    await admin.goto(contactUrl);
    await admin.getByLabel('Attach files').setInputFiles({ name: 'proposal.txt', mimeType: 'text/plain', buffer: Buffer.from('Proposal: 12 units at list price') });
    const link = admin.getByRole('link', { name: 'proposal.txt' });
    await link.waitFor();
    const [download] = await Promise.all([admin.waitForEvent('download'), link.click()]);
    assert.equal(download.suggestedFilename(), 'proposal.txt');
    assert.equal(readFileSync(await download.path(), 'utf8'), 'Proposal: 12 units at list price');
    await screenshot(admin, '17-document');
  });
});
