// The rep's day: the Tasks screen's sections counted and paged by
// the hub, the bell and its notification centre (snooze, done, open the
// record), and the Home screen, at desktop and phone widths.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { pageApi, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const MARK = `Day${Date.now().toString(36)}`;
const MINUTE = 60_000;

/**
 * An IANA zone where it is about noon now (UTC+12 … UTC−11, as Etc/GMT names
 * them, sign reversed): "due later today" has hours to spare whenever this runs.
 */
function noonZone() {
  const offset = 12 - new Date().getUTCHours();
  return offset === 0 ? 'Etc/GMT' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

const zone = noonZone();
let browser;
let seededHub;
let page;
let me;
let contact;
/** The hub's counts before this spec added anything (the demo data has tasks of its own). */
let baseline;

const api = (method, path, data) => pageApi(page, method, path, data);
const iso = (ms) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const counts = async () => (await api('GET', `/v2/tasks/counts?owner_id=${me}&tz=${encodeURIComponent(zone)}`)).body.data;
/**
 * The first five tasks due today as the hub sorts them, which Home's card shows.
 * Not necessarily this spec's: late in the UTC day the demo data's "today" tasks
 * fall within the hour, before this spec's.
 */
const firstOf = async (due, order) => (await api('GET', `/v2/tasks?owner_id=${me}&due=${due}&completed=false&sort_by=${order}&per_page=5&tz=${encodeURIComponent(zone)}`)).body.items.map((i) => i.data.content);
const firstDueToday = () => firstOf('today', 'due_date');
/** The five latest overdue tasks, which Home's card shows: other specs' tasks may have come due since this one's. */
const latestOverdue = () => firstOf('overdue', 'due_date:desc');
const task = async (id) => (await api('GET', `/v2/tasks/${id}`)).body.data;
const nav = (name) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
const section = (name) => page.getByRole('region', { name, exact: true });
const bell = () => page.getByRole('button', { name: /^Notifications \(/ });
const centre = () => page.getByRole('dialog', { name: 'Notifications' });

/** POSTs in parallel batches: 150 tasks in a few seconds. */
async function createAll(path, records) {
  const created = [];
  for (let i = 0; i < records.length; i += 25) {
    const answers = await Promise.all(records.slice(i, i + 25).map((data) => api('POST', path, data)));
    for (const answer of answers) assert.equal(answer.status, 200, JSON.stringify(answer.body));
    created.push(...answers.map((a) => a.body.data));
  }
  return created;
}

let overdue;
test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  page = await signIn(browser, seededHub, 'admin', { timezoneId: zone });
  me = (await api('GET', '/v2/users/self')).body.data.id;
  baseline = await counts();
  contact = (await api('POST', '/v2/contacts', { first_name: 'Dana', last_name: `Daybook ${MARK}` })).body.data;
  const now = Date.now();
  // 150 overdue; the first 12 on the contact, with reminders that came due a minute apart (the latest first).
  overdue = await createAll('/v2/tasks', Array.from({ length: 150 }, (_, i) => ({
    content: `${MARK} overdue ${i}`,
    due_date: iso(now - (i + 1) * MINUTE + 30_000),
    ...(i < 12 ? { remind_at: iso(now - (i + 1) * MINUTE), resource_type: 'contact', resource_id: contact.id } : {}),
  })));
  await createAll('/v2/tasks', Array.from({ length: 5 }, (_, i) => ({ content: `${MARK} today ${i}`, due_date: iso(now + (20 + i) * MINUTE) })));
  await api('POST', '/v2/visits', { resource_type: 'contact', resource_id: contact.id, summary: `${MARK} showed the spring catalogue` });
  await api('POST', '/v2/notes', { resource_type: 'contact', resource_id: contact.id, content: `${MARK} wants a quote for 40 units` });
  await api('POST', '/v2/deals', { name: `${MARK} spring order`, contact_id: contact.id, value: '1200.50' });
});
test.afterAll(() => closeContexts(browser));

test.describe("the rep's day", () => {
  test('counts every section on the hub, shows today behind 150 overdue, and pages the overdue', async () => {
    const expected = await counts();
    assert.deepEqual(
      [expected.overdue - baseline.overdue, expected.today - baseline.today, expected.reminders_due - baseline.reminders_due],
      [150, 5, 12],
    );
    await nav('Tasks').click();
    await page.getByRole('heading', { name: 'Tasks', exact: true }).waitFor();
    for (const [name, key] of [['Overdue', 'overdue'], ['Today', 'today'], ['Upcoming', 'upcoming'], ['No due date', 'none']]) {
      await section(name).getByRole('heading', { name: `${name} ${expected[key]}`, exact: true }).waitFor();
    }
    for (let i = 0; i < 5; i++) await section('Today').getByRole('checkbox', { name: `Complete: ${MARK} today ${i}` }).waitFor();
    const overdueRows = section('Overdue').getByRole('listitem');
    assert.equal(await overdueRows.count(), 20);
    await screenshot(page, 'today-01-tasks');
    await section('Overdue').getByRole('button', { name: `Show 20 more of ${expected.overdue - 20}` }).click();
    await page.waitForFunction(() => document.querySelectorAll('[aria-label=Overdue] li').length === 40);
  });

  test('counts due reminders on the bell; snoozes, completes and opens them from the notification centre', async () => {
    const start = await counts();
    await page.getByRole('button', { name: `Notifications (${start.reminders_due})`, exact: true }).waitFor();
    await bell().click();
    const first = centre().getByRole('listitem', { name: `${MARK} overdue 0`, exact: true });
    await first.waitFor();
    await screenshot(page, 'today-02-centre');

    // Snooze for an hour: the reminder comes back later, and the overdue task's due time moves past it.
    await first.getByRole('group', { name: 'Snooze' }).getByRole('button', { name: '1 h' }).click();
    await centre().getByRole('status').filter({ hasText: 'Snoozed until' }).waitFor();
    await first.waitFor({ state: 'detached' });
    const snoozed = await task(overdue[0].id);
    assert.ok(Date.parse(snoozed.remind_at) > Date.now() + 55 * MINUTE, snoozed.remind_at);
    assert.ok(snoozed.due_date > snoozed.remind_at && !snoozed.overdue);
    await page.getByRole('button', { name: `Notifications (${start.reminders_due - 1})`, exact: true }).waitFor();

    // Done completes the task.
    await centre().getByRole('listitem', { name: `${MARK} overdue 1`, exact: true }).getByRole('button', { name: 'Done' }).click();
    await centre().getByRole('status').filter({ hasText: `Done: ${MARK} overdue 1` }).waitFor();
    assert.equal((await task(overdue[1].id)).completed, true);
    await page.getByRole('button', { name: `Notifications (${start.reminders_due - 2})`, exact: true }).waitFor();
    assert.deepEqual(await counts(), { ...start, overdue: start.overdue - 2, today: start.today + 1, completed: start.completed + 1, reminders_due: start.reminders_due - 2 });
    await screenshot(page, 'today-03-centre-after');

    // Its record is a click away; the centre closes on the way.
    await centre().getByRole('listitem', { name: `${MARK} overdue 2`, exact: true }).getByRole('link', { name: `Dana Daybook ${MARK}` }).click();
    await page.getByRole('heading', { name: `Dana Daybook ${MARK}` }).waitFor();
    assert.equal(await centre().count(), 0);
    // Snoozed and done stay so: a new session's centre lists neither.
    await page.reload();
    await bell().click();
    await centre().getByRole('listitem', { name: `${MARK} overdue 2`, exact: true }).waitFor();
    assert.equal(await centre().getByRole('listitem', { name: `${MARK} overdue 0`, exact: true }).count(), 0);
    assert.equal(await centre().getByRole('listitem', { name: `${MARK} overdue 1`, exact: true }).count(), 0);
    await page.keyboard.press('Escape');
    assert.equal(await centre().count(), 0);
  });

  test('opens on Today after sign-in: due today, overdue, visits, activity and the pipeline', async () => {
    const now = await counts();
    const fresh = await signIn(browser, seededHub, 'admin', { timezoneId: zone });
    await fresh.goto(`${seededHub.url}/`);
    await fresh.getByRole('heading', { name: 'Today', exact: true }).waitFor();
    assert.equal(new URL(fresh.url()).pathname, '/');
    assert.equal(await fresh.getByRole('navigation', { name: 'Main' }).getByRole('link').first().textContent(), 'Today');
    const card = (name) => fresh.getByRole('region', { name, exact: true });
    await card('Due today').getByRole('heading', { name: `Due today ${now.today}` }).waitFor();
    const dueToday = await firstDueToday();
    for (const content of dueToday) await card('Due today').getByText(content, { exact: true }).first().waitFor();
    await card('Overdue').getByRole('heading', { name: `Overdue ${now.overdue}` }).waitFor();
    for (const content of await latestOverdue()) await card('Overdue').getByText(content, { exact: true }).first().waitFor();
    await card('Visits today').getByText(`${MARK} showed the spring catalogue`, { exact: false }).waitFor();
    await card('Recent activity').getByText(`${MARK} wants a quote for 40 units`).waitFor();
    await card('My pipeline').getByRole('table').first().waitFor();
    await screenshot(fresh, 'today-04-home');
    await card('Recent activity').scrollIntoViewIfNeeded();
    await screenshot(fresh, 'today-04-home-activity');

    // Done from Home: the card and the counts follow.
    await card('Due today').getByRole('checkbox', { name: `Complete: ${dueToday[0]}` }).first().click();
    await card('Due today').getByRole('heading', { name: `Due today ${now.today - 1}` }).waitFor();
    await fresh.context().close();
  });

  test('fits a phone: Home, Tasks and the notification centre at 390 px', async () => {
    await page.setViewportSize(PHONE);
    const overflow = (selector) => page.evaluate((s) => {
      const el = document.querySelector(s);
      return el.scrollWidth - el.clientWidth;
    }, selector);
    // By address: the phone's navigation is a drawer, the shell's business.
    await page.goto(`${seededHub.url}/`);
    await page.getByRole('region', { name: 'Due today', exact: true }).getByText((await firstDueToday())[0], { exact: true }).first().waitFor();
    assert.equal(await overflow('.home-screen'), 0);
    await screenshot(page, 'today-05-home-phone');
    const pipeline = page.getByRole('region', { name: 'My pipeline', exact: true });
    await pipeline.getByRole('table').first().scrollIntoViewIfNeeded();
    await screenshot(page, 'today-05-home-phone-pipeline');
    await page.goto(`${seededHub.url}/tasks`);
    await section('Today').getByRole('checkbox', { name: `Complete: ${MARK} today 1` }).waitFor();
    assert.equal(await overflow('.tasks-screen'), 0);
    await screenshot(page, 'today-06-tasks-phone');
    await bell().click();
    await centre().getByRole('listitem', { name: `${MARK} overdue 2`, exact: true }).waitFor();
    const box = await centre().boundingBox();
    assert.ok(box.x >= 0 && box.x + box.width <= PHONE.width, JSON.stringify(box));
    await screenshot(page, 'today-07-centre-phone');
    await page.keyboard.press('Escape');
  });
});
