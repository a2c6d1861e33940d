// What the e2e specs do again and again: sign in on a page of its own, keep a screenshot of a screen
// in e2e/screenshots/ (looked at when a screen changes), call the REST API as a page's user.
import { mkdirSync } from 'node:fs';

const SCREENSHOTS = 'e2e/screenshots';
mkdirSync(SCREENSHOTS, { recursive: true });

/**
 * A page of its own on the seeded hub (e2e/fixtures.mjs), signed in as its admin or its agent (a fresh
 * context, so two users can be signed in at once); `context` adds options (a time zone, a locale).
 */
export async function signIn(browser, seededHub, who = 'admin', context = {}) {
  return signInAt(browser, seededHub.url, who === 'agent' ? seededHub.agent : seededHub.admin, context);
}

/** The same, on any Outpost server (a replica, say), with the given account. */
export async function signInAt(browser, url, account, options = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...options });
  const page = await context.newPage();
  await signInOn(page, url, account);
  return page;
}

/**
 * Signs in on a page the spec made itself (one with a fake clock, say), and opens the contacts. On a hub's
 * page the specs sign in as on a shared computer (the page talks to the hub, nothing kept in the browser)
 * unless `keepData`; the browser's own engine has specs of its own.
 */
export async function signInOn(page, url, { email, password }, { keepData = false } = {}) {
  await page.goto(url);
  await page.getByLabel('Email').fill(email);
  await asSharedComputer(page, !keepData);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // Sign-in lands on Today; the specs start from the contacts, as they always have.
  await page.getByRole('heading', { name: 'Today', exact: true }).waitFor();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Contacts' }).click();
  await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
}

/** Ticks (or leaves unticked) the sign-in form's "Shared computer", where the page offers it (a hub's page, not a replica's). */
export async function asSharedComputer(page, shared = true) {
  const choice = page.getByRole('checkbox', { name: 'Shared computer' });
  if ((await choice.count()) > 0) await choice.setChecked(shared);
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

/** Closes every page a spec opened (their contexts): the worker's browser goes on to the next spec. */
export async function closeContexts(browser) {
  await Promise.all(browser?.contexts().map((context) => context.close()) ?? []);
}

/**
 * Waits until the page's transitions and finite animations have finished (a drawer sliding in or out after a
 * resize or a click), so a screenshot or a measurement sees the screen at rest. Asking for the animations
 * brings the styles up to date first, so one that a resize has just started is among them.
 */
export async function settled(page) {
  await page.evaluate(() => Promise.all(document.getAnimations()
    .filter((animation) => animation.effect?.getComputedTiming().endTime !== Infinity)
    .map((animation) => animation.finished.catch(() => undefined))));
}

/** Waits until nothing on the screen is still loading (no "Loading…", nothing marked busy) and nothing moves. */
export async function atRest(page) {
  await page.getByText('Loading…', { exact: true }).first().waitFor({ state: 'detached' });
  await page.locator('[aria-busy=true]').first().waitFor({ state: 'detached' });
  await settled(page);
}
