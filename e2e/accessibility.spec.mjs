// axe-core's audit (WCAG 2.0, 2.1 and 2.2, levels A and AA) of every main
// screen (e2e/screens.mjs) on a laptop (1280 × 800) and on a phone
// (390 × 844), and of the open navigation drawer and dialogs: no serious or
// critical violation. A failure lists each violation by screen, with the
// rule, its impact, the elements (CSS selectors) and what to fix.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { blockingViolations } from './axe.mjs';
import { signIn, closeContexts, settled } from './browser.mjs';
import { DESKTOP, PHONE, go, makeFixtures, removeFixtures, screens } from './screens.mjs';

// Each audit stands alone (on the records beforeAll makes): the two long ones may run in two workers at once.
test.describe.configure({ mode: 'parallel' });

/** The elements shown for each violation; the rest are counted. */
const SHOWN_NODES = 6;

let browser;
let seededHub;
let page;
let made;

/** The serious and critical violations on the page as it is now. */
const audit = () => blockingViolations(page);

/** One violation as a reader can act on it: the rule, its impact, each element and what is wrong with it. */
function describeViolation(v) {
  const nodes = v.nodes.slice(0, SHOWN_NODES).map((n) => {
    const summary = (n.failureSummary ?? '').replace(/\s*\n\s*/g, ' ').replace(/^Fix (any|all) of the following: /, '');
    return `      ${n.target.join(' ')}\n        ${summary}`;
  });
  if (v.nodes.length > SHOWN_NODES) nodes.push(`      … and ${v.nodes.length - SHOWN_NODES} more`);
  return `    ${v.id} (${v.impact}, ${v.nodes.length} element${v.nodes.length === 1 ? '' : 's'}): ${v.help}\n${nodes.join('\n')}`;
}

/** Audits every screen at a size: a line per screen with its count, then every violation; asserts there are none. */
async function auditAll(size, prefix) {
  await page.setViewportSize(size);
  const found = [];
  for (const [name, path, heading] of screens(made)) {
    await go(page, path, heading);
    found.push([`${prefix}-${name}`, await audit()]);
  }
  assertNone(found);
}

function assertNone(found) {
  const counts = found.map(([name, violations]) => `  ${name}: ${violations.reduce((n, v) => n + v.nodes.length, 0)} in ${violations.length} rule(s)`);
  console.log(`serious or critical accessibility violations (elements in rules):\n${counts.join('\n')}`);
  const failing = found.filter(([, violations]) => violations.length > 0);
  assert.equal(failing.length, 0, `serious or critical accessibility violations on ${failing.length} of ${found.length}:\n${failing
    .map(([name, violations]) => `  ${name}\n${violations.map(describeViolation).join('\n')}`).join('\n')}`);
}

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
  made = await makeFixtures(page);
});
test.afterAll(async () => {
  if (page && made) await removeFixtures(page, made);
  await closeContexts(browser);
});

test.describe('accessibility (axe-core, WCAG 2.x A and AA)', () => {
  test('finds no serious or critical violation on any screen on a laptop (1280 px)', async () => {
    test.slow(); // every screen, each audited: three times the usual time
    await auditAll(DESKTOP, 'desktop');
  });

  test('finds none on a phone (390 px)', async () => {
    test.slow();
    await auditAll(PHONE, 'phone');
  });

  test('finds none in the open navigation drawer, the command palette or the new-task dialog', async () => {
    const found = [];
    await page.setViewportSize(PHONE);
    await go(page, '/', 'Today');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Leads' }).waitFor();
    await settled(page); // the drawer slides in
    found.push(['phone-navigation-open', await audit()]);
    await page.keyboard.press('Escape');

    await page.setViewportSize(DESKTOP);
    await go(page, '/contacts', 'Contacts');
    await page.getByRole('button', { name: /^Search…/ }).click();
    const palette = page.getByRole('dialog', { name: 'Command palette' });
    await palette.getByRole('combobox').fill('a');
    await palette.getByRole('option').first().waitFor();
    // The results as they settle, not dimmed while the search runs.
    await palette.locator('[role="listbox"][aria-busy="false"]').waitFor();
    found.push(['desktop-command-palette', await audit()]);
    await page.keyboard.press('Escape');
    await palette.waitFor({ state: 'hidden' });

    await page.keyboard.press('Alt+Shift+T');
    const dialog = page.getByRole('dialog', { name: 'New task' });
    await dialog.waitFor();
    found.push(['desktop-new-task-dialog', await audit()]);
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    assertNone(found);
  });
});
