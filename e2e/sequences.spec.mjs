import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { screenshot, signIn, pageApi, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

// Email templates, sequences and enrollments. The admin writes a template and
// a sequence (a task step, then an email step), enrolls a contact from its
// page, reads the enrollment's timeline and finishes it by hand. The hub's
// real clock never reaches the first step's delay here, so every step stays
// scheduled until the finish cancels it. Other specs share the hub, so the
// account's add-ons are put back as they were found.

let browser;
let seededHub;
let admin;
let agent;
let initialAddons;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
  agent = await signIn(browser, seededHub, 'agent');
  initialAddons = (await api(admin, 'GET', '/v2/accounts/self')).body.data.addons;
});
test.afterAll(async () => {
  if (initialAddons && admin) await api(admin, 'PUT', '/v2/accounts/self', { addons: initialAddons });
  await closeContexts(browser);
});

/** The REST API as the page's signed-in user (its token is in the tab's sessionStorage). */
const api = pageApi;

const messageOf = (answer) => answer.body.errors.map((e) => e.error.message).join(' ');

/** Opens a section from the main navigation (pages have breadcrumb links of the same names). */
async function open(page, link, heading = link) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
  await page.getByRole('heading', { name: heading, exact: true }).waitFor();
}

// Names are unique per account: a run tag keeps a re-run on the same hub apart.
const RUN = Date.now().toString(36);
const TEMPLATE = `Intro ${RUN}`;
const SEQUENCE = `Welcome ${RUN}`;

test.describe('sequences, email templates and enrollments', () => {
  let templateId;
  let sequenceId;
  let contactId;
  let enrollmentId;

  test('lets an admin write an email template, showing the API\'s errors by their fields', async () => {
    await open(admin, 'Sequences');
    await admin.getByRole('button', { name: 'New template' }).click();
    const form = admin.getByRole('form', { name: 'New email template' });
    await form.getByRole('button', { name: 'Save template' }).click();
    await form.locator('.field.invalid').filter({ hasText: 'Template name' }).getByRole('alert').waitFor();

    await form.getByLabel('Template name').fill(TEMPLATE);
    await form.getByLabel('Subject').fill('Hello {{contact.first_name}}');
    await form.getByLabel('Body').fill('Hi {{contact.first_name}},\n\nglad to meet you.\n\n{{user.name}}');
    await form.getByRole('button', { name: 'Save template' }).click();
    await form.waitFor({ state: 'detached' });
    await admin.getByRole('listitem', { name: TEMPLATE }).getByText('Subject: Hello {{contact.first_name}}').waitFor();

    const templates = (await api(admin, 'GET', `/v2/email_templates?name=${encodeURIComponent(TEMPLATE)}`)).body.items.map((i) => i.data);
    assert.equal(templates.length, 1);
    templateId = templates[0].id;
    assert.equal(templates[0].subject, 'Hello {{contact.first_name}}');
  });

  test('lets an admin build a sequence of a task step and an email step', async () => {
    await admin.getByRole('link', { name: 'New sequence' }).click();
    const form = admin.getByRole('form', { name: 'New sequence' });
    await form.getByLabel('Name', { exact: true }).fill(SEQUENCE);
    await form.getByLabel('Step 1 delay', { exact: true }).fill('2');
    await form.getByLabel('Step 1 action', { exact: true }).selectOption('task');
    await form.getByLabel('Step 1 task content').fill('Call to introduce yourself');
    await form.getByRole('button', { name: 'Add step' }).click();
    await form.getByLabel('Step 2 delay', { exact: true }).fill('1');
    await form.getByLabel('Step 2 delay unit').selectOption('weekdays');
    await form.getByLabel('Step 2 email template').selectOption({ label: TEMPLATE });
    await screenshot(admin, '90-new-sequence');
    await form.getByRole('button', { name: 'Save' }).click();

    await admin.getByRole('heading', { name: SEQUENCE }).waitFor();
    const steps = admin.getByRole('list', { name: 'Steps' });
    await steps.getByRole('listitem').filter({ hasText: 'after 2 hours Task: Call to introduce yourself' }).waitFor();
    await steps.getByRole('listitem').filter({ hasText: `after 1 weekday Email “${TEMPLATE}”` }).waitFor();
    await screenshot(admin, '91-sequence-page');

    sequenceId = Number(new URL(admin.url()).pathname.split('/').pop());
    const sequence = (await api(admin, 'GET', `/v2/sequences/${sequenceId}`)).body.data;
    assert.equal(sequence.steps_total, 2);
    assert.deepEqual(sequence.steps.map((s) => [s.position, s.delay_from_previous_step, s.delay_from_previous_step_unit, s.action_type, s.action_properties]), [
      [0, 2, 'hours', 'task', { task_content: 'Call to introduce yourself' }],
      [1, 1, 'weekdays', 'automated_email', { email_template_id: templateId, is_reply: false }],
    ]);
  });

  test('shows an agent sequences and templates read only', async () => {
    await open(agent, 'Sequences');
    await agent.getByRole('row', { name: SEQUENCE }).waitFor();
    await agent.getByRole('listitem', { name: TEMPLATE }).waitFor();
    await agent.getByText('Only administrators change sequences and templates.').waitFor();
    for (const name of ['New template', `Edit template ${TEMPLATE}`, `Delete template ${TEMPLATE}`]) {
      assert.equal(await agent.getByRole('button', { name }).count(), 0, `no ${name} button`);
    }
    assert.equal(await agent.getByRole('link', { name: 'New sequence' }).count(), 0);
    await screenshot(agent, '92-sequences-agent');
    await agent.getByRole('link', { name: SEQUENCE }).click();
    await agent.getByRole('heading', { name: SEQUENCE }).waitFor();
    assert.equal(await agent.getByRole('link', { name: 'Edit', exact: true }).count(), 0);
    assert.equal((await api(agent, 'PUT', `/v2/sequences/${sequenceId}`, { name: 'Hacked' })).status, 403);
  });

  test('enrolls a contact from its page; the enrollment page shows the first action scheduled', async () => {
    const contact = await api(admin, 'POST', '/v2/contacts', { first_name: 'Sally', last_name: 'Sequence', email: 'sally@example.com' });
    assert.equal(contact.status, 200);
    contactId = contact.body.data.id;

    await admin.goto(new URL(`/contacts/${contactId}`, admin.url()).href);
    await admin.getByRole('heading', { name: 'Sally Sequence' }).waitFor();
    const panel = admin.getByRole('region', { name: 'Sequences' });
    await panel.getByText('Not enrolled in any sequence.').waitFor();
    await panel.getByLabel('Enroll in a sequence').selectOption({ label: SEQUENCE });
    await panel.getByRole('button', { name: 'Enroll' }).click();
    await panel.getByRole('listitem').filter({ hasText: SEQUENCE }).getByText('active').waitFor();
    await screenshot(admin, '93-contact-enrolled');

    const enrollments = (await api(admin, 'GET', `/v2/sequence_enrollments?resource_type=contact&resource_ids=${contactId}`)).body.items.map((i) => i.data);
    assert.equal(enrollments.length, 1);
    enrollmentId = enrollments[0].id;
    assert.deepEqual([enrollments[0].state, enrollments[0].sequence.data.id, enrollments[0].current_step_position], ['active', sequenceId, 0]);

    await panel.getByRole('link', { name: SEQUENCE }).click();
    await admin.getByRole('heading', { name: SEQUENCE }).waitFor();
    const first = admin.getByRole('listitem', { name: 'Step 1' });
    await first.locator('.badge').filter({ hasText: 'scheduled' }).waitFor();
    await first.getByText('Task: Call to introduce yourself').waitFor();
    await first.getByText('Due', { exact: true }).waitFor();
    assert.equal(await first.getAttribute('aria-current'), 'step');
    await admin.getByRole('listitem', { name: 'Step 2' }).getByText(`Email “${TEMPLATE}”`).waitFor();
    await admin.getByRole('button', { name: 'Finish' }).waitFor();
    assert.equal(await admin.getByRole('button', { name: 'Resume' }).count(), 0, 'only a blocked enrollment resumes');
    await screenshot(admin, '94-enrollment-scheduled');
  });

  test('lists the enrollment on the Enrollments screen, filtered by state', async () => {
    await open(admin, 'Enrollments');
    const row = admin.getByRole('row', { name: `Sally Sequence in ${SEQUENCE}` });
    await row.waitFor();
    await admin.getByLabel('State').selectOption('finished');
    await row.waitFor({ state: 'detached' });
    await admin.getByLabel('State').selectOption('active');
    await row.getByText('Step 1 of 2').waitFor();
    await screenshot(admin, '95-enrollments-active');
    await row.getByRole('link', { name: SEQUENCE }).click();
    await admin.getByRole('listitem', { name: 'Step 1' }).waitFor();
  });

  test('finishes the enrollment by hand: finished, reason manual, pending steps cancelled', async () => {
    await admin.getByRole('button', { name: 'Finish' }).click();
    await admin.getByRole('alertdialog', { name: 'Finish this enrollment?' }).getByRole('button', { name: 'Finish' }).click();
    await admin.locator('.badge').filter({ hasText: 'finished · manual' }).waitFor();
    await admin.getByRole('listitem', { name: 'Step 1' }).locator('.badge').filter({ hasText: 'cancelled' }).waitFor();
    await admin.getByRole('listitem', { name: 'Step 2' }).locator('.badge').filter({ hasText: 'cancelled' }).waitFor();
    assert.equal(await admin.getByRole('button', { name: 'Finish' }).count(), 0);
    await screenshot(admin, '96-enrollment-finished');

    const self = (await api(admin, 'GET', '/v2/users/self')).body.data;
    const enrollment = (await api(admin, 'GET', `/v2/sequence_enrollments/${enrollmentId}`)).body.data;
    assert.deepEqual([enrollment.state, enrollment.finished_reason, enrollment.finished_actor_id], ['finished', 'manual', self.id]);
    assert.ok(enrollment.finished_at);
    assert.deepEqual(enrollment.enrollment_steps.items.map((s) => s.data.action.data.status), ['cancelled', 'cancelled']);

    await open(admin, 'Enrollments');
    await admin.getByLabel('State').selectOption('finished');
    await admin.getByRole('row', { name: `Sally Sequence in ${SEQUENCE}` }).getByText('finished · manual').waitFor();
  });

  test('shows a blocked email step with its failure reason, and resumes the enrollment', async () => {
    // No SMTP on the e2e hub: an email due at once blocks with sendout_disabled on the scheduler's next tick.
    const sequence = await api(admin, 'POST', '/v2/sequences', {
      name: `Email now ${RUN}`, steps: [{ delay_from_previous_step: 0, delay_from_previous_step_unit: 'hours', action_type: 'automated_email', action_properties: { email_template_id: templateId, is_reply: false } }],
    });
    assert.equal(sequence.status, 200);
    const contact = await api(admin, 'POST', '/v2/contacts', { first_name: 'Bob', last_name: 'Blocked', email: 'bob@example.com' });
    const started = await api(admin, 'POST', '/v2/sequence_enrollments', { sequence_id: sequence.body.data.id, resource_type: 'contact', resource_id: contact.body.data.id });
    assert.equal(started.status, 200);

    await admin.goto(new URL(`/enrollments/${started.body.data.id}`, admin.url()).href);
    const step = admin.getByRole('listitem', { name: 'Step 1' });
    await step.locator('.badge').filter({ hasText: 'blocked' }).waitFor({ timeout: 60_000 });
    await step.getByText('Sending emails is turned off').waitFor();
    await admin.getByRole('note').filter({ hasText: 'then resume' }).waitFor();
    await screenshot(admin, '98-enrollment-blocked');

    // Resuming retries the step at once, so the scheduler's next tick may block it again: the PUT's answer is what is checked.
    const [answer] = await Promise.all([
      admin.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/v2/sequence_enrollments/${started.body.data.id}`)),
      admin.getByRole('button', { name: 'Resume' }).click(),
    ]);
    const resumed = (await answer.json()).data;
    assert.equal(answer.status(), 200);
    assert.deepEqual([resumed.state, resumed.enrollment_steps.items[0].data.action.data.status], ['active', 'scheduled']);
    await admin.getByRole('button', { name: /^(Finish|Resume)$/ }).waitFor();
  });

  test('without the outbound sequences add-on, shows the API\'s refusal on the contact\'s page', async () => {
    assert.equal((await api(admin, 'PUT', '/v2/accounts/self', { addons: [] })).status, 200);
    const refused = await api(admin, 'POST', '/v2/sequence_enrollments', { sequence_id: sequenceId, resource_type: 'contact', resource_id: contactId });
    assert.equal(refused.status, 403);

    await admin.goto(new URL(`/contacts/${contactId}`, admin.url()).href);
    const panel = admin.getByRole('region', { name: 'Sequences' });
    await panel.getByLabel('Enroll in a sequence').selectOption({ label: SEQUENCE });
    await panel.getByRole('button', { name: 'Enroll' }).click();
    // In words: the UI shows `outbound_sequences` as "outbound sequences".
    await panel.getByRole('alert').filter({ hasText: messageOf(refused).replace(/_/g, ' ') }).waitFor();
    await panel.scrollIntoViewIfNeeded();
    await screenshot(admin, '97-enroll-refused');
    assert.equal((await api(admin, 'GET', `/v2/sequence_enrollments?resource_type=contact&resource_ids=${contactId}`)).body.items.length, 1, 'no second enrollment');
  });
});
