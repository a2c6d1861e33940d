import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { axe } from './axe.mjs';
import { screenshot, signIn, pageApi, closeContexts, settled } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

let browser;
let seededHub;
let page;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
});
test.afterAll(() => closeContexts(browser));

/** The REST API as the signed-in user of the page (its token is in the tab's sessionStorage). */
function api(method, path, data) {
  return pageApi(page, method, path, data);
}

const column = (name) => page.getByRole('region', { name, exact: true });
const card = (name) => page.getByRole('listitem', { name, exact: true });

test.describe('deals', () => {
  let stages;
  let contactId;
  let dealId;
  let createdStageChange;
  const stageId = (name) => stages.find((s) => s.name === name).id;

  test.beforeAll(async () => {
    stages = (await api('GET', '/v2/stages?per_page=100')).body.items.map((i) => i.data);
    const contact = await api('POST', '/v2/contacts', { first_name: 'Dana', last_name: 'Dealmaker' });
    assert.equal(contact.status, 200);
    contactId = contact.body.data.id;
  });

  test('shows the default pipeline as a board of its stages', async () => {
    await page.getByRole('link', { name: 'Deals', exact: true }).click();
    await page.getByRole('heading', { name: 'Deals' }).waitFor();
    for (const name of ['Incoming', 'Qualified', 'Quote', 'Closure', 'Won', 'Lost']) await column(name).getByRole('heading', { name }).waitFor();
    assert.equal(await page.getByLabel('Pipeline').locator('option:checked').textContent(), 'Sales Pipeline');
  });

  test('says it is loading until its stages and their deals have arrived, never showing a board of too few columns', async () => {
    const held = { stages: Promise.withResolvers(), deals: Promise.withResolvers() };
    const hold = (which) => async (route) => {
      await held[which].promise;
      await route.continue();
    };
    const isStages = (url) => url.pathname === '/v2/stages';
    const isColumn = (url) => url.pathname === '/v2/deals' && url.searchParams.has('stage_id');
    await page.route(isStages, hold('stages'));
    await page.route(isColumn, hold('deals'));
    try {
      await page.getByRole('link', { name: 'Contacts', exact: true }).click();
      await page.getByRole('heading', { name: 'Contacts', exact: true }).waitFor();
      await page.getByRole('link', { name: 'Deals', exact: true }).click();
      await page.getByText('Loading…', { exact: true }).waitFor();
      assert.equal(await column('Incoming').count(), 0, 'no column before the stages are known');
      held.stages.resolve();
      await column('Incoming').waitFor();
      assert.equal(await page.locator('.board').getAttribute('aria-busy'), 'true', 'busy while the columns\' deals load');
      held.deals.resolve();
      await page.locator('.board[aria-busy=false]').waitFor();
    } finally {
      held.stages.resolve();
      held.deals.resolve();
      await page.unroute(isStages);
      await page.unroute(isColumn);
    }
  });

  test('creates a deal with a value, a contact and a stage', async () => {
    await page.getByRole('link', { name: 'New deal', exact: true }).click();
    await page.getByRole('heading', { name: 'New deal' }).waitFor();
    await page.getByRole('button', { name: 'Save' }).click();
    const nameError = page.locator('.field.invalid').filter({ hasText: 'Name' }).getByRole('alert');
    await nameError.waitFor();

    await page.getByLabel('Name *').fill('Boardwalk Renewal');
    await page.getByLabel('Value').fill('1250.50');
    await page.getByLabel('Contact *', { exact: true }).fill('Dealmaker');
    await page.getByRole('listbox', { name: 'Contact suggestions' }).getByRole('button', { name: /Dana Dealmaker/ }).click();
    assert.equal(await page.getByLabel('Stage').locator('option:checked').textContent(), 'Incoming');
    await screenshot(page, '70-new-deal');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('heading', { name: 'Boardwalk Renewal' }).waitFor();
    await page.getByText('$1,250.50').first().waitFor();
    await page.getByRole('link', { name: 'Dana Dealmaker' }).first().waitFor();
    dealId = Number(new URL(page.url()).pathname.split('/').pop());

    const saved = (await api('GET', `/v2/deals/${dealId}`)).body.data;
    assert.match(saved.value, /^1250\.50?$/, 'the value is kept as an exact decimal string');
    assert.equal(saved.stage_id, stageId('Incoming'));
    createdStageChange = saved.last_stage_change_at;
    await screenshot(page, '71-deal-page');
  });

  test('moves the deal to another stage by drag and drop', async () => {
    await page.getByRole('link', { name: 'Deals', exact: true }).click();
    const incoming = column('Incoming');
    await incoming.getByRole('listitem', { name: 'Boardwalk Renewal' }).waitFor();
    const inIncoming = (await api('GET', `/v2/deals?stage_id=${stageId('Incoming')}&per_page=100`)).body.items;
    await incoming.getByText(`${inIncoming.length} ${inIncoming.length === 1 ? 'deal' : 'deals'}`).waitFor();
    await screenshot(page, '72-board');

    await card('Boardwalk Renewal').dragTo(column('Qualified'), { sourcePosition: { x: 6, y: 6 } });
    await column('Qualified').getByRole('listitem', { name: 'Boardwalk Renewal' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Moved Boardwalk Renewal to Qualified.' }).waitFor();

    const moved = (await api('GET', `/v2/deals/${dealId}`)).body.data;
    assert.equal(moved.stage_id, stageId('Qualified'));
    assert.ok(moved.last_stage_change_at >= (createdStageChange ?? ''), 'the move set last_stage_change_at');
    assert.equal(moved.last_stage_change_by_id, (await api('GET', '/v2/users/self')).body.data.id);

    await page.reload();
    await column('Qualified').getByRole('listitem', { name: 'Boardwalk Renewal' }).waitFor();
    assert.equal(await column('Incoming').getByRole('listitem', { name: 'Boardwalk Renewal' }).count(), 0);
    await screenshot(page, '73-dragged-to-qualified');
  });

  test('moves the deal with the card\'s Move menu, from the keyboard', async () => {
    const move = card('Boardwalk Renewal').getByRole('button', { name: 'Move Boardwalk Renewal to stage' });
    await move.focus();
    await page.keyboard.press('Enter');
    const menu = page.getByRole('menu', { name: 'Move Boardwalk Renewal to stage' });
    await menu.waitFor();
    await screenshot(page, '73b-move-menu');
    await menu.getByRole('menuitem', { name: 'Quote' }).focus();
    await page.keyboard.press('Enter');
    await column('Quote').getByRole('listitem', { name: 'Boardwalk Renewal' }).waitFor();
    await page.getByRole('status').filter({ hasText: 'Moved Boardwalk Renewal to Quote.' }).waitFor();
    assert.equal((await api('GET', `/v2/deals/${dealId}`)).body.data.stage_id, stageId('Quote'));

    await page.reload();
    await column('Quote').getByRole('listitem', { name: 'Boardwalk Renewal' }).waitFor();
    assert.equal(await column('Qualified').getByRole('listitem', { name: 'Boardwalk Renewal' }).count(), 0);
    await screenshot(page, '74-moved-to-quote');
  });

  test('sums a column\'s values exactly (0.1 + 0.2 is 0.30, not a float sum)', async () => {
    for (const value of ['0.1', '0.2']) {
      const created = await api('POST', '/v2/deals', { name: `Tiny ${value}`, value, currency: 'USD', contact_id: contactId, stage_id: stageId('Closure') });
      assert.equal(created.status, 200);
    }
    await page.reload();
    const closure = column('Closure');
    await closure.getByRole('listitem', { name: 'Tiny 0.2' }).waitFor();
    const deals = (await api('GET', `/v2/deals?stage_id=${stageId('Closure')}&per_page=100`)).body.items.map((i) => i.data);
    // Only these two when this spec runs alone; otherwise the total of what is there, computed in cents.
    const cents = deals.reduce((sum, d) => sum + BigInt(d.value.replace(/^(\d+)(?:\.(\d{0,2}))?$/, (_, w, f = '') => w + f.padEnd(2, '0'))), 0n);
    const expected = `$${(cents / 100n).toLocaleString('en-US')}.${String(cents % 100n).padStart(2, '0')}`;
    await closure.locator('.deal-total').filter({ hasText: expected }).waitFor();
    assert.equal(await closure.locator('.deal-total').textContent(), expected);
  });

  test('moves the deal from its own page', async () => {
    await card('Boardwalk Renewal').getByRole('link', { name: 'Boardwalk Renewal' }).click();
    await page.getByRole('heading', { name: 'Boardwalk Renewal' }).waitFor();
    await page.getByLabel('Stage').selectOption({ label: 'Closure' });
    await page.getByText(/^Closure \(75%\)$/).waitFor();
    assert.equal((await api('GET', `/v2/deals/${dealId}`)).body.data.stage_id, stageId('Closure'));
  });

  test('adds and removes a tag', async () => {
    const tags = page.getByRole('region', { name: 'Tags' });
    await tags.getByLabel('New tag').fill('e2e-renewal');
    await tags.getByRole('button', { name: 'Add tag' }).click();
    await tags.getByRole('button', { name: 'Remove tag e2e-renewal' }).waitFor();
    assert.deepEqual((await api('GET', `/v2/deals/${dealId}`)).body.data.tags, ['e2e-renewal']);
    await screenshot(page, '75-deal-tagged');

    await tags.getByRole('button', { name: 'Remove tag e2e-renewal' }).click();
    await tags.getByText('No tags.').waitFor();
    assert.deepEqual((await api('GET', `/v2/deals/${dealId}`)).body.data.tags, []);
  });

  test('adds a collaborator', async () => {
    const panel = page.getByRole('region', { name: 'Collaborators' });
    await panel.getByRole('combobox', { name: /^Collaborator/ }).selectOption({ label: 'Agent Smith' });
    await panel.getByRole('button', { name: 'Add collaborator' }).click();
    await panel.getByRole('button', { name: 'Remove collaborator Agent Smith' }).waitFor();
    const found = (await api('GET', `/v2/collaborations?resource_type=deal&resource_id=${dealId}`)).body.items.map((i) => i.data);
    const agent = (await api('GET', '/v2/users?per_page=100')).body.items.map((i) => i.data).find((u) => u.name === 'Agent Smith');
    assert.deepEqual(found.map((c) => c.collaborator_id), [agent.id]);
    await screenshot(page, '76-deal-collaborator');
  });

  test('associates a contact with a role and removes it', async () => {
    const panel = page.getByRole('region', { name: 'Associated contacts' });
    await panel.getByLabel('Contact to add').fill('Dealmaker');
    await panel.getByRole('listbox').getByRole('button', { name: /Dana Dealmaker/ }).click();
    await panel.getByLabel('Role').fill('decision maker');
    await panel.getByRole('button', { name: 'Add contact' }).click();
    await panel.getByText('decision maker').waitFor();
    const associated = (await api('GET', `/v2/deals/${dealId}/associated_contacts`)).body.items.map((i) => i.data);
    assert.deepEqual(associated.map((a) => a.role), ['decision maker']);
    await screenshot(page, '77-associated-contact');

    await panel.getByRole('button', { name: 'Remove contact Dana Dealmaker' }).click();
    // The deal's own contact stays listed (it is changed on the deal, not here).
    await panel.getByText('No other contacts associated yet.').waitFor();
    await panel.getByRole('link', { name: 'Dana Dealmaker' }).waitFor();
    assert.equal((await api('GET', `/v2/deals/${dealId}/associated_contacts`)).body.items.length, 0);
  });

  test('keeps the deal\'s activity on its timeline', async () => {
    await page.getByLabel('Note', { exact: true }).fill('Renewal terms sent for review');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Renewal terms sent for review').waitFor();
    // A call logged on the deal is a call among whose associated deals it is.
    await page.getByRole('tab', { name: 'Call', exact: true }).click();
    await page.getByLabel('Phone number').fill('+1 720 555 0199');
    await page.getByLabel('Summary').fill('Agreed the renewal date');
    await page.getByRole('button', { name: 'Log call' }).click();
    await page.getByRole('region', { name: 'Timeline' }).getByText('Agreed the renewal date', { exact: false }).waitFor();
    const calls = (await api('GET', `/v2/calls?associated_deal_id=${dealId}`)).body.items.map((i) => i.data);
    assert.deepEqual(calls.map((c) => [c.summary, c.associated_deal_ids, c.resource_type]), [['Agreed the renewal date', [dealId], null]]);
    await screenshot(page, '78-deal-timeline');
  });
});

/**
 * What a total in several currencies should read, computed here apart from the app: each currency's sum in
 * cents × its rate (ten decimals), added, rounded half up to the cent once, formatted by the page's own Intl.
 */
async function convertedText(amounts, currency, rates) {
  const cents = {};
  for (const a of amounts) cents[a.currency] = (cents[a.currency] ?? 0n) + BigInt(a.value.replace(/^(\d+)(?:\.(\d*))?$/, (_, w, f = '') => w + f.padEnd(2, '0')));
  const scaled = (rate) => BigInt(rate.replace(/^(\d+)(?:\.(\d*))?$/, (_, w, f = '') => w + f.padEnd(10, '0')));
  const withRate = Object.entries(cents).filter(([c]) => c === currency || rates[c]);
  const exact = withRate.reduce((sum, [c, v]) => sum + v * scaled(c === currency ? '1' : rates[c]), 0n);
  const total = String((exact + 5_000_000_000n) / 10_000_000_000n);
  const originals = Object.fromEntries(Object.entries(cents).map(([c, v]) => [c, String(v)]));
  return page.evaluate(({ total, currency, originals }) => {
    const format = (cents, c) => new Intl.NumberFormat(undefined, { style: 'currency', currency: c }).format(`${BigInt(cents) / 100n}.${String(BigInt(cents) % 100n).padStart(2, '0')}`);
    return { total: format(total, currency), originals: Object.entries(originals).map(([c, v]) => format(v, c)) };
  }, { total, currency, originals });
}

test.describe('money in one currency', () => {
  let stages;
  let account;
  let rates;
  const stageId = (name) => stages.find((s) => s.name === name).id;
  const dealsIn = async (name) => {
    const deals = [];
    for (let p = 1; ; p++) {
      const items = (await api('GET', `/v2/deals?stage_id=${stageId(name)}&per_page=100&page=${p}`)).body.items.map((i) => i.data);
      deals.push(...items);
      if (items.length < 100) return deals;
    }
  };

  test.beforeAll(async () => {
    stages = (await api('GET', '/v2/stages?per_page=100')).body.items.map((i) => i.data);
    account = (await api('GET', '/v2/accounts/self')).body.data;
    rates = Object.fromEntries((await api('GET', '/v2/exchange_rates')).body.items.map((i) => [i.data.currency, i.data.rate]));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Deals', exact: true }).click();
    await column('Incoming').getByRole('heading', { name: 'Incoming' }).waitFor();
  });

  test('totals a column of several currencies in the account\'s currency, the originals on a closer look', async () => {
    const open = stages.filter((s) => s.pipeline_id === stages[0].pipeline_id && ['incoming', 'in_progress'].includes(s.category));
    let mixed;
    for (const stage of open) {
      const deals = await dealsIn(stage.name);
      if (new Set(deals.map((d) => d.currency)).size > 1) {
        mixed = { stage, deals };
        break;
      }
    }
    assert.ok(mixed, 'the demo board has a column of several currencies');
    const expected = await convertedText(mixed.deals, account.currency, rates);
    const total = column(mixed.stage.name).locator('.deal-total');
    await total.locator('summary').filter({ hasText: expected.total }).waitFor();
    assert.equal((await total.locator('summary .money').innerText()).trim(), expected.total);
    // One amount, never "$… + £…".
    assert.doesNotMatch(await total.locator('summary').innerText(), /\+/);
    await total.locator('summary').click();
    const originals = await total.getByRole('list', { name: 'Original amounts' }).locator('.money').allInnerTexts();
    assert.deepEqual(originals.sort(), expected.originals.sort());
    await screenshot(page, 'money-board-originals');
    await total.locator('summary').click();
  });

  test('leaves a currency without a rate out of a total, and says so next to it', async () => {
    assert.equal(rates.CHF, undefined, 'the demo has no rate for CHF');
    const contactId = (await api('GET', '/v2/contacts?per_page=1')).body.items[0].data.id;
    const chf = (await api('POST', '/v2/deals', { name: 'Zurich pilot', value: '1200', currency: 'CHF', contact_id: contactId, stage_id: stageId('Incoming') })).body.data;
    try {
      await page.reload();
      const deals = await dealsIn('Incoming');
      const expected = await convertedText(deals, account.currency, rates);
      const francs = await page.evaluate(() => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'CHF' }).format('1200'));
      const total = column('Incoming').locator('.deal-total');
      await total.getByText(`+ ${francs} without an exchange rate`).waitFor();
      assert.equal((await total.locator('.money').first().innerText()).trim(), expected.total, 'the francs are not in the total');
      await screenshot(page, 'money-board-unconverted');
    } finally {
      await api('DELETE', `/v2/deals/${chf.id}`);
    }
  });

  test('shows won, lost and unqualified readable in a strip, with their counts and totals, their deals on demand', async () => {
    await page.reload();
    for (const name of ['Won', 'Lost', 'Unqualified']) {
      const deals = await dealsIn(name);
      const stage = column(name);
      await stage.locator('.deal-count').filter({ hasText: `${deals.length} ${deals.length === 1 ? 'deal' : 'deals'}` }).waitFor();
      const expected = await convertedText(deals, account.currency, rates);
      assert.equal((await stage.locator('.deal-total .money').first().innerText()).trim(), expected.total, `${name} total`);
      assert.equal(await stage.getByRole('listitem').count(), 0, `${name}'s cards wait for Show deals`);
    }
    const won = column('Won');
    await won.getByRole('button', { name: 'Show deals' }).click();
    assert.equal(await won.getByRole('button', { name: 'Hide deals' }).getAttribute('aria-expanded'), 'true');
    const wonDeals = await dealsIn('Won');
    await won.getByRole('listitem', { name: wonDeals[0].name, exact: true }).first().waitFor();
    await screenshot(page, 'money-board-won-shown-1280');
    // The strip's text stays on one line per stage and reads as a sentence: "Won 12 deals · $…".
    const box = await column('Lost').locator('.board-column-head').boundingBox();
    assert.ok(box.height < 60, `Lost's head is one or two lines (${box.height}px)`);
    await won.getByRole('button', { name: 'Hide deals' }).click();
  });

  test('names each card by its visible name (axe finds no accessible-name mismatch on the board)', async () => {
    await column('Won').getByRole('button', { name: 'Show deals' }).click();
    const results = await axe(page).include('.closed-strip').include('.board')
      .withRules(['label-content-name-mismatch', 'color-contrast', 'aria-allowed-attr', 'aria-prohibited-attr', 'button-name', 'link-name', 'nested-interactive', 'list', 'listitem'])
      .analyze();
    assert.deepEqual(results.violations.map((v) => `${v.id}: ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(', ')}`), []);
    const cardName = await page.locator('.deal-card').first().evaluate((card) => {
      const named = document.getElementById(card.getAttribute('aria-labelledby'));
      return { name: named.textContent, visible: card.innerText };
    });
    assert.ok(cardName.visible.startsWith(cardName.name), `"${cardName.visible}" starts with "${cardName.name}"`);
    await column('Won').getByRole('button', { name: 'Hide deals' }).click();
  });

  test('keeps every amount on the board whole: no amount breaks across lines, at 1280 and 390 px', async () => {
    for (const [width, height] of [[1280, 800], [390, 844]]) {
      await page.setViewportSize({ width, height });
      await column('Incoming').locator('.deal-card').first().waitFor();
      await settled(page); // the navigation drawer slides out of sight at phone width
      const broken = await page.locator('.deal-card .money, .deal-total .money').evaluateAll((els) => els
        .filter((el) => el.getClientRects().length > 1 || el.getBoundingClientRect().height > parseFloat(getComputedStyle(el).lineHeight || '20') * 1.5)
        .map((el) => el.textContent));
      assert.deepEqual(broken, [], `${width}px`);
      await screenshot(page, `money-board-${width}`);
    }
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('shows Home\'s pipeline in the account\'s currency, its currencies on a closer look', async () => {
    const me = (await api('GET', '/v2/users/self')).body.data;
    const summary = (await api('GET', `/v2/deals/summary?owner_id=${me.id}`)).body.data.stages;
    const openIds = new Set(stages.filter((s) => ['incoming', 'in_progress'].includes(s.category) && s.pipeline_id === stages[0].pipeline_id).map((s) => s.id));
    const amounts = summary.filter((s) => openIds.has(s.stage_id)).flatMap((s) => s.totals.map((t) => ({ currency: t.currency, value: t.value })));
    const expected = await convertedText(amounts, account.currency, rates);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Today' }).click();
    const foot = page.getByRole('table', { name: 'Sales Pipeline' }).locator('tfoot td').last();
    await foot.locator('.money').first().filter({ hasText: expected.total }).waitFor();
    assert.equal((await foot.locator('.money').first().innerText()).trim(), expected.total);
    if (expected.originals.length > 1) {
      await foot.locator('summary').click();
      assert.deepEqual((await foot.getByRole('list', { name: 'Original amounts' }).locator('.money').allInnerTexts()).sort(), expected.originals.sort());
    }
    await screenshot(page, 'money-home-1280');
    await page.setViewportSize({ width: 390, height: 844 });
    await foot.scrollIntoViewIfNeeded();
    await settled(page); // the navigation drawer slides out of sight at phone width
    await screenshot(page, 'money-home-390');
    await page.setViewportSize({ width: 1280, height: 800 });
  });

  test('takes a deal\'s currency from the ISO 4217 list only: the form has no "XYZ", the API answers 422', async () => {
    await page.goto(new URL('/deals/new', page.url()).toString());
    const currency = page.getByLabel('Currency', { exact: true });
    await currency.waitFor();
    assert.equal(await currency.evaluate((el) => el.tagName), 'SELECT');
    assert.equal(await currency.locator('option[value="XYZ"]').count(), 0);
    assert.equal(await currency.locator('option:checked').textContent(), `${account.currency} — ${(await currency.locator(`option[value="${account.currency}"]`).textContent()).split(' — ')[1]}`);
    await currency.selectOption('EUR');
    assert.equal(await currency.locator('option:checked').textContent(), 'EUR — Euro');
    const contactId = (await api('GET', '/v2/contacts?per_page=1')).body.items[0].data.id;
    const refused = await api('POST', '/v2/deals', { name: 'Odd money', currency: 'XYZ', contact_id: contactId });
    assert.equal(refused.status, 422);
    assert.deepEqual(refused.body.errors.map((e) => e.error.field), ['/currency']);
  });
});
