import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { SMTPServer } from 'smtp-server';
import { pageApi, screenshot, signIn, signInAt, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// Unique per run, so the spec can run again against the same hub.
const RUN = Date.now().toString(36);
const PAM = { name: 'Pam Password', email: `pam-${RUN}@example.com`, password: 'pam-secret-123' };
const IVY = { name: 'Ivy Invite', email: `ivy-${RUN}@example.com`, password: 'ivy-secret-123' };

let browser;
let seededHub;
let admin;
let smtp;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await signIn(browser, seededHub);
  smtp = await startSmtp();
});
test.afterAll(async () => {
  // Shared state back as it was: no mail server (the e2e hub starts without one).
  if (admin) await pageApi(admin, 'PUT', '/v2/accounts/self', { smtp_url: null });
  await new Promise((resolve) => (smtp ? smtp.server.close(resolve) : resolve()));
  await closeContexts(browser);
});

/** A real SMTP server on 127.0.0.1 (no TLS) that keeps what it accepts, and refuses a wrong login with 535. */
async function startSmtp() {
  const messages = [];
  const server = new SMTPServer({
    secure: false, disabledCommands: ['STARTTLS'], allowInsecureAuth: true, logger: false,
    onAuth(auth, _session, done) {
      if (auth.username === 'mailer' && auth.password === 'mail-secret') return done(null, { user: auth.username });
      done(Object.assign(new Error('Invalid username or password'), { responseCode: 535 }));
    },
    onData(stream, session, done) {
      stream.on('data', () => {});
      stream.on('end', () => {
        messages.push({ to: session.envelope.rcptTo.map((r) => r.address) });
        done();
      });
    },
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, messages, port: server.server.address().port };
}

async function openTeam(page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('heading', { name: 'Settings', exact: true }).waitFor();
  await page.getByRole('region', { name: 'Team', exact: true }).getByRole('link', { name: 'Team' }).click();
  await page.getByRole('heading', { name: 'Team', exact: true }).waitFor();
}

const row = (page, name) => page.getByRole('table', { name: 'Team' }).getByRole('row', { name });
const cell = async (page, name, label) => (await row(page, name).locator(`td[data-label="${label}"]`).textContent()).trim();

async function addUser(page, { name, email, role, password }) {
  await page.getByRole('button', { name: 'Add a user' }).click();
  const form = page.getByRole('form', { name: 'Add a user' });
  await form.getByLabel('Name').fill(name);
  await form.getByLabel('Email').fill(email);
  await form.getByLabel('Role').selectOption({ label: role });
  if (password) {
    await form.getByLabel('Set a password').check();
    await form.getByLabel('Password', { exact: true }).fill(password);
  } else {
    await form.getByLabel('Send an invite link (they choose a password)').check();
  }
  return form;
}

async function manage(page, name) {
  await page.getByRole('button', { name: `Manage ${name}` }).click();
  const panel = page.getByRole('region', { name: `Manage ${name}` });
  await panel.waitFor();
  return panel;
}

test.describe('team administration', () => {
  let pam;

  test('adds a user with a password, after fixing a short one, who can then sign in', async () => {
    await openTeam(admin);
    const form = await addUser(admin, { ...PAM, role: 'Agent', password: 'short' });
    await form.getByRole('button', { name: 'Add user' }).click();
    const error = form.locator('.field.invalid').getByRole('alert');
    await error.waitFor();
    assert.equal(await error.textContent(), 'Password must be at least 8 characters.');
    await screenshot(admin, 'team-desktop-add');
    await form.getByLabel('Password', { exact: true }).fill(PAM.password);
    await form.getByRole('button', { name: 'Add user' }).click();
    await row(admin, PAM.name).waitFor();
    assert.equal(await cell(admin, PAM.name, 'Role'), 'Agent');
    assert.equal(await cell(admin, PAM.name, 'Status'), 'Active');
    pam = await signInAt(browser, seededHub.url, PAM);
    assert.equal((await pageApi(pam, 'GET', '/v2/users/self')).body.data.email, PAM.email);
  });

  test('invites a user with a one-time link, who sets a password in a fresh browser and lands signed in', async () => {
    const form = await addUser(admin, { name: IVY.name, email: IVY.email, role: 'Administrator' });
    await form.getByRole('button', { name: 'Add user' }).click();
    const box = admin.getByRole('region', { name: 'One-time link' });
    await box.getByText(`${IVY.name} is invited`).waitFor();
    const link = (await box.locator('code').textContent()).trim();
    assert.match(link, new RegExp(`^${seededHub.url}/invite/[0-9a-f]{64}$`));
    assert.equal(await cell(admin, IVY.name, 'Status'), 'Invited');
    assert.equal(await cell(admin, IVY.name, 'Role'), 'Administrator');
    await screenshot(admin, 'team-desktop-invited');
    await box.getByRole('button', { name: 'Done' }).click();

    const context = await browser.newContext({ viewport: DESKTOP });
    const ivy = await context.newPage();
    await ivy.goto(link);
    await ivy.getByText(`Welcome, ${IVY.name}. Choose a password to join your team.`).waitFor();
    await ivy.getByText(`You sign in with ${IVY.email}.`).waitFor();
    await ivy.getByLabel('New password').fill(IVY.password);
    await ivy.getByLabel('Repeat the password').fill('something-else');
    await ivy.getByRole('button', { name: 'Set password and sign in' }).click();
    await ivy.getByText('The two passwords are not the same.').waitFor();
    await screenshot(ivy, 'team-desktop-accept-invite');
    await ivy.getByLabel('Repeat the password').fill(IVY.password);
    await ivy.getByRole('button', { name: 'Set password and sign in' }).click();
    await ivy.getByRole('heading', { name: 'Today', exact: true }).waitFor();
    assert.equal((await pageApi(ivy, 'GET', '/v2/users/self')).body.data.email, IVY.email);

    // The link works once.
    await ivy.goto(link);
    await ivy.getByText('This link has already been used').waitFor();
    await context.close();
    await admin.reload();
    await row(admin, IVY.name).waitFor();
    assert.equal(await cell(admin, IVY.name, 'Status'), 'Active');
  });

  test('changes a role, deactivates (signing the person out) and reactivates', async () => {
    const panel = await manage(admin, PAM.name);
    await panel.getByRole('combobox', { name: 'Role' }).selectOption({ label: 'Administrator' });
    await panel.getByRole('button', { name: 'Change role' }).click();
    await panel.getByText('Role changed to Administrator.').waitFor();
    assert.equal(await cell(admin, PAM.name, 'Role'), 'Administrator');
    const { body } = await pageApi(admin, 'GET', `/v2/users?email=${encodeURIComponent(PAM.email)}`);
    assert.equal(body.items[0].data.role, 'admin');
    await screenshot(admin, 'team-desktop-manage');

    await panel.getByRole('button', { name: `Deactivate ${PAM.name}` }).click();
    const deactivate = admin.getByRole('alertdialog', { name: `Deactivate ${PAM.name}?` });
    await deactivate.getByText(`Deactivate ${PAM.name}? They are signed out at once.`).waitFor();
    await deactivate.getByRole('button', { name: 'Deactivate' }).click();
    await panel.getByRole('button', { name: `Reactivate ${PAM.name}` }).waitFor();
    assert.equal(await cell(admin, PAM.name, 'Status'), 'Deactivated');
    // Her open session ends: the next request sends her to sign-in.
    await pam.reload();
    await pam.getByRole('button', { name: 'Sign in' }).waitFor();

    await panel.getByRole('button', { name: `Reactivate ${PAM.name}` }).click();
    await admin.getByRole('alertdialog', { name: `Reactivate ${PAM.name}?` }).getByRole('button', { name: 'Reactivate' }).click();
    await panel.getByRole('button', { name: `Deactivate ${PAM.name}` }).waitFor();
    assert.equal(await cell(admin, PAM.name, 'Status'), 'Active');
    await pam.context().close();
    const again = await signInAt(browser, seededHub.url, PAM);
    await again.context().close();
  });

  test('makes a one-time link to reset a password', async () => {
    const panel = admin.getByRole('region', { name: `Manage ${PAM.name}` });
    await panel.getByRole('button', { name: 'Send a reset link' }).click();
    const box = panel.getByRole('region', { name: 'One-time link' });
    assert.match((await box.locator('code').textContent()).trim(), /\/invite\/[0-9a-f]{64}$/);
    await box.getByRole('button', { name: 'Done' }).click();
    await panel.getByRole('button', { name: 'Close' }).click();
  });

  test('sets a mail server, sends a test email, says why a wrong password fails, and turns sending off', async () => {
    await admin.getByRole('link', { name: 'Settings' }).first().click();
    const mail = admin.getByRole('region', { name: 'Mail', exact: true });
    await mail.getByText('Sending is off: no mail server is set.').waitFor();
    const setServer = async (password) => {
      await mail.getByRole('button', { name: /Set a mail server|Change mail server/ }).click();
      const form = mail.getByRole('form', { name: 'Mail server' });
      await form.getByLabel('Server', { exact: true }).fill('127.0.0.1');
      await form.getByLabel('Port').fill(String(smtp.port));
      await form.getByLabel('User name').fill('mailer');
      await form.getByLabel('Password', { exact: true }).fill(password);
      await form.getByRole('button', { name: 'Save mail server' }).click();
      await mail.getByText('A mail server is set. Its password is set and never shown.').waitFor();
    };
    await setServer('mail-secret');
    const test = mail.getByRole('form', { name: 'Send a test email' });
    assert.equal(await test.getByLabel('Send to').inputValue(), seededHub.admin.email);
    await test.getByRole('button', { name: 'Send a test email' }).click();
    await test.getByText(`Sent to ${seededHub.admin.email}: the mail server accepted it. Check that inbox.`).waitFor();
    assert.deepEqual(smtp.messages.at(-1).to, [seededHub.admin.email]);
    await mail.scrollIntoViewIfNeeded();
    await screenshot(admin, 'team-desktop-mail');

    await setServer('wrong-password');
    await test.getByRole('button', { name: 'Send a test email' }).click();
    const alert = test.getByRole('alert');
    await alert.waitFor();
    assert.match(await alert.textContent(), new RegExp(`^The mail server 127\\.0\\.0\\.1:${smtp.port} refused the user name or password\\. It answered: "535 Invalid username or password"\\.$`));
    assert.ok(!(await admin.content()).includes('wrong-password'));
    await screenshot(admin, 'team-desktop-mail-refused');

    await mail.getByRole('button', { name: 'Turn sending off' }).click();
    await mail.getByText('Sending is off: no mail server is set.').waitFor();
    assert.equal((await pageApi(admin, 'GET', '/v2/accounts/self')).body.data.smtp_configured, false);
  });

  test('shows agents the team read only', async ({ agentPage: agent }) => {
    await agent.goto(`${seededHub.url}/settings/team`);
    await row(agent, PAM.name).waitFor();
    await agent.getByRole('note').getByText('Only administrators add people and change their roles or access.').waitFor();
    assert.equal(await agent.getByRole('button', { name: 'Add a user' }).count(), 0);
    assert.equal(await agent.getByRole('button', { name: /^Manage / }).count(), 0);
  });

  test('fits a phone: the team as cards, the panel and the mail card without sideways scrolling', async () => {
    await admin.setViewportSize(PHONE);
    await admin.goto(`${seededHub.url}/settings/team`);
    await row(admin, PAM.name).waitFor();
    const sideways = () => admin.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.equal(await sideways(), 0);
    await screenshot(admin, 'team-phone-list');
    await manage(admin, PAM.name);
    assert.equal(await sideways(), 0);
    await screenshot(admin, 'team-phone-manage');
    await admin.getByRole('button', { name: 'Add a user' }).click();
    await admin.getByRole('form', { name: 'Add a user' }).waitFor();
    assert.equal(await sideways(), 0);
    await screenshot(admin, 'team-phone-add');
    await admin.goto(`${seededHub.url}/settings`);
    const mail = admin.getByRole('region', { name: 'Mail', exact: true });
    await mail.getByRole('button', { name: 'Set a mail server' }).click();
    await mail.scrollIntoViewIfNeeded();
    assert.equal(await sideways(), 0);
    await screenshot(admin, 'team-phone-mail');
    await admin.setViewportSize(DESKTOP);
  });
});
