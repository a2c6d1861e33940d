// A deal reaches a lost stage only once the rep says why — from its page, the
// board's Move menu, a drag and bulk "Move to stage" — at 1280 and 390 px;
// converting a lead asks for the deal's name and value; the board keeps its
// stages in pipeline order on a phone.
import { test, until } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stablePort, hubClient, ownHubDatabase, serveHub, serveReplica, stop, stopAll, syncToken, syncUntil } from './ownHub.mjs';
import { pageApi, screenshot, signIn, signInAt, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const RUN = Date.now().toString(36);
const WIDTHS = [{ width: 1280, height: 800 }, { width: 390, height: 844 }];

let browser;
let seededHub;
let page;
let stages;
let lost;
let incoming;
let contactId;
let reasons;

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub);
  stages = (await api('GET', '/v2/stages?per_page=100')).body.items.map((i) => i.data);
  // The stages of the seeded Sales Pipeline (the board's first).
  const pipelineId = stages.find((s) => s.name === 'Incoming').pipeline_id;
  stages = stages.filter((s) => s.pipeline_id === pipelineId).sort((a, b) => a.position - b.position || a.id - b.id);
  lost = stages.find((s) => s.category === 'lost');
  incoming = stages.find((s) => s.name === 'Incoming');
  reasons = (await api('GET', '/v2/loss_reasons?per_page=100')).body.items.map((i) => i.data);
  assert.ok(reasons.length > 0, 'the seeded account keeps loss reasons');
  contactId = (await created('/v2/contacts', { first_name: 'Lorna', last_name: `Lostwell ${RUN}` })).id;
});
test.afterAll(() => closeContexts(browser));

function api(method, path, data) {
  return pageApi(page, method, path, data);
}

async function created(path, data) {
  const answer = await api('POST', path, data);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

/** A deal of this run in Incoming, tagged so the list can show just this run's. */
const newDeal = (name) => created('/v2/deals', { name: `${name} ${RUN}`, contact_id: contactId, value: '1500', stage_id: incoming.id, tags: [`lost-${RUN}`] });
const dealNow = async (id) => (await api('GET', `/v2/deals/${id}`)).body.data;

/** Opens a screen afresh (the board loads the deals made since), and waits for its heading. */
async function go(path, heading) {
  await page.goto(new URL(path, page.url()).href);
  await page.getByRole('heading', { name: heading, exact: true }).first().waitFor();
}


const reasonDialog = (question) => page.getByRole('dialog', { name: question });

/** Answers the open dialog with the first reason and confirms; answers the reason chosen. */
async function giveReason(dialog) {
  const reason = reasons[0];
  await dialog.getByLabel('Reason', { exact: true }).selectOption({ label: reason.name });
  await dialog.getByRole('button', { name: `Move to ${lost.name}` }).click();
  await dialog.waitFor({ state: 'detached' });
  return reason;
}

async function assertStays(id, what) {
  const deal = await dealNow(id);
  assert.equal(deal.stage_id, incoming.id, `${what}: the deal stays in Incoming`);
  assert.equal(deal.loss_reason_id, null, `${what}: no reason was saved`);
}

async function assertLost(id, reason, what) {
  await until(async () => (await dealNow(id)).stage_id === lost.id, `${what}: the move to Lost`);
  assert.equal((await dealNow(id)).loss_reason_id, reason.id, `${what}: the reason went with the move`);
}

for (const size of WIDTHS) {
  test.describe(`losing a deal at ${size.width} px`, () => {
    test.beforeAll(() => page.setViewportSize(size));

    test("asks why on the deal's page; Cancel keeps the stage, confirming moves it with the reason", async () => {
      const deal = await newDeal(`Page loss ${size.width}`);
      await go(`/deals/${deal.id}`, deal.name);
      const stage = page.getByRole('combobox', { name: /^Stage\b/ });
      await stage.selectOption(String(lost.id));
      const dialog = reasonDialog(`Why was ${deal.name} lost?`);
      await dialog.waitFor();
      await dialog.getByLabel('Reason', { exact: true }).waitFor();
      await screenshot(page, `lost-reason-page-${size.width}`);
      // Confirming without a reason says what is missing, in words.
      await dialog.getByRole('button', { name: `Move to ${lost.name}` }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Choose why the deal was lost.' }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await assertStays(deal.id, 'cancelled on the page');
      assert.equal(await stage.inputValue(), String(incoming.id), 'the stage control shows the stage the deal is still in');

      await stage.selectOption(String(lost.id));
      const reason = await giveReason(reasonDialog(`Why was ${deal.name} lost?`));
      await assertLost(deal.id, reason, 'confirmed on the page');
      await page.waitForFunction((id) => document.querySelector('.stage-move select')?.value === String(id), lost.id);
    });

    test("asks why from a card's Move menu; Escape leaves the card in its column", async () => {
      const deal = await newDeal(`Menu loss ${size.width}`);
      await go('/deals', 'Deals');
      const card = page.getByRole('region', { name: 'Incoming', exact: true }).getByRole('listitem', { name: deal.name, exact: true });
      await card.waitFor();
      await card.getByRole('button', { name: `Move ${deal.name} to stage` }).click();
      await page.getByRole('menu', { name: `Move ${deal.name} to stage` }).getByRole('menuitem', { name: lost.name, exact: true }).click();
      const dialog = reasonDialog(`Why was ${deal.name} lost?`);
      await dialog.waitFor();
      await screenshot(page, `lost-reason-board-${size.width}`);
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      await page.getByRole('status').filter({ hasText: `${deal.name} stays in Incoming.` }).waitFor();
      await card.waitFor();
      await assertStays(deal.id, 'escaped on the board');

      await card.getByRole('button', { name: `Move ${deal.name} to stage` }).click();
      await page.getByRole('menu', { name: `Move ${deal.name} to stage` }).getByRole('menuitem', { name: lost.name, exact: true }).click();
      const reason = await giveReason(reasonDialog(`Why was ${deal.name} lost?`));
      await assertLost(deal.id, reason, 'confirmed from the menu');
      await page.getByRole('status').filter({ hasText: `Moved ${deal.name} to ${lost.name}.` }).waitFor();
    });

    test('asks why when a card is dropped on Lost; Cancel puts the card back', async () => {
      const deal = await newDeal(`Drag loss ${size.width}`);
      await go('/deals', 'Deals');
      const incomingColumn = page.getByRole('region', { name: 'Incoming', exact: true });
      const card = incomingColumn.getByRole('listitem', { name: deal.name, exact: true });
      const lostColumn = page.getByRole('region', { name: lost.name, exact: true });
      await card.dragTo(lostColumn, { sourcePosition: { x: 6, y: 6 } });
      const dialog = reasonDialog(`Why was ${deal.name} lost?`);
      await dialog.waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await card.waitFor();
      await assertStays(deal.id, 'cancelled after a drag');

      await card.dragTo(lostColumn, { sourcePosition: { x: 6, y: 6 } });
      const reason = await giveReason(reasonDialog(`Why was ${deal.name} lost?`));
      await assertLost(deal.id, reason, 'confirmed after a drag');
      await card.waitFor({ state: 'detached' });
    });

    test('asks once for all the deals of a bulk Move to stage', async () => {
      const tag = `lost-bulk-${size.width}-${RUN}`;
      const deals = await Promise.all(['One', 'Two'].map((n) => created('/v2/deals', {
        name: `Bulk loss ${n} ${size.width} ${RUN}`, contact_id: contactId, value: '700', stage_id: incoming.id, tags: [tag],
      })));
      await go('/deals/list', 'Deals');
      // On a phone the filters fold behind their button.
      const filters = page.getByRole('button', { name: /^Filters/ });
      if (await filters.isVisible()) await filters.click();
      await page.getByLabel('Tag', { exact: true }).fill(tag);
      for (const deal of deals) await page.getByRole('checkbox', { name: `Select ${deal.name}` }).check();
      const bar = page.getByRole('region', { name: /Change the selected/ });
      await bar.getByText('2 deals selected').waitFor();
      await bar.getByLabel('Action').selectOption({ label: 'Move to stage' });
      await bar.getByLabel('New stage').selectOption(String(lost.id));
      await bar.getByRole('button', { name: 'Apply to 2 deals' }).click();
      const dialog = reasonDialog('Why were 2 deals lost?');
      await dialog.waitFor();
      await screenshot(page, `lost-reason-bulk-${size.width}`);
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      for (const deal of deals) await assertStays(deal.id, 'cancelled in bulk');

      await bar.getByRole('button', { name: 'Apply to 2 deals' }).click();
      const reason = await giveReason(reasonDialog('Why were 2 deals lost?'));
      await page.getByRole('status').filter({ hasText: '2 deals changed.' }).waitFor();
      for (const deal of deals) await assertLost(deal.id, reason, 'confirmed in bulk');
    });

    test("converts a lead into the deal named and valued in the dialog, the person among the deal's contacts", async () => {
      const first = `Conny${size.width}`;
      const last = `Convertwell ${RUN}`;
      const organization = `Convert Works ${size.width} ${RUN}`;
      const lead = await created('/v2/leads', { first_name: first, last_name: last, organization_name: organization });
      await go(`/leads/${lead.id}`, `${first} ${last}`);
      await page.getByRole('button', { name: 'Convert' }).click();
      const dialog = page.getByRole('dialog', { name: `Convert ${first} ${last}` });
      await dialog.waitFor();
      const dealName = dialog.getByLabel('Deal name');
      assert.equal(await dealName.inputValue(), `${organization} – ${first} ${last}`, 'the deal name starts as the lead names it');
      const account = (await api('GET', '/v2/accounts/self')).body.data;
      assert.equal(await dialog.getByLabel('Currency', { exact: true }).inputValue(), account.currency, "the value is in the account's currency");
      // No $0.00 deal made silently: an empty value is asked for.
      await dialog.getByRole('button', { name: 'Convert' }).click();
      await dialog.getByRole('alert').filter({ hasText: 'Enter what the deal is worth' }).waitFor();
      await screenshot(page, `convert-dialog-error-${size.width}`);

      await dealName.fill(`Fit-out ${size.width} ${RUN}`);
      await dialog.getByLabel('Value', { exact: true }).fill('12,500.50');
      assert.equal(await dialog.getByRole('alert').count(), 0, 'the error goes once the value is typed');
      await dialog.getByLabel('Currency', { exact: true }).selectOption('EUR');
      await screenshot(page, `convert-dialog-${size.width}`);
      await dialog.getByRole('button', { name: 'Convert' }).click();
      await page.waitForURL(/\/contacts\/\d+$/);

      const conversion = (await api('GET', `/v2/lead_conversions?lead_id=${lead.id}`)).body.items[0].data;
      const deal = await dealNow(conversion.deal_id);
      assert.equal(deal.name, `Fit-out ${size.width} ${RUN}`);
      assert.equal(deal.value, '12500.5');
      assert.equal(deal.currency, 'EUR');
      const associated = (await api('GET', `/v2/deals/${deal.id}/associated_contacts`)).body.items.map((i) => i.data.contact_id);
      assert.deepEqual(associated, [conversion.individual_id], 'the person is among the deal\'s contacts');
      await go(`/deals/${deal.id}`, deal.name);
      const contacts = page.getByRole('region', { name: 'Associated contacts' });
      // A phone folds the page's side sections.
      if (size.width < 640) await contacts.locator('summary').click();
      await contacts.getByRole('link', { name: `${first} ${last}`, exact: true }).waitFor();
      // The conversion's panel, on the deal and on the lead (each line wraps after its label on a phone).
      const panel = page.getByRole('region', { name: 'Lead conversion' });
      await panel.getByRole('link', { name: `${first} ${last}`, exact: true }).first().waitFor();
      await screenshot(page, `converted-deal-contacts-${size.width}`);
      await panel.scrollIntoViewIfNeeded();
      await screenshot(page, `converted-deal-${size.width}`);
      await go(`/leads/${lead.id}`, `${first} ${last}`);
      await panel.getByRole('link', { name: deal.name, exact: true }).waitFor();
      await screenshot(page, `converted-lead-${size.width}`);
    });
  });
}

test.describe('the board on a phone', () => {
  test('shows the stages in their pipeline order, open and closed alike', async () => {
    await page.setViewportSize(WIDTHS[1]);
    await go('/deals', 'Deals');
    await page.getByRole('region', { name: stages.at(-1).name, exact: true }).waitFor();
    const shown = await page.locator('.board-column').evaluateAll((columns) => columns.map((c) => {
      const box = c.getBoundingClientRect();
      return { name: c.getAttribute('aria-label'), top: box.top + window.scrollY, left: box.left + c.closest('.board, .closed-strip').scrollLeft };
    }));
    // In the page's order (what a screen reader reads) and as laid out: top to bottom, then left to right.
    assert.deepEqual(shown.map((c) => c.name), stages.map((s) => s.name), 'the page lists the stages in pipeline order');
    const laidOut = [...shown].sort((a, b) => (Math.abs(a.top - b.top) > 4 ? a.top - b.top : a.left - b.left)).map((c) => c.name);
    assert.deepEqual(laidOut, stages.map((s) => s.name), 'the stages are laid out in pipeline order');
    await screenshot(page, 'board-order-390');
    await page.getByRole('region', { name: lost.name, exact: true }).scrollIntoViewIfNeeded();
    await screenshot(page, 'board-order-390-closed');
  });
});

/**
 * A hub of the spec's own, with no demo data (so no loss reasons until one is
 * made), and a replica of it: a move to Lost goes without a question while the
 * account keeps no reasons, and with one, the question and the move work
 * offline on the replica and reach the hub together.
 */
test.describe('without reasons, and on a replica offline', () => {
  const ADMIN = { email: 'lost-admin@example.com', password: 'lost-e2e-password' };
  const WAIT = { timeout: 20_000 };
  let hubDir;
  let replicaDir;
  let hubDatabase;
  let hubPort;
  let hub;
  let replica;
  let token;
  let ownStages;
  let contact;

  const startHub = () => serveHub(hubPort, hubDir, ADMIN, hubDatabase.args);

  /** The own hub's REST API as its admin. */
  const hubApi = hubClient(() => hub.url, () => token);
  const ownLost = () => ownStages.find((s) => s.category === 'lost');
  const ownIncoming = () => ownStages.find((s) => s.category === 'incoming');
  async function hubDeal(name) {
    const answer = await hubApi('POST', '/v2/deals', { name, contact_id: contact.id, value: '900', stage_id: ownIncoming().id });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    return answer.body.data;
  }

  test.beforeAll(async () => {
    hubDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-lost-hub-'));
    replicaDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-lost-replica-'));
    hubDatabase = await ownHubDatabase('lost', seededHub.postgresCluster);
    hubPort = await stablePort();
    hub = await startHub();
    token = syncToken(hubDir, ADMIN.email, hubDatabase.args);
    replica = await serveReplica(hub.url, token, replicaDir);
    ownStages = (await hubApi('GET', '/v2/stages?per_page=100')).body.items.map((i) => i.data);
    contact = (await hubApi('POST', '/v2/contacts', { last_name: 'Offline Buyer' })).body.data;
  });
  test.afterAll(async () => {
    await stopAll();
    await hubDatabase?.drop();
    for (const dir of [hubDir, replicaDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('moves a deal to Lost without asking when the account keeps no reasons', async () => {
    // A new account starts with a few reasons: an admin may remove them all.
    for (const item of (await hubApi('GET', '/v2/loss_reasons?per_page=100')).body.items) {
      assert.equal((await hubApi('DELETE', `/v2/loss_reasons/${item.data.id}`)).status, 204);
    }
    assert.equal((await hubApi('GET', '/v2/loss_reasons')).body.items.length, 0);
    const deal = await hubDeal(`No reasons ${RUN}`);
    const hubPage = await signInAt(browser, hub.url, ADMIN);
    try {
      await hubPage.goto(new URL(`/deals/${deal.id}`, hubPage.url()).href);
      await hubPage.getByRole('heading', { name: deal.name, exact: true }).waitFor();
      await hubPage.getByRole('combobox', { name: /^Stage\b/ }).selectOption(String(ownLost().id));
      await hubPage.waitForFunction((id) => document.querySelector('.stage-move select')?.value === String(id), ownLost().id);
      assert.equal(await hubPage.getByRole('dialog').count(), 0, 'no question without reasons');
      const saved = (await hubApi('GET', `/v2/deals/${deal.id}`)).body.data;
      assert.equal(saved.stage_id, ownLost().id);
      assert.equal(saved.loss_reason_id, null);
    } finally {
      await hubPage.context().close();
    }
  });

  test('asks on the replica while the hub is away, and the hub gets the move with its reason', async () => {
    const reason = (await hubApi('POST', '/v2/loss_reasons', { name: `Budget cut ${RUN}` })).body.data;
    const deal = await hubDeal(`Offline loss ${RUN}`);
    const replicaPage = await signInAt(browser, replica.url, ADMIN);
    try {
      await syncUntil(replicaPage, 'Up to date');
      // The replica has the deal and the reason (its own copy) before the hub goes away.
      await replicaPage.waitForFunction(async (id) => {
        const { access } = JSON.parse(sessionStorage.getItem('outpost.tokens'));
        const answer = await fetch(`/v2/deals/${id}`, { headers: { Authorization: `Bearer ${access}` } });
        return answer.status === 200;
      }, deal.id, WAIT);
      await stop(hub.child);
      for (const size of WIDTHS) {
        await replicaPage.setViewportSize(size);
        await replicaPage.goto(new URL(`/deals/${deal.id}`, replicaPage.url()).href);
        await replicaPage.getByRole('heading', { name: deal.name, exact: true }).waitFor(WAIT);
        await replicaPage.getByRole('combobox', { name: /^Stage\b/ }).selectOption(String(ownLost().id));
        const dialog = replicaPage.getByRole('dialog', { name: `Why was ${deal.name} lost?` });
        await dialog.waitFor(WAIT);
        await screenshot(replicaPage, `lost-reason-replica-${size.width}`);
        if (size.width === WIDTHS[0].width) {
          await dialog.getByRole('button', { name: 'Cancel' }).click();
          await dialog.waitFor({ state: 'detached' });
          assert.equal((await pageApi(replicaPage, 'GET', `/v2/deals/${deal.id}`)).body.data.stage_id, ownIncoming().id, 'cancelled offline, the deal stays');
          continue;
        }
        await dialog.getByLabel('Reason', { exact: true }).selectOption({ label: reason.name });
        await dialog.getByRole('button', { name: `Move to ${ownLost().name}` }).click();
        await dialog.waitFor({ state: 'detached' });
      }
      // "Sync now" is in the sidebar, which a phone folds away.
      await replicaPage.setViewportSize(WIDTHS[0]);
      const local = (await pageApi(replicaPage, 'GET', `/v2/deals/${deal.id}`)).body.data;
      assert.equal(local.stage_id, ownLost().id, 'the replica keeps the move while offline');
      assert.equal(local.loss_reason_id, reason.id);
      await syncUntil(replicaPage, 'Offline');

      hub = await startHub();
      await syncUntil(replicaPage, 'Up to date');
      const onHub = (await hubApi('GET', `/v2/deals/${deal.id}`)).body.data;
      assert.equal(onHub.stage_id, ownLost().id, 'the hub has the move');
      assert.equal(onHub.loss_reason_id, reason.id, 'and the reason that went with it');
    } finally {
      await replicaPage.context().close();
    }
  });
});
