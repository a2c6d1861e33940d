// Duplicates: the Duplicates screen lists likely duplicates with the
// reason, the merge view takes a field from the other record and lands on the
// survivor with the other's activity; the create form warns of a match.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { blockingViolations, violationLines } from './axe.mjs';
import { pageApi, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
let page;
/** The group card whose heading says why and what is shared ("Same email 0-mira…"). */
const groupOf = (heading) => page.locator('.duplicate-group').filter({ has: page.getByRole('heading', { name: heading }) });
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
// Digits sort before letters: the groups made here come first among the demo data's.
const EMAIL = '0-mira.merge@merge.test';

/** axe-core's serious and critical violations (WCAG 2.x A and AA) on the page as it is now (within `include`, a selector), as rule: elements. */
async function violations(...include) {
  return violationLines(await blockingViolations(page, ...include));
}

async function created(path, data) {
  const answer = await pageApi(page, 'POST', path, data);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data.id;
}

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
});
test.afterAll(() => closeContexts(browser));

test.describe('duplicates', () => {
  let survivor;
  let other;

  test('lists contacts sharing an email on the Duplicates screen, reached from the Contacts screen, saying why', async () => {
    survivor = await created('/v2/contacts', { first_name: 'Mira', last_name: 'Merge', email: EMAIL, title: 'Buyer' });
    other = await created('/v2/contacts', { first_name: 'Mira', last_name: 'Merge', email: EMAIL.toUpperCase(), title: 'Head buyer', phone: '+1 475 462 0767' });
    await created('/v2/notes', { resource_type: 'contact', resource_id: other, content: 'Asked for the autumn catalogue' });
    await page.getByRole('link', { name: 'Find duplicates' }).click();
    await page.getByRole('heading', { name: 'Duplicates', exact: true }).waitFor();
    const group = groupOf(`Same email ${EMAIL}`);
    await group.waitFor();
    assert.equal(await group.getByRole('link', { name: 'Mira Merge', exact: true }).count(), 2);
    await screenshot(page, 'duplicates-1280');
    assert.deepEqual(await violations(), []);
  });

  test('merges with a field picked from the other record and lands on the survivor, which shows the moved note', async () => {
    await groupOf(`Same email ${EMAIL}`).getByRole('link', { name: /^Merge/ }).click();
    await page.getByRole('heading', { name: 'Merge contacts' }).waitFor();
    const title = page.getByRole('group', { name: 'Title' });
    // By default the survivor's value; the rep takes the other's.
    assert.equal(await title.getByRole('radio', { name: 'Buyer', exact: true }).isChecked(), true);
    await title.getByRole('radio', { name: 'Head buyer' }).check();
    // A blank of the survivor's is filled from the other by default.
    assert.equal(await page.getByRole('group', { name: 'Phone' }).getByRole('radio', { name: '+1 475 462 0767' }).isChecked(), true);
    await screenshot(page, 'duplicates-merge-1280');
    assert.deepEqual(await violations(), []);
    await page.getByRole('button', { name: 'Merge into Mira Merge' }).click();
    await page.waitForURL(`**/contacts/${survivor}`);
    await page.getByRole('heading', { name: 'Mira Merge' }).waitFor();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Asked for the autumn catalogue').waitFor();
    await screenshot(page, 'duplicates-survivor-1280');
    const kept = (await pageApi(page, 'GET', `/v2/contacts/${survivor}`)).body.data;
    assert.equal(kept.title, 'Head buyer');
    assert.equal(kept.phone, '+1 475 462 0767');
    assert.equal((await pageApi(page, 'GET', `/v2/contacts/${other}`)).status, 404);
  });

  test('warns on the new contact form as a matching email is typed, with a link to the existing contact', async () => {
    await page.goto(new URL('/contacts/new', page.url()).toString());
    await page.getByRole('heading', { name: 'New contact' }).waitFor();
    await page.getByLabel('Email').fill(EMAIL);
    const warning = page.getByRole('status').filter({ hasText: 'A contact with this email exists' });
    await warning.waitFor();
    await screenshot(page, 'duplicates-warning-1280');
    // The warning only: the rest of the form is the contact form's (the accessibility spec audits it).
    assert.deepEqual(await violations('.duplicate-warning'), []);
    await warning.getByRole('link', { name: 'open Mira Merge' }).click();
    await page.waitForURL(`**/contacts/${survivor}`);
  });

  test('warns on the new lead form too', async () => {
    await created('/v2/leads', { first_name: 'Lena', last_name: 'Lead', email: '0-lena@merge.test' });
    await page.goto(new URL('/leads/new', page.url()).toString());
    await page.getByRole('heading', { name: 'New lead' }).waitFor();
    await page.getByLabel('Email').fill('0-LENA@merge.test');
    await page.getByRole('status').filter({ hasText: 'A lead with this email exists' }).waitFor();
  });

  test('fits a phone: the groups and the merge view at 390 px', async () => {
    const a = await created('/v2/leads', { first_name: 'Pia', last_name: 'Phone', organization_name: 'Small Screens', mobile: '+44 20 7946 0018' });
    const b = await created('/v2/leads', { first_name: 'Pia', last_name: 'Phone', organization_name: 'Small screens', phone: '020 7946 0018', email: '0-pia@merge.test' });
    await page.setViewportSize(PHONE);
    await page.goto(new URL('/duplicates/leads', page.url()).toString());
    await groupOf('Same or similar name pia phone').waitFor();
    await screenshot(page, 'duplicates-390');
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    assert.ok(width <= 390, `no sideways scrolling (${width} px)`);
    await page.goto(new URL(`/duplicates/leads/${a}/merge/${b}`, page.url()).toString());
    await page.getByRole('heading', { name: 'Merge leads' }).waitFor();
    await screenshot(page, 'duplicates-merge-390');
    assert.deepEqual(await violations(), []);
    assert.ok(await page.evaluate(() => document.documentElement.scrollWidth) <= 390);
    await page.setViewportSize(DESKTOP);
  });
});
