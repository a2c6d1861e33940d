// The authorization-code flow as a third-party application's user lives it:
// the application sends the browser to the hub's consent page, the user signs
// in and allows (or denies), and the browser lands on the application's
// redirect URI — here a small HTTP server on 127.0.0.1 playing the application.
// The installed desktop app's redirect, `outpost://oauth/callback`, is not a
// web page: Chromium hands it to the OS (here there is no handler, so the
// navigation is aborted), and the attempt is what the test observes.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import { screenshot, closeContexts } from './browser.mjs';
import { passwordToken } from './ownHub.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
let callback;
let client;

/** The "application": answers its redirect URI with a page, like a real one would. */
function startCallbackServer() {
  const server = http.createServer((req, res) => {
    res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
    res.end('<!doctype html><title>Add-on</title><h1>Back in the add-on</h1>');
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, port: server.address().port })));
}

const adminToken = () => passwordToken(seededHub.url, seededHub.admin);

const redirectUri = () => `http://127.0.0.1:${callback.port}/callback`;
const authorizeUrl = (state) => `${seededHub.url}/oauth2/authorize?${new URLSearchParams({ response_type: 'code', client_id: client.client_id, redirect_uri: redirectUri(), state, scope: 'read profile' })}`;

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  callback = await startCallbackServer();
  // Registered by the admin, with a loopback redirect URI (any port may be used, RFC 8252).
  const response = await fetch(`${seededHub.url}/v2/oauth_clients`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${await adminToken()}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ data: { name: 'E2E Add-on', redirect_uri: 'http://127.0.0.1/callback' } }),
  });
  client = (await response.json()).data;
});
test.afterAll(async () => {
  await closeContexts(browser);
  callback?.server.close();
});

test.describe('OAuth consent page', () => {
  test('signs in and allows an application with JavaScript off; the code it gets buys a working token', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 900, height: 760 } });
    const page = await context.newPage();
    await page.goto(authorizeUrl('e2e-state-1'));
    await page.getByRole('heading', { name: 'Allow E2E Add-on to use your Outpost account?' }).waitFor();
    await page.getByText('See your name, email address and account').waitFor();
    await screenshot(page, '40-oauth-consent');

    // A wrong password first: the page asks again and says why; nothing is sent to the application.
    await page.getByLabel('Email').fill(seededHub.admin.email);
    await page.getByLabel('Password').fill('not-the-password');
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.getByRole('alert').filter({ hasText: 'The email or password is incorrect.' }).waitFor();
    assert.ok(page.url().startsWith(`${seededHub.url}/oauth2/authorize`));
    await screenshot(page, '41-oauth-consent-wrong-password');

    await page.getByLabel('Password').fill(seededHub.admin.password);
    await page.getByRole('button', { name: 'Allow' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri()));
    await page.getByRole('heading', { name: 'Back in the add-on' }).waitFor();
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('state'), 'e2e-state-1');
    const code = back.searchParams.get('code');
    assert.match(code, /^[0-9a-f]{64}$/);
    await screenshot(page, '42-oauth-back-in-application');

    // The application exchanges the code (client authenticated with Basic) and calls the API.
    const exchange = await fetch(`${seededHub.url}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from(`${client.client_id}:${client.client_secret}`).toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: back.origin + back.pathname }),
    });
    const tokens = await exchange.json();
    assert.equal(exchange.status, 200, JSON.stringify(tokens));
    assert.equal(tokens.scope, 'read profile');
    const self = await fetch(`${seededHub.url}/v2/users/self`, { headers: { Authorization: `Bearer ${tokens.access_token}` } });
    assert.equal((await self.json()).data.email, seededHub.admin.email);
    await context.close();
  });

  test('sends the user back with access_denied when they deny', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(authorizeUrl('e2e-state-2'));
    await page.getByRole('button', { name: 'Deny' }).click();
    await page.waitForURL((url) => url.href.startsWith(redirectUri()));
    const back = new URL(page.url());
    assert.equal(back.searchParams.get('error'), 'access_denied');
    assert.equal(back.searchParams.get('state'), 'e2e-state-2');
    assert.equal(back.searchParams.get('code'), null);
    await context.close();
  });

  test('sends the desktop app back through its outpost: link, which the page\'s policy admits, and the code buys tokens', async () => {
    const context = await browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    const blocked = [];
    page.on('console', (message) => message.text().includes('Content Security Policy') && blocked.push(message.text()));
    const verifier = randomBytes(32).toString('base64url');
    const appRedirect = 'outpost://oauth/callback';
    await page.goto(`${seededHub.url}/oauth2/authorize?${new URLSearchParams({
      response_type: 'code', client_id: 'outpost-app', redirect_uri: appRedirect, scope: 'read write profile sync', state: 'e2e-app-1',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'), code_challenge_method: 'S256',
    })}`);
    await page.getByLabel('Email').fill(seededHub.admin.email);
    await page.getByLabel('Password').fill(seededHub.admin.password);
    // Were `outpost:` missing from form-action, Chromium would block the form post (its redirect is checked too) and never try the link.
    const [handedOver] = await Promise.all([
      page.waitForEvent('request', (request) => request.url().startsWith(`${appRedirect}?`)),
      page.getByRole('button', { name: 'Allow' }).click(),
    ]);
    assert.deepEqual(blocked, []);
    const back = new URL(handedOver.url());
    assert.equal(back.searchParams.get('state'), 'e2e-app-1');
    const exchange = await fetch(`${seededHub.url}/oauth2/token`, {
      method: 'POST',
      headers: { Authorization: `Basic ${Buffer.from('outpost-app:').toString('base64')}`, 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: back.searchParams.get('code'), redirect_uri: appRedirect, code_verifier: verifier }),
    });
    const tokens = await exchange.json();
    assert.equal(exchange.status, 200, JSON.stringify(tokens));
    assert.equal(tokens.scope, 'read write profile sync');
    await context.close();
  });

  test('shows an error page, and stays on the hub, for a redirect URI that is not registered', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const url = authorizeUrl('e2e-state-3').replace(encodeURIComponent(redirectUri()), encodeURIComponent('https://attacker.example/cb'));
    const response = await page.goto(url);
    assert.equal(response.status(), 400);
    await page.getByRole('heading', { name: 'This sign-in request is not valid' }).waitFor();
    assert.ok(page.url().startsWith(seededHub.url));
    await screenshot(page, '43-oauth-bad-redirect');
    await context.close();
  });
});
