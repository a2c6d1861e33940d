// Shared set-up for the e2e specs: Debian's Chromium driven by playwright-core,
// a signed-in page, and screenshots in e2e/screenshots/.
import { chromium } from 'playwright-core';
import { mkdirSync } from 'node:fs';

export const HUB = process.env.OUTPOST_E2E_URL ?? 'http://127.0.0.1:4100';
const SCREENSHOTS = 'e2e/screenshots';
mkdirSync(SCREENSHOTS, { recursive: true });

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}

/** A signed-in page of its own (a fresh context, so two users can be signed in at once); `context` adds options (a time zone). */
export async function signIn(browser, who = 'admin', context = {}) {
  const agent = who === 'agent';
  return signInAt(browser, HUB, {
    email: agent ? process.env.OUTPOST_E2E_AGENT_EMAIL : process.env.OUTPOST_E2E_EMAIL,
    password: agent ? process.env.OUTPOST_E2E_AGENT_PASSWORD : process.env.OUTPOST_E2E_PASSWORD,
  }, context);
}

/** The same, on any Outpost server (a replica, say), with the given account. */
export async function signInAt(browser, url, { email, password }, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  await page.goto(url);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Sign-in lands on Today; the specs start from the contacts, as they always have.
  await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
  return page;
}

export const screenshot = (page, name) => page.screenshot({ path: `${SCREENSHOTS}/${name}.png` });

/** A REST call from inside a signed-in page, with its token: what the UI did, checked through the API. */
export function pageApi(page, method, path, data) {
  return page.evaluate(async ({ method, path, data }) => {
    const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
    const headers = { Authorization: `Bearer ${access}`, Accept: 'application/json', 'Content-Type': 'application/json' };
    const response = await fetch(path, { method, headers, body: data === undefined ? undefined : JSON.stringify({ data }) });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  }, { method, path, data });
}
