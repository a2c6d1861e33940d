// The reports (GET /v2/reports/*) for bench/run.mjs: latency of single
// requests, one at a time as a person opens the Reports screen, as an admin
// without an owner filter (the whole team: the heaviest), beside the same
// aggregate as one bare SQL query through better-sqlite3.
//
// `outpost seed` makes few deals and no calls or visits, so the line first adds
// (BENCH_REPORT_DEALS, default 100000) deals over every stage, three
// currencies and 20 reps, won and lost over the last 12 months, with orders
// and line items on the won ones; BENCH_REPORT_ACTIVITIES (default 300000)
// calls, notes, completed tasks and visits, a quarter each; and 20000 leads,
// a quarter converted. Straight into the database, marked, and removed again
// afterwards; they are never in the change log, so the sync lines that follow
// see the database exactly as seeded.
import Database from 'better-sqlite3';
import { registerSearchFunctions } from './paletteSearch.mjs';

const DEALS = Number(process.env.BENCH_REPORT_DEALS ?? 100_000);
const ACTIVITIES = Number(process.env.BENCH_REPORT_ACTIVITIES ?? 300_000);
const LEADS = 20_000;
const REPS = 20;
// Marks the rows this module adds, so a run that died half-way is cleaned up by the next.
const MARK = 'outpost-bench-reports';
const REP_EMAIL = `%@${MARK}.invalid`;
const TARGET_MS = 200;
const WARM_UP = 5;
const SAMPLES = 30;

/** Numbers 1..n, for INSERT … SELECT. */
const numbers = (n) => `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${Number(n)})`;
/** A time within the last year, spread by i (UTC ISO text, as the engine stores times). */
const within = (i) => `strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-' || (${i} % 365) || ' days', '-' || (${i} * 7 % 1440) || ' minutes')`;
/** CTEs numbering what rows are spread over (SQLite allows no outer column in a LIMIT or OFFSET): join on `k = i % <count>`. */
const ranked = (name, sql) => `, ${name} AS (SELECT row_number() OVER (ORDER BY id) - 1 AS k, id FROM (${sql}))`;
const REPS_CTE = ranked('rep', `SELECT id FROM users WHERE email LIKE '${REP_EMAIL}'`);
const JOIN_REP = `JOIN rep ON rep.k = n.i % ${REPS}`;

/** The engine's SQL functions the tables' triggers call (electron/engine/db/database.ts). */
function registerFunctions(db) {
  db.function('now_utc', () => new Date().toISOString().replace(/\.\d+Z$/, 'Z'));
  registerSearchFunctions(db);
}

export function addReportRecords(file) {
  const db = new Database(file);
  registerFunctions(db);
  try {
    removeRows(db);
    db.transaction(() => {
      const now = new Date().toISOString().replace(/\.\d+Z$/, 'Z');
      const user = db.prepare(`INSERT INTO users (name, email, role, created_at, updated_at) VALUES (?, ?, 'user', ?, ?)`);
      for (let i = 1; i <= REPS; i++) user.run(`Rep ${String(i).padStart(2, '0')}`, `rep${i}@${MARK}.invalid`, now, now);
      const stages = `SELECT id FROM stages WHERE pipeline_id = (SELECT min(id) FROM pipelines) ORDER BY position`;
      db.prepare(`${numbers(DEALS)}${REPS_CTE}${ranked('st', stages)}${ranked('lr', 'SELECT id FROM loss_reasons')}
        INSERT INTO deals (creator_id, owner_id, name, value, currency, stage_id, dropbox_email, last_stage_change_at,
          customized_win_likelihood, loss_reason_id, added_on, created_at, updated_at)
        SELECT rep.id, rep.id, 'Deal ' || i,
          CAST(i % 5000 AS TEXT) || CASE i % 4 WHEN 0 THEN '.5' WHEN 1 THEN '.25' ELSE '' END,
          CASE i % 3 WHEN 0 THEN 'USD' WHEN 1 THEN 'EUR' ELSE 'GBP' END,
          st.id,
          '${MARK}@deals.invalid', ${within('i')}, CASE WHEN i % 10 = 0 THEN 35 END,
          CASE WHEN i % 2 = 0 THEN lr.id END,
          substr(${within('i')}, 1, 10), ${within('i')}, ${within('i')}
        FROM n ${JOIN_REP} JOIN st ON st.k = n.i % (SELECT count(*) FROM st) LEFT JOIN lr ON lr.k = n.i % (SELECT count(*) FROM lr)`).run();
      addOrders(db, now);
      addActivities(db);
      db.prepare(`${numbers(LEADS)}${REPS_CTE}${ranked('src', "SELECT id FROM sources WHERE resource_type = 'lead'")}
        INSERT INTO leads (creator_id, owner_id, last_name, description, source_id, created_at, updated_at)
        SELECT rep.id, rep.id, 'Lead ' || i, '${MARK}', src.id, ${within('i')}, ${within('i')}
        FROM n ${JOIN_REP} LEFT JOIN src ON src.k = n.i % 4`).run();
      db.prepare(`INSERT INTO lead_conversions (lead_id, creator_id, created_at, activities_pending)
        SELECT id, owner_id, created_at, 0 FROM leads WHERE description = '${MARK}' AND id % 4 = 0`).run();
    })();
    const count = (sql) => db.prepare(sql).pluck().get();
    return {
      deals: count('SELECT count(*) FROM deals'),
      activities: count(`SELECT (SELECT count(*) FROM calls) + (SELECT count(*) FROM notes) + (SELECT count(*) FROM tasks WHERE completed = 1) + (SELECT count(*) FROM visits)`),
      lineItems: count('SELECT count(*) FROM line_items'),
    };
  } finally {
    db.close();
  }
}

/** An order with two line items (of two products) on every won deal. */
function addOrders(db, now) {
  const product = db.prepare(`INSERT INTO products (name, sku, description, prices, created_at, updated_at) VALUES (?, ?, '${MARK}', '[]', ?, ?)`);
  for (const name of ['Support plan', 'Fleet licence', 'Training day']) product.run(name, name.toUpperCase().replace(/ /g, '-'), now, now);
  db.prepare(`INSERT INTO orders (deal_id, created_at, updated_at)
    SELECT d.id, d.created_at, d.created_at FROM deals d JOIN stages s ON s.id = d.stage_id
    WHERE d.dropbox_email = '${MARK}@deals.invalid' AND s.category = 'won'`).run();
  db.prepare(`INSERT INTO line_items (order_id, product_id, name, currency, price, value, quantity, created_at, updated_at)
    SELECT o.id, p.id, p.name, d.currency, '49.99', '49.99', 1 + (o.id % 3), o.created_at, o.created_at
    FROM orders o JOIN deals d ON d.id = o.deal_id JOIN products p ON p.description = '${MARK}' AND (p.id + o.id) % 3 <> 0
    WHERE d.dropbox_email = '${MARK}@deals.invalid'`).run();
}

/** A quarter each: calls, notes, completed tasks, visits, by the reps, over the last year. */
function addActivities(db) {
  const each = Math.round(ACTIVITIES / 4);
  db.prepare(`${numbers(each)}${REPS_CTE} INSERT INTO calls (user_id, creator_id, phone_number, made_at, external_id, created_at, updated_at)
    SELECT rep.id, rep.id, '+1 555 0100', ${within('i')}, '${MARK}', ${within('i')}, ${within('i')} FROM n ${JOIN_REP}`).run();
  db.prepare(`${numbers(each)}${REPS_CTE} INSERT INTO notes (creator_id, resource_type, resource_id, content, created_at, updated_at)
    SELECT rep.id, 'lead', 1, '${MARK}', ${within('i')}, ${within('i')} FROM n ${JOIN_REP}`).run();
  db.prepare(`${numbers(each)}${REPS_CTE} INSERT INTO tasks (creator_id, owner_id, content, completed, completed_at, created_at, updated_at)
    SELECT rep.id, rep.id, '${MARK}', 1, ${within('i')}, ${within('i')}, ${within('i')} FROM n ${JOIN_REP}`).run();
  db.prepare(`${numbers(each)}${REPS_CTE} INSERT INTO visits (creator_id, resource_type, resource_id, visited_at, summary, created_at, updated_at)
    SELECT rep.id, 'lead', 1, ${within('i')}, '${MARK}', ${within('i')}, ${within('i')} FROM n ${JOIN_REP}`).run();
}

export function removeReportRecords(file) {
  const db = new Database(file);
  registerFunctions(db);
  try {
    removeRows(db);
  } finally {
    db.close();
  }
}

function removeRows(db) {
  db.transaction(() => {
    const deals = `SELECT id FROM deals WHERE dropbox_email = '${MARK}@deals.invalid'`;
    db.prepare(`DELETE FROM line_items WHERE order_id IN (SELECT id FROM orders WHERE deal_id IN (${deals}))`).run();
    db.prepare(`DELETE FROM orders WHERE deal_id IN (${deals})`).run();
    db.prepare(`DELETE FROM products WHERE description = '${MARK}'`).run();
    db.prepare(`DELETE FROM deals WHERE dropbox_email = '${MARK}@deals.invalid'`).run();
    db.prepare(`DELETE FROM lead_conversions WHERE lead_id IN (SELECT id FROM leads WHERE description = '${MARK}')`).run();
    db.prepare(`DELETE FROM leads WHERE description = '${MARK}'`).run();
    db.prepare(`DELETE FROM calls WHERE external_id = '${MARK}'`).run();
    db.prepare(`DELETE FROM notes WHERE content = '${MARK}'`).run();
    db.prepare(`DELETE FROM tasks WHERE content = '${MARK}'`).run();
    db.prepare(`DELETE FROM visits WHERE summary = '${MARK}'`).run();
    db.prepare(`DELETE FROM users WHERE email LIKE '${REP_EMAIL}'`).run();
  })();
}

/**
 * The bare baselines: each report's main aggregate as one plain query over
 * the same rows and range, money summed as floats (what a naive report would
 * do), with none of the hub's parameters, periods, exact sums or envelope.
 */
const YEAR = `strftime('%Y-%m-%dT%H:%M:%SZ', 'now', '-1 year')`;
const BARE = {
  pipeline: `SELECT d.stage_id, d.currency, count(*), sum(CAST(d.value AS REAL)), sum(CAST(d.value AS REAL) * COALESCE(d.customized_win_likelihood, s.likelihood) / 100)
    FROM deals d JOIN stages s ON s.id = d.stage_id WHERE s.pipeline_id = (SELECT min(id) FROM pipelines) GROUP BY 1, 2`,
  won_lost: `SELECT substr(d.last_stage_change_at, 1, 7), s.category, d.currency, count(*), sum(CAST(d.value AS REAL))
    FROM deals d JOIN stages s ON s.id = d.stage_id WHERE s.category IN ('won', 'lost') AND d.last_stage_change_at >= ${YEAR} GROUP BY 1, 2, 3`,
  loss_reasons: `SELECT d.loss_reason_id, d.currency, count(*), sum(CAST(d.value AS REAL))
    FROM deals d JOIN stages s ON s.id = d.stage_id WHERE s.category = 'lost' AND d.last_stage_change_at >= ${YEAR} GROUP BY 1, 2`,
  activities: `SELECT user_id, substr(made_at, 1, 7), count(*) FROM calls WHERE made_at >= ${YEAR} GROUP BY 1, 2
    UNION ALL SELECT creator_id, substr(created_at, 1, 7), count(*) FROM notes WHERE created_at >= ${YEAR} GROUP BY 1, 2
    UNION ALL SELECT owner_id, substr(completed_at, 1, 7), count(*) FROM tasks WHERE completed = 1 AND completed_at >= ${YEAR} GROUP BY 1, 2
    UNION ALL SELECT creator_id, substr(visited_at, 1, 7), count(*) FROM visits WHERE visited_at >= ${YEAR} GROUP BY 1, 2`,
  lead_conversion: `SELECT l.source_id, count(*), count(c.id) FROM leads l LEFT JOIN lead_conversions c ON c.lead_id = l.id
    WHERE l.created_at >= ${YEAR} GROUP BY 1`,
  product_sales: `SELECT li.product_id, li.currency, sum(li.quantity), count(DISTINCT d.id), sum(CAST(li.value AS REAL) * li.quantity)
    FROM line_items li JOIN orders o ON o.id = li.order_id JOIN deals d ON d.id = o.deal_id JOIN stages s ON s.id = d.stage_id
    WHERE s.category = 'won' AND d.last_stage_change_at >= ${YEAR} GROUP BY 1, 2`,
};

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

function stats(times) {
  const sorted = [...times].sort((a, b) => a - b);
  return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
}

async function timeRequest(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body)}`);
  return ms;
}

function timeQuery(statement) {
  const started = performance.now();
  statement.all();
  return performance.now() - started;
}

/**
 * Times each report over HTTP, one request at a time (WARM_UP, then SAMPLES),
 * alternating with its bare query, and prints median and p95 of both. The
 * target is on outpost's p95: under 200 ms.
 */
export async function reportLines({ hub, auth, file, counts, indent }) {
  console.log(`reports GET /v2/reports/<name> as an admin, whole team, default range (12 months by month) (${counts.deals} deals, ${counts.activities} activities, ${counts.lineItems} line items), one request at a time, ${SAMPLES} per report, beside the same aggregate as one bare SQL query (better-sqlite3, in the bench process)`);
  const db = new Database(file, { readonly: true });
  try {
    for (const [name, sql] of Object.entries(BARE)) {
      const statement = db.prepare(sql);
      const ours = [];
      const bare = [];
      for (let i = 0; i < WARM_UP; i++) {
        await timeRequest(`${hub}/v2/reports/${name}`, auth);
        timeQuery(statement);
      }
      for (let i = 0; i < SAMPLES; i++) {
        ours.push(await timeRequest(`${hub}/v2/reports/${name}`, auth));
        bare.push(timeQuery(statement));
      }
      const [o, b] = [stats(ours), stats(bare)];
      const ms = (n) => `${n.toFixed(1)} ms`;
      console.log(`${indent}${name.padEnd(16)} outpost median ${ms(o.median)}, p95 ${ms(o.p95)}   bare SQL median ${ms(b.median)}, p95 ${ms(b.p95)}   ratio ${(o.median / b.median).toFixed(2)} (median)   target p95 < ${TARGET_MS} ms ${o.p95 < TARGET_MS ? 'PASS' : 'MISS'}`);
    }
  } finally {
    db.close();
  }
}
