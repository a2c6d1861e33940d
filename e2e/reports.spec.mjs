// The Reports screen: each report's table shows what the reports
// API answers for the filters chosen (owner, pipeline, period, interval);
// the CSV export downloads; an agent has no owner to choose; the charts draw
// under the app's Content-Security-Policy without a violation; screenshots
// of every report at desktop and phone width (reports-desktop-*.png,
// reports-phone-*.png). Other specs share the hub: the account's plan, changed
// here to see the products report refused, is put back as it was.
import { test } from './fixtures.mjs';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse } from 'csv-parse/sync';
import { pageApi, screenshot, signIn, closeContexts } from './browser.mjs';

// The tests build on each other (one story on one page): in order, in one worker.
test.describe.configure({ mode: 'serial' });

const PHONE = { width: 390, height: 844 };
const SMALL_PHONE = { width: 360, height: 740 };
const DESKTOP = { width: 1280, height: 800 };
const REPORTS = ['pipeline', 'won_lost', 'loss_reasons', 'activities', 'lead_conversion', 'product_sales'];

let browser;
let seededHub;
let admin;
let agent;

/** Chromium reports a blocked style or script both as an event and on the console: both are collected. */
async function openReports(page) {
  const violations = [];
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__cspViolations.push(`${e.violatedDirective} ${e.blockedURI}`));
  });
  // A full load of /reports: the hub serves the UI at that path, and the listener above is in place before any chart draws.
  await page.goto(`${seededHub.url}/reports`);
  await page.getByRole('heading', { name: 'Reports', exact: true }).waitFor();
  page.violations = async () => [...violations, ...(await page.evaluate(() => window.__cspViolations))];
  return page;
}

test.beforeAll(async ({ browser: workerBrowser, seededHub: workerHub }) => {
  browser = workerBrowser;
  seededHub = workerHub;
  admin = await openReports(await signIn(browser, seededHub));
  agent = await openReports(await signIn(browser, seededHub, 'agent'));
});
test.afterAll(() => closeContexts(browser));

const pad = (n) => String(n).padStart(2, '0');
const day = (d) => `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
/** The dates of the screen's presets, as the screen computes them (the browser runs on this machine's clock and zone). */
function range(monthsBack) {
  const today = new Date();
  return { from: day(new Date(today.getFullYear(), today.getMonth() - monthsBack, 1)), to: day(today) };
}

async function rowsOf(page, name, query) {
  const answer = await pageApi(page, 'GET', `/v2/reports/${name}?${new URLSearchParams(query)}`);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.items.map((i) => i.data);
}

const section = (page, name) => page.locator(`#report-${name}`);

/** A table's body (or foot) rows as the cells' text, the row header first. */
function tableText(page, label, part = 'tbody') {
  return page.getByRole('table', { name: label, exact: true }).evaluate((table, part) =>
    [...table.querySelectorAll(`${part} tr`)].map((tr) => [...tr.cells].map((c) => c.innerText.trim())), part);
}

/**
 * What the screen should show for cells: formatted in the page, so by the
 * browser's own Intl as the app formats them (money in the account's currency).
 */
function formatted(page, rows) {
  return page.evaluate((rows) => {
    const format = (v, c) => new Intl.NumberFormat(undefined, { style: 'currency', currency: c, maximumFractionDigits: 20 }).format(v);
    // One amount in the account's currency (the hub's converted_* field); what had no rate follows it, in words.
    const money = ([values, converted]) => {
      if (Object.keys(values).length === 0) return '—';
      const apart = Object.entries(converted.unconverted).map(([c, v]) => format(v, c)).join(' + ');
      const some = Object.keys(values).some((c) => !(c in converted.unconverted));
      if (!apart) return format(converted.amount, converted.currency);
      return some ? `${format(converted.amount, converted.currency)} + ${apart} without an exchange rate` : `${apart} without an exchange rate`;
    };
    const rate = (r) => (r === null ? '—' : new Intl.NumberFormat(undefined, { style: 'percent', maximumFractionDigits: 0 }).format(Number(r)));
    const cell = ([kind, v]) => (kind === 'count' ? v.toLocaleString() : kind === 'money' ? money(v) : kind === 'rate' ? rate(v) : String(v));
    return rows.map((row) => row.map(cell));
  }, rows);
}

/** Waits until the table shows `expected` (it loads after a filter changes), then asserts it does. */
async function expectTable(page, label, expected, part = 'tbody') {
  const table = page.getByRole('table', { name: label, exact: true });
  await table.waitFor();
  const want = JSON.stringify(expected);
  await page.waitForFunction(({ label, want, part }) => {
    const table = document.querySelector(`table[aria-label="${label}"]`);
    if (!table) return false;
    const got = [...table.querySelectorAll(`${part} tr`)].map((tr) => [...tr.cells].map((c) => c.innerText.trim()).slice(1));
    return JSON.stringify(got) === want;
  }, { label, want, part }, { timeout: 10_000 }).catch(() => undefined);
  assert.deepEqual((await tableText(page, label, part)).map((r) => r.slice(1)), expected, `${label} ${part}`);
}

/** The numbers of each report's table (the row header aside), from the API's rows. */
const EXPECTED = {
  pipeline: (rows) => rows.map((r) => [['count', r.deals_count], ['money', [r.values, r.converted_value]], ['money', [r.weighted_values, r.converted_weighted_value]]]),
  won_lost: (rows) => rows.map((r) => [
    ['count', r.won_count], ['money', [r.won_values, r.converted_won_value]], ['count', r.lost_count], ['money', [r.lost_values, r.converted_lost_value]], ['rate', r.win_rate],
  ]),
  loss_reasons: (rows) => rows.map((r) => [['count', r.deals_count], ['money', [r.values, r.converted_value]]]),
  lead_conversion: (rows) => rows.map((r) => [['count', r.leads_count], ['count', r.converted_count], ['rate', r.conversion_rate]]),
  product_sales: (rows) => rows.map((r) => [['count', r.quantity], ['count', r.deals_count], ['money', [r.values, r.converted_value]]]),
};
/** When a report has nothing to show (its screen's rule): a sentence in place of the table. */
const EMPTY = {
  pipeline: (rows) => rows.every((r) => r.deals_count === 0),
  won_lost: (rows) => rows.every((r) => r.won_count + r.lost_count === 0),
  loss_reasons: (rows) => rows.length === 0,
  lead_conversion: (rows) => rows.every((r) => r.leads_count === 0),
  product_sales: (rows) => rows.length === 0,
};
const KINDS = ['calls', 'notes', 'tasks_completed', 'visits', 'emails_sent'];
/** Activities: per rep over the period for several reps, per period for one. */
function activityLines(rows) {
  const reps = [...new Set(rows.map((r) => r.user_id))];
  const lines = reps.length > 1 ? reps.map((id) => rows.filter((r) => r.user_id === id)) : rows.map((r) => [r]);
  return lines.map((group) => {
    const counts = KINDS.map((k) => group.reduce((n, r) => n + r[k], 0));
    return [...counts, counts.reduce((a, b) => a + b, 0)].map((n) => ['count', n]);
  });
}
const TABLES = {
  pipeline: 'Pipeline by stage', won_lost: 'Won and lost by period', loss_reasons: 'Loss reasons',
  lead_conversion: 'Lead conversion by source', product_sales: 'Sales by product',
};

/** Every report's table against the API's answer for the same query. */
async function expectReports(page, { owner, pipelineId, chosenPipeline, period, interval = 'month' }) {
  const who = owner ? { owner_id: owner } : {};
  // The pipeline report always shows one pipeline (the first when none is chosen); the others take all without a choice.
  const chosen = chosenPipeline ? { pipeline_id: chosenPipeline } : {};
  const queries = {
    pipeline: { ...who, pipeline_id: pipelineId },
    won_lost: { ...who, ...chosen, ...period, interval },
    loss_reasons: { ...who, ...chosen, ...period },
    lead_conversion: { ...who, ...period },
    product_sales: { ...who, ...period },
  };
  const answers = {};
  for (const [name, query] of Object.entries(queries)) {
    answers[name] = await rowsOf(page, name, query);
    // The seed's deals fall on dates relative to today: a rep may have nothing in a report for the period, which then says so instead of a table.
    if (EMPTY[name](answers[name])) await section(page, name).locator('.report-state').waitFor();
    else await expectTable(page, TABLES[name], await formatted(page, EXPECTED[name](answers[name])));
  }
  answers.activities = await rowsOf(page, 'activities', { ...who, ...period, interval });
  const byRep = new Set(answers.activities.map((r) => r.user_id)).size > 1;
  await expectTable(page, byRep ? 'Activities per rep' : 'Activities per period', await formatted(page, activityLines(answers.activities)));
  return answers;
}

const filter = (page, label) => page.getByRole('group', { name: 'Report filters' }).getByLabel(label, { exact: true });
const pick = (page, label, option) => filter(page, label).selectOption(option);

test.describe('Reports (admin)', () => {
  let pipelineId;
  let agentId;

  test('shows every report with the numbers the API answers, for the whole team over the last 12 months', async () => {
    const pipelines = (await pageApi(admin, 'GET', '/v2/pipelines')).body.items.map((i) => i.data).sort((a, b) => a.id - b.id);
    pipelineId = pipelines[0].id;
    const users = (await pageApi(admin, 'GET', '/v2/users')).body.items.map((i) => i.data);
    agentId = users.find((u) => u.email === seededHub.agent.email).id;
    const answers = await expectReports(admin, { pipelineId, period: range(11) });
    // The seeded hub has something in every report: no report is checked against an empty table only.
    for (const name of REPORTS) assert.ok(answers[name].length > 0, `${name} has rows`);
    assert.ok(answers.pipeline.some((r) => r.deals_count > 0) && answers.won_lost.some((r) => r.won_count > 0));
    await section(admin, 'pipeline').getByText(pipelines[0].name, { exact: true }).waitFor();

    // The forecast: the weighted value of the open stages, one currency a line.
    const open = answers.pipeline.filter((r) => ['incoming', 'in_progress'].includes(r.category));
    const [foot] = await tableText(admin, 'Pipeline by stage', 'tfoot');
    assert.equal(foot[0], 'Open deals (forecast)');
    assert.equal(foot[1], (await formatted(admin, [[['count', open.reduce((n, r) => n + r.deals_count, 0)]]]))[0][0]);
  });

  test('shows the forecast as one amount in the account\'s currency, the currencies it was made of on a closer look', async () => {
    const { currency } = (await pageApi(admin, 'GET', '/v2/accounts/self')).body.data;
    const rates = Object.fromEntries((await pageApi(admin, 'GET', '/v2/exchange_rates')).body.items.map((i) => [i.data.currency, i.data.rate]));
    const open = (await rowsOf(admin, 'pipeline', { pipeline_id: pipelineId })).filter((r) => ['incoming', 'in_progress'].includes(r.category));
    // Per currency in cents, each × its rate (ten decimals), added, rounded half up to the cent once.
    const cents = {};
    for (const r of open) for (const [c, v] of Object.entries(r.weighted_values)) cents[c] = (cents[c] ?? 0n) + BigInt(v.replace('.', ''));
    const scaled = (rate) => BigInt(rate.replace(/^(\d+)(?:\.(\d*))?$/, (_, w, f = '') => w + f.padEnd(10, '0')));
    const exact = Object.entries(cents).reduce((sum, [c, v]) => sum + v * scaled(c === currency ? '1' : rates[c]), 0n);
    const total = (exact + 5_000_000_000n) / 10_000_000_000n;
    const text = await admin.evaluate(({ cents, currency }) => new Intl.NumberFormat(undefined, { style: 'currency', currency })
      .format(`${BigInt(cents) / 100n}.${String(BigInt(cents) % 100n).padStart(2, '0')}`), { cents: String(total), currency });
    const headline = section(admin, 'pipeline').locator('.report-headline');
    assert.equal((await headline.locator('.money').first().innerText()).trim(), text);
    assert.ok(Object.keys(cents).length > 1, 'the seeded forecast is in several currencies');
    // A closer look: the original amounts, each in its currency.
    await headline.locator('summary').click();
    const originals = await headline.getByRole('list', { name: 'Original amounts' }).locator('.money').allInnerTexts();
    const expected = await admin.evaluate((cents) => Object.entries(cents).map(([c, v]) => new Intl.NumberFormat(undefined, { style: 'currency', currency: c })
      .format(`${BigInt(v) / 100n}.${String(BigInt(v) % 100n).padStart(2, '0')}`)), Object.fromEntries(Object.entries(cents).map(([c, v]) => [c, String(v)])));
    assert.deepEqual(originals.sort(), expected.sort());
    await screenshot(admin, 'reports-desktop-forecast-originals');
    await headline.locator('summary').click();
  });

  test('offers the whole team and each user, and follows the owner, pipeline, period and interval chosen', async () => {
    const owners = await filter(admin, 'Owner').locator('option').allInnerTexts();
    assert.equal(owners[0], 'Whole team');
    assert.ok(owners.includes('Agent Smith'), owners.join());

    const team = await rowsOf(admin, 'pipeline', { pipeline_id: pipelineId });
    await pick(admin, 'Owner', { label: 'Agent Smith' });
    const mine = await expectReports(admin, { owner: agentId, pipelineId, period: range(11) });
    const count = (rows) => rows.reduce((n, r) => n + r.deals_count, 0);
    assert.ok(count(mine.pipeline) < count(team), 'one rep has fewer deals than the team');

    await pick(admin, 'Pipeline', { label: (await filter(admin, 'Pipeline').locator('option').allInnerTexts())[1] });
    await expectReports(admin, { owner: agentId, pipelineId, chosenPipeline: pipelineId, period: range(11) });
    await pick(admin, 'Owner', { label: 'Whole team' });

    await pick(admin, 'Period', { label: 'This month' });
    const month = await expectReports(admin, { pipelineId, chosenPipeline: pipelineId, period: range(0) });
    assert.equal(month.won_lost.length, 1);
    await pick(admin, 'Group by', { label: 'Week' });
    const weeks = await expectReports(admin, { pipelineId, chosenPipeline: pipelineId, period: range(0), interval: 'week' });
    // Weeks from Monday: every period but the first (cut to the range) starts on one.
    assert.ok(weeks.won_lost.slice(1).every((r) => new Date(`${r.period_start}T12:00:00Z`).getUTCDay() === 1), 'weeks start on Mondays');
    assert.equal((await tableText(admin, 'Won and lost by period')).length, weeks.won_lost.length);

    // Custom dates: the range typed is the range asked for.
    await pick(admin, 'Period', { label: 'Custom dates' });
    const custom = range(2);
    await filter(admin, 'From').fill(custom.from);
    await filter(admin, 'To').fill(custom.to);
    await expectReports(admin, { pipelineId, chosenPipeline: pipelineId, period: custom, interval: 'week' });
    await pick(admin, 'Group by', { label: 'Month' });
    await pick(admin, 'Period', { label: 'Last 12 months' });
    await pick(admin, 'Pipeline', { label: 'All pipelines' });
    await expectReports(admin, { pipelineId, period: range(11) });
  });

  test('downloads a report as CSV, for the filters shown', async () => {
    for (const [label, option] of [['Owner', 'Whole team'], ['Pipeline', 'All pipelines'], ['Period', 'Last 12 months'], ['Group by', 'Month']]) await pick(admin, label, { label: option });
    const rows = await rowsOf(admin, 'won_lost', { ...range(11), interval: 'month' });
    const [file] = await Promise.all([admin.waitForEvent('download'), section(admin, 'won_lost').getByRole('button', { name: 'Export CSV' }).click()]);
    assert.equal(file.suggestedFilename(), 'report-won_lost.csv');
    const records = parse(readFileSync(await file.path(), 'utf8'), { bom: true });
    assert.equal(records.length, rows.length + 1, 'a header and a row per period');
    assert.equal(records.slice(1).reduce((n, r) => n + Number(r[records[0].indexOf('Won')]), 0),
      rows.reduce((n, r) => n + r.won_count, 0), 'the won column adds up to the deals won');
  });

  test('shows the products report refused, in words, on a plan without products', async () => {
    const account = (await pageApi(admin, 'GET', '/v2/accounts/self')).body.data;
    const refusal = await pageApi(admin, 'PUT', '/v2/accounts/self', { plan: 'starter' });
    assert.equal(refusal.status, 200, JSON.stringify(refusal.body));
    try {
      const answer = await pageApi(admin, 'GET', `/v2/reports/product_sales?${new URLSearchParams(range(11))}`);
      assert.equal(answer.status, 403);
      await pick(admin, 'Period', { label: 'Last 3 months' });
      // The API's message, in the report's place (in words: no API names).
      const refused = section(admin, 'product_sales').locator('.report-state');
      await refused.filter({ hasText: answer.body.errors[0].error.message.split(' ').slice(0, 3).join(' ') }).waitFor();
      assert.equal(await section(admin, 'product_sales').getByRole('button', { name: 'Export CSV' }).count(), 0);
      await section(admin, 'won_lost').getByRole('table').waitFor();
    } finally {
      await pageApi(admin, 'PUT', '/v2/accounts/self', { plan: account.plan });
    }
    await pick(admin, 'Period', { label: 'Last 12 months' });
    await section(admin, 'product_sales').getByRole('table').waitFor();
  });
});

test.describe('Reports (agent)', () => {
  test('has no owner to choose, and shows the agent their own numbers', async () => {
    const group = agent.getByRole('group', { name: 'Report filters' });
    assert.equal(await group.getByLabel('Owner', { exact: true }).count(), 0);
    await group.getByText('My data', { exact: true }).waitFor();
    const pipelineId = (await pageApi(agent, 'GET', '/v2/pipelines')).body.items.map((i) => i.data).sort((a, b) => a.id - b.id)[0].id;
    const answers = await expectReports(agent, { pipelineId, period: range(11) });
    // One rep: activities per period, the agent's only.
    assert.deepEqual([...new Set(answers.activities.map((r) => r.user_name))], ['Agent Smith']);
  });
});

test.describe('Reports on screen', () => {
  test('draws every chart without a Content-Security-Policy violation', async () => {
    for (const page of [admin, agent]) {
      for (const name of REPORTS) await section(page, name).locator('.recharts-surface').first().waitFor();
      assert.deepEqual(await page.violations(), []);
    }
  });

  test('fits a phone without sideways scrolling; screenshots of every report at both widths', async () => {
    for (const [size, viewport] of [['desktop', DESKTOP], ['small-phone', SMALL_PHONE], ['phone', PHONE]]) {
      await admin.setViewportSize(viewport);
      for (const name of REPORTS) {
        await section(admin, name).locator('.recharts-surface').first().waitFor();
        await section(admin, name).evaluate((el) => el.scrollIntoView({ block: 'start' }));
        if (size !== 'small-phone') await screenshot(admin, `reports-${size}-${name.replace('_', '-')}`);
      }
      const overflow = await admin.evaluate(() => {
        const content = document.querySelector('main.content');
        const right = content.getBoundingClientRect().right;
        // What sticks out, to say where the fault is when there is one.
        const wide = [...content.querySelectorAll('*')].filter((el) => el.getBoundingClientRect().right > right + 1 && !el.closest('.report-table-wrap, .chart-area'))
          .slice(0, 5).map((el) => `${el.tagName}.${el.getAttribute('class')}`);
        return { page: document.documentElement.scrollWidth - document.documentElement.clientWidth, content: content.scrollWidth - content.clientWidth, wide };
      });
      assert.deepEqual(overflow, { page: 0, content: 0, wide: [] }, `${size}: nothing scrolls sideways`);
    }
    await admin.evaluate(() => document.querySelector('main.content').scrollTo(0, 0));
    await screenshot(admin, 'reports-phone-filters');
    await admin.setViewportSize(DESKTOP);
    await admin.evaluate(() => document.querySelector('main.content').scrollTo(0, 0));
    await screenshot(admin, 'reports-desktop-filters');
    await agent.evaluate(() => document.querySelector('main.content').scrollTo(0, 0));
    await screenshot(agent, 'reports-desktop-agent');
    assert.deepEqual(await admin.violations(), []);
  });
});
