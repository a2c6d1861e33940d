// Tasks moved and edited in place: Reschedule (Tomorrow, Next week, a picked
// date) on the Tasks screen, on Home and on a record's timeline; Edit (content,
// due date, reminder, owner) saved in place; several overdue tasks rescheduled
// at once; "Add task" confirmed in a status message; every completion checkbox
// named after its task. At desktop and phone widths.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pageApi, screenshot, signIn, signInAt, closeContexts } from './browser.mjs';
import { stablePort, hubClient, serveHub, serveReplica, stop, stopAll, syncToken, syncUntil } from './ownHub.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } };
const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

/**
 * An IANA zone where it is about noon now (as Etc/GMT names them, sign
 * reversed): "today", "tomorrow" and "overdue" are hours from a day's edge
 * whenever this runs, and the zone has no daylight saving to step over.
 */
function noonZone() {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}
const zone = noonZone();

/** A moment's local day and time of day in the spec's zone: `{ date: '2027-01-19', time: '14:35' }`. */
function local(ms) {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone: zone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const p = Object.fromEntries(format.formatToParts(new Date(ms)).map((part) => [part.type, part.value]));
  return { date: `${p.year}-${p.month}-${p.day}`, time: `${p.hour}:${p.minute}` };
}
const localOf = (iso) => local(Date.parse(iso));
/** The local calendar day `n` days from today, as a date input holds it. */
function dayFromToday(n) {
  const today = local(Date.now()).date.split('-').map(Number);
  return new Date(Date.UTC(today[0], today[1] - 1, today[2] + n)).toISOString().slice(0, 10);
}
/** The wire format: UTC, whole minutes (a date and time input shows no seconds). */
const iso = (ms) => new Date(Math.floor(ms / MINUTE) * MINUTE).toISOString().replace(/\.\d{3}Z$/, 'Z');

let browser;
let seededHub;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
});
test.afterAll(async () => {
  await closeContexts(browser);
  await stopAll();
});

for (const [width, size] of Object.entries(SIZES)) {
  test.describe(`tasks rescheduled and edited in place (${width})`, () => {
    const MARK = `Resched${width}${Date.now().toString(36)}`;
    let page;
    let me;
    let agent;
    const api = (method, path, data) => pageApi(page, method, path, data);
    const task = async (id) => (await api('GET', `/v2/tasks/${id}`)).body.data;
    const newTask = async (data) => {
      const answer = await api('POST', '/v2/tasks', data);
      assert.equal(answer.status, 200, JSON.stringify(answer.body));
      return answer.body.data;
    };
    const section = (name) => page.getByRole('region', { name, exact: true });
    const row = (within, content) => within.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: `Complete: ${content}`, exact: true }) }).last();
    /** The Tasks screen narrowed to this spec's tasks (the demo data has overdue tasks of its own). */
    const openTasks = async (search) => {
      await page.goto(`${seededHub.url}/tasks`);
      await page.getByRole('heading', { name: 'Tasks', exact: true }).waitFor();
      await page.getByRole('searchbox', { name: 'Search tasks' }).fill(search);
      // The search applies a moment after typing: until then the list holds every task, and a row found in it
      // moves (or goes) when the list is narrowed, so a click aimed at it can land on another row.
      const others = page.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: /^Complete: / }) }).filter({ hasNotText: search });
      await others.first().waitFor({ state: 'detached' });
    };

    test.beforeAll(async () => {
      // Signed in on a desktop (sign-in lands on the desktop's navigation), then sized.
      page = await signIn(browser, seededHub, 'admin', { timezoneId: zone });
      await page.setViewportSize(size);
      me = (await api('GET', '/v2/users/self')).body.data.id;
      const users = (await api('GET', '/v2/users?per_page=100')).body.items.map((i) => i.data);
      agent = users.find((u) => u.name === 'Agent Smith');
      assert.ok(agent, 'the seeded agent');
    });
    test.afterAll(() => page?.context().close());

    test('moves an overdue task to tomorrow from the Tasks screen, keeping its time of day', async () => {
      const content = `${MARK} call the florist`;
      const due = iso(Date.now() - 3 * DAY + 17 * MINUTE);
      const created = await newTask({ content, due_date: due, owner_id: me });
      await openTasks(content);
      const item = row(section('Overdue'), content);
      await item.waitFor();
      await item.getByRole('button', { name: 'Reschedule', exact: true }).click();
      const menu = page.getByRole('menu', { name: 'Reschedule' });
      for (const choice of ['Tomorrow', 'Next week', 'Pick a date']) await menu.getByRole('menuitem', { name: choice, exact: true }).waitFor();
      await screenshot(page, `task-reschedule-menu-${width}`);
      await menu.getByRole('menuitem', { name: 'Tomorrow', exact: true }).click();
      await row(section('Upcoming'), content).waitFor();
      assert.equal(await row(section('Overdue'), content).count(), 0);
      const moved = await task(created.id);
      assert.deepEqual(localOf(moved.due_date), { date: dayFromToday(1), time: localOf(due).time });
    });

    test('moves an overdue task to next week from Home', async () => {
      const content = `${MARK} send the brochure`;
      // Due a minute ago: the latest overdue task, first on Home's Overdue card.
      const due = iso(Date.now() - MINUTE);
      const created = await newTask({ content, due_date: due, owner_id: me });
      await page.goto(`${seededHub.url}/`);
      const card = page.getByRole('region', { name: 'Overdue', exact: true });
      const item = row(card, content);
      await item.waitFor();
      await item.getByRole('button', { name: 'Reschedule', exact: true }).click();
      await item.scrollIntoViewIfNeeded();
      await screenshot(page, `task-home-reschedule-${width}`);
      await page.getByRole('menu', { name: 'Reschedule' }).getByRole('menuitem', { name: 'Next week', exact: true }).click();
      await item.waitFor({ state: 'detached' });
      const moved = await task(created.id);
      assert.deepEqual(localOf(moved.due_date), { date: dayFromToday(7), time: localOf(due).time });
    });

    test("moves a task to a picked date from a record's timeline; one without a time gets 09:00", async () => {
      const contact = (await api('POST', '/v2/contacts', { first_name: 'Rita', last_name: `Reschedule ${MARK}` })).body.data;
      const content = `${MARK} measure the shop front`;
      const created = await newTask({ content, resource_type: 'contact', resource_id: contact.id });
      await page.goto(`${seededHub.url}/contacts/${contact.id}`);
      const item = row(page, content);
      await item.waitFor();
      await item.getByRole('button', { name: 'Reschedule', exact: true }).click();
      await page.getByRole('menu', { name: 'Reschedule' }).getByRole('menuitem', { name: 'Pick a date', exact: true }).click();
      const form = page.getByRole('form', { name: 'Reschedule to a date' });
      await form.getByLabel('New due date').fill(dayFromToday(10));
      await screenshot(page, `task-reschedule-date-${width}`);
      await form.getByRole('button', { name: 'Move', exact: true }).click();
      await form.waitFor({ state: 'detached' });
      // The timeline reloads and shows the new due date: 09:00, as the task had no time.
      await row(page, content).getByText(/9:00\sAM/).waitFor();
      const moved = await task(created.id);
      assert.deepEqual(localOf(moved.due_date), { date: dayFromToday(10), time: '09:00' });
    });

    test('edits a task in place: content, due date, reminder and owner; a fixed field loses its error', async () => {
      const content = `${MARK} quote for the deli`;
      const created = await newTask({ content, due_date: iso(Date.now() + 2 * DAY), remind_at: iso(Date.now() + DAY), owner_id: me });
      await openTasks(MARK);
      const item = row(section('Upcoming'), content);
      await item.waitFor();

      // Cancel leaves it as it was.
      await item.getByRole('button', { name: 'Edit task' }).click();
      let form = page.getByRole('form', { name: 'Edit task' });
      await form.getByRole('button', { name: 'Cancel' }).click();
      await form.waitFor({ state: 'detached' });

      await row(section('Upcoming'), content).getByRole('button', { name: 'Edit task' }).click();
      form = page.getByRole('form', { name: 'Edit task' });
      assert.equal(await form.getByLabel('Task', { exact: true }).inputValue(), content);
      // The owner is shown by name once the team's users are loaded.
      const myName = (await api('GET', '/v2/users/self')).body.data.name;
      await form.getByLabel('Owner').locator('option:checked').filter({ hasText: myName }).waitFor({ state: 'attached' });
      // An empty task is refused by its field; typing puts it right and the error goes.
      await form.getByLabel('Task', { exact: true }).fill('');
      await form.getByRole('button', { name: 'Save' }).click();
      const error = form.getByRole('alert').filter({ hasText: 'Write what the task is' });
      await error.waitFor();
      const edited = `${content} (revised)`;
      await form.getByLabel('Task', { exact: true }).fill(edited);
      await error.waitFor({ state: 'detached' });

      const dueDay = dayFromToday(3);
      await form.getByLabel('Due', { exact: true }).fill(`${dueDay}T15:30`);
      await form.getByLabel('Reminder', { exact: true }).fill(`${dueDay}T14:45`);
      await form.getByLabel('Owner').selectOption({ label: agent.name });
      await screenshot(page, `task-edit-${width}`);
      await form.getByRole('button', { name: 'Save' }).click();
      await form.waitFor({ state: 'detached' });
      // Still on the Tasks screen; given to the agent, it leaves "my tasks".
      assert.ok(page.url().endsWith('/tasks'), page.url());
      await row(section('Upcoming'), edited).waitFor({ state: 'detached' });
      await row(section('Upcoming'), content).waitFor({ state: 'detached' });

      const saved = await task(created.id);
      assert.equal(saved.content, edited);
      assert.equal(saved.owner_id, agent.id);
      assert.deepEqual(localOf(saved.due_date), { date: dueDay, time: '15:30' });
      assert.deepEqual(localOf(saved.remind_at), { date: dueDay, time: '14:45' });
      // Anyone's tasks: there it is, with its new content.
      if (width === 'phone') await page.getByRole('button', { name: /^Filters/ }).click();
      await page.getByRole('combobox', { name: 'Owner' }).selectOption({ label: "Anyone's tasks" });
      await row(section('Upcoming'), edited).waitFor();
    });

    test('reschedules several overdue tasks at once, each keeping its time of day', async () => {
      const group = `${MARK} batch`;
      const tasks = [];
      for (let i = 0; i < 3; i++) tasks.push(await newTask({ content: `${group} ${i}`, due_date: iso(Date.now() - (i + 2) * DAY - i * 37 * MINUTE), owner_id: me }));
      await openTasks(group);
      // The search has narrowed the screen (ticks made before it would be dropped with the list they were on).
      await section('Overdue').getByRole('heading', { name: 'Overdue 3', exact: true }).waitFor();
      for (const t of tasks) await row(section('Overdue'), t.content).waitFor();
      for (const t of tasks) await page.getByRole('checkbox', { name: `Select ${t.content}`, exact: true }).check();
      const bulk = page.getByRole('group', { name: 'Reschedule selected tasks' });
      await bulk.getByText('3 selected tasks').waitFor();
      await bulk.getByRole('button', { name: 'Reschedule', exact: true }).click();
      await screenshot(page, `task-bulk-reschedule-${width}`);
      await bulk.getByRole('menuitem', { name: 'Tomorrow', exact: true }).click();
      await bulk.getByRole('status').filter({ hasText: 'Rescheduled 3 tasks to tomorrow.' }).waitFor();
      await screenshot(page, `task-bulk-rescheduled-${width}`);
      for (const t of tasks) await row(section('Upcoming'), t.content).waitFor();
      assert.equal(await section('Overdue').getByText(group).count(), 0);
      for (const t of tasks) {
        const moved = await task(t.id);
        assert.deepEqual(localOf(moved.due_date), { date: dayFromToday(1), time: localOf(t.due_date).time }, t.content);
      }
    });

    test('confirms "Add task" in a status message, and names each checkbox after its task', async () => {
      await openTasks(MARK);
      const form = page.getByRole('form', { name: 'New task' });
      const content = `${MARK} book the van`;
      await form.getByLabel('Task', { exact: true }).fill(content);
      await form.getByRole('button', { name: 'Add task' }).click();
      await form.getByRole('status').filter({ hasText: 'Task added.' }).waitFor();
      await row(section('No due date'), content).waitFor();
      // Typing the next task clears the old confirmation.
      await form.getByLabel('Task', { exact: true }).fill('next');
      await form.getByRole('status').filter({ hasText: 'Task added.' }).waitFor({ state: 'detached' });
      // Every completion checkbox on the screen says which task it completes.
      const names = await page.getByRole('checkbox', { name: /^Complete: / }).evaluateAll((boxes) => boxes.map((b) => b.getAttribute('aria-label')));
      assert.ok(names.includes(`Complete: ${content}`), names.join('\n'));
      const unnamed = await page.locator('.task > input[type=checkbox]:not([aria-label^="Complete: "])').count();
      assert.equal(unnamed, 0);
      assert.equal(await page.evaluate(() => document.querySelector('.tasks-screen').scrollWidth - document.querySelector('.tasks-screen').clientWidth), 0);
    });
  });
}

// On a replica, with its hub down: the reschedule and the edit are ordinary
// edits, kept on the replica and sent when the hub is back.
test.describe('tasks rescheduled and edited on a replica while offline', () => {
  const ADMIN = { email: 'resched-replica@example.com', password: 'resched-replica-password' };
  const WAIT = { timeout: 20_000 };
  const MARK = `ReschedReplica${Date.now().toString(36)}`;
  let hubDir;
  let replicaDir;
  let hubPort;
  let hub;
  let token;
  let replicaUrl;
  let page;
  let status;

  const startHub = () => serveHub(hubPort, hubDir, ADMIN);
  const hubApi = hubClient(() => hub.url, () => token);
  /** The hub's own tasks matching a search, as the admin. */
  const hubTasks = async (q) => {
    const answer = await hubApi('GET', `/v2/tasks?q=${encodeURIComponent(q)}`);
    assert.equal(answer.status, 200);
    return answer.body.items.map((i) => i.data);
  };
  const section = (name) => page.getByRole('region', { name, exact: true });
  const row = (within, content) => within.getByRole('listitem').filter({ has: page.getByRole('checkbox', { name: `Complete: ${content}`, exact: true }) }).last();

  test.beforeAll(async () => {
    hubDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-resched-hub-'));
    replicaDir = mkdtempSync(join(tmpdir(), 'outpost-e2e-resched-replica-'));
    hubPort = await stablePort();
    hub = await startHub();
    token = syncToken(hubDir, ADMIN.email);
    replicaUrl = (await serveReplica(hub.url, token, replicaDir)).url;
    page = await signInAt(browser, replicaUrl, ADMIN, { viewport: SIZES.desktop, timezoneId: zone });
    status = page.getByRole('status', { name: 'Sync status' });
  });
  test.afterAll(async () => {
    await page?.context().close();
    for (const dir of [hubDir, replicaDir]) if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test('reschedules (desktop) and edits (phone) offline; both reach the hub once it is back', async () => {
    const overdue = { content: `${MARK} chase the invoice`, due_date: iso(Date.now() - 2 * DAY + 23 * MINUTE) };
    const undated = { content: `${MARK} order samples` };
    for (const data of [overdue, undated]) assert.equal((await pageApi(page, 'POST', '/v2/tasks', data)).status, 200);
    await syncUntil(page, 'Up to date');
    assert.equal((await hubTasks(MARK)).length, 2, 'the hub has both tasks');

    await stop(hub.child);
    await page.goto(`${replicaUrl}/tasks`);
    await page.getByRole('searchbox', { name: 'Search tasks' }).fill(MARK);
    await section('Overdue').getByRole('heading', { name: 'Overdue 1', exact: true }).waitFor(WAIT);
    await row(section('Overdue'), overdue.content).getByRole('button', { name: 'Reschedule', exact: true }).click();
    await page.getByRole('menu', { name: 'Reschedule' }).getByRole('menuitem', { name: 'Tomorrow', exact: true }).click();
    await row(section('Upcoming'), overdue.content).waitFor(WAIT);

    await page.setViewportSize(SIZES.phone);
    await row(section('No due date'), undated.content).getByRole('button', { name: 'Edit task' }).click();
    const form = page.getByRole('form', { name: 'Edit task' });
    const edited = `${undated.content} from the Leeds supplier`;
    await form.getByLabel('Task', { exact: true }).fill(edited);
    await form.getByRole('button', { name: 'Save' }).click();
    await row(section('No due date'), edited).waitFor(WAIT);
    await screenshot(page, 'task-replica-offline-phone');
    await page.setViewportSize(SIZES.desktop);

    await syncUntil(page, 'Offline');
    assert.match(await status.getAttribute('title'), /2 changes not yet on the hub/);

    hub = await startHub();
    await syncUntil(page, 'Up to date');
    const onHub = await hubTasks(MARK);
    const moved = onHub.find((t) => t.content === overdue.content);
    assert.deepEqual(localOf(moved.due_date), { date: dayFromToday(1), time: localOf(overdue.due_date).time });
    assert.ok(onHub.some((t) => t.content === edited), JSON.stringify(onHub.map((t) => t.content)));
  });
});
