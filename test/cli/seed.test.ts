import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { faker } from '@faker-js/faker';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { ManualClock } from '../../electron/engine/clock.js';
import { seedDemoData, plannedCounts } from '../../electron/engine/seed/demoData.js';
import { CATALOG, TOPICS } from '../../electron/engine/seed/phrases.js';
import { LEAD_STATUSES } from '../../shared/resources/lead.js';
import type { Order } from '../../shared/resources/order.js';

// The demo data of `outpost seed` (electron/engine/seed/), on a real engine in a temp folder.

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const ADMIN = { userId: 1, role: 'admin' as const, scopes: new Set(['read', 'write'] as const) };

/** An engine with an admin and an agent (owners are spread over both), on a clock that stands still. */
async function demoEngine(clock = new ManualClock('2026-03-04T10:30:00Z')): Promise<{ engine: Engine; clock: ManualClock }> {
  const dir = mkdtempSync(join(tmpdir(), 'outpost-seed-'));
  dirs.push(dir);
  const engine = openEngine({ dataDir: dir, clock, runSequences: false });
  await engine.users.create({ email: 'boss@example.com', name: 'Boss', role: 'admin', password: 'long-enough' });
  await engine.users.create({ email: 'rep@example.com', name: 'Rep', role: 'user', password: 'long-enough' });
  return { engine, clock };
}

const all = <T>(engine: Engine, sql: string, ...params: unknown[]) => engine.db.prepare(sql).all(...params) as T[];
const column = <T>(engine: Engine, sql: string, ...params: unknown[]) => engine.db.prepare(sql).pluck().all(...params) as T[];
const one = <T>(engine: Engine, sql: string, ...params: unknown[]) => engine.db.prepare(sql).pluck().get(...params) as T;

/** A decimal string in hundredths, exactly. */
function cents(text: string): bigint {
  const [whole, fraction = ''] = text.split('.');
  const sign = whole.startsWith('-') ? -1n : 1n;
  return sign * (BigInt(whole.replace('-', '')) * 100n + BigInt(fraction.padEnd(2, '0').slice(0, 2)));
}

/** `amount` changed by `percent` (a decimal string), rounded half up to the cent (positive amounts). */
function withPercent(amount: bigint, percent: string): bigint {
  return (amount * (10_000n + cents(percent)) + 5_000n) / 10_000n;
}

describe('outpost seed: demo data', { timeout: 120_000 }, () => {
  it('plans a share of the contacts for every other kind, capped, unless a count is given', () => {
    expect(plannedCounts({ contacts: 1000 })).toEqual({ contacts: 1000, leads: 200, deals: 200, orders: 50, calls: 200, visits: 100, tasks: 200, notes: 200, textMessages: 100 });
    expect(plannedCounts({ contacts: 100_000 })).toMatchObject({ leads: 500, deals: 500, orders: 125, calls: 500, visits: 250, tasks: 1000, notes: 1000 });
    expect(plannedCounts({ contacts: 1000, leads: 0, tasks: 7 })).toMatchObject({ leads: 0, deals: 200, tasks: 7 });
    expect(plannedCounts({ tasks: 10 })).toEqual({ contacts: 0, leads: 0, deals: 0, orders: 0, calls: 0, visits: 0, tasks: 10, notes: 0, textMessages: 0 });
  });

  it('makes every kind of record through the services: leads in every status, deals in every stage and several currencies, orders, calls, visits, sequences', async () => {
    const { engine } = await demoEngine();
    const lines: string[] = [];
    const report = seedDemoData(engine, { contacts: 500 }, (line) => lines.push(line));
    expect(report.commerceSkipped).toBeNull();
    expect(lines.at(-1)).toMatch(/^Seeded 500 contacts, 100 leads, 100 deals, 16 products, 25 orders, \d+ line items, 100 calls, 50 visits, 5 email templates, 3 sequences, 100 tasks, 100 notes and 50 text messages in [\d.]+ s\.$/);

    // Leads: every status Outpost suggests; the converted ones really were, into contacts that keep their email.
    expect(one(engine, 'SELECT COUNT(*) FROM leads')).toBe(100);
    expect(column(engine, 'SELECT DISTINCT status FROM leads ORDER BY status')).toEqual([...LEAD_STATUSES].sort());
    const converted = all<{ lead: string; person: string }>(engine, `SELECT l.email AS lead, c.email AS person FROM leads l
      JOIN lead_conversions lc ON lc.lead_id = l.id JOIN contacts c ON c.id = lc.individual_id`);
    expect(converted.length).toBe(one(engine, "SELECT COUNT(*) FROM leads WHERE status = 'Converted'"));
    expect(converted.every((c) => c.lead === c.person)).toBe(true);
    expect(one(engine, "SELECT COUNT(*) FROM leads WHERE status = 'Unqualified' AND unqualified_reason_id IS NULL")).toBe(0);
    expect(one(engine, 'SELECT COUNT(*) FROM lead_conversions WHERE activities_pending = 1')).toBe(0);

    // Deals: every stage of the default pipeline, won and lost ones (lost with a reason), several currencies.
    const stages = all<{ name: string; category: string; deals: number }>(engine, `SELECT s.name, s.category, (SELECT COUNT(*) FROM deals d WHERE d.stage_id = s.id) AS deals
      FROM stages s WHERE s.pipeline_id = (SELECT MIN(id) FROM pipelines) ORDER BY s.position`);
    expect(stages.map((s) => s.name)).toEqual(['Incoming', 'Qualified', 'Quote', 'Closure', 'Won', 'Lost', 'Unqualified']);
    expect(stages.filter((s) => s.deals === 0)).toEqual([]);
    expect(one(engine, "SELECT COUNT(*) FROM deals d JOIN stages s ON s.id = d.stage_id WHERE s.category = 'lost' AND d.loss_reason_id IS NULL")).toBe(0);
    expect(one(engine, "SELECT COUNT(*) FROM deals d JOIN stages s ON s.id = d.stage_id WHERE s.category = 'unqualified' AND d.unqualified_reason_id IS NULL")).toBe(0);
    expect(column(engine, 'SELECT DISTINCT currency FROM deals ORDER BY currency')).toEqual(['CAD', 'EUR', 'GBP', 'USD']);
    expect(one(engine, "SELECT COUNT(*) FROM deals WHERE CAST(value AS REAL) <= 0")).toBe(0);
    // The closing stage's column is summed in the account's currency by the end-to-end suite.
    expect(column(engine, "SELECT DISTINCT d.currency FROM deals d JOIN stages s ON s.id = d.stage_id WHERE s.name = 'Closure'")).toEqual(['USD']);

    // Products in the catalog's currencies; orders whose totals are their line items' sums, and their deal's value.
    const products = all<{ sku: string; prices: string }>(engine, 'SELECT sku, prices FROM products ORDER BY id');
    expect(products.map((p) => p.sku)).toEqual(CATALOG.map((p) => p.sku));
    expect(new Set(products.flatMap((p) => (JSON.parse(p.prices) as { currency: string }[]).map((x) => x.currency)))).toEqual(new Set(['USD', 'EUR', 'GBP', 'CAD']));
    const orders = all<{ id: number; deal_id: number }>(engine, 'SELECT id, deal_id FROM orders ORDER BY id');
    expect(orders).toHaveLength(25);
    for (const { id, deal_id: dealId } of orders) {
      const order = JSON.parse(engine.orders.json(id)) as Order;
      const deal = JSON.parse(engine.deals.json(dealId)) as { currency: string; value: string };
      const lines = all<{ currency: string; price: string; variation: string; value: string; quantity: number }>(engine,
        'SELECT currency, price, variation, value, quantity FROM line_items WHERE order_id = ?', id);
      expect(lines.length).toBeGreaterThanOrEqual(1);
      expect(lines.every((l) => l.currency === deal.currency)).toBe(true);
      for (const line of lines) expect(cents(line.value)).toBe(withPercent(cents(line.price), line.variation));
      const subtotal = lines.reduce((sum, l) => sum + cents(l.value) * BigInt(l.quantity), 0n);
      expect(order.totals).toHaveLength(1);
      expect(cents(order.totals[0].subtotal)).toBe(subtotal);
      expect(cents(order.totals[0].total)).toBe(withPercent(subtotal, `-${String(order.discount)}`));
      expect(cents(deal.value)).toBe(cents(order.totals[0].total));
    }
    expect(one(engine, `SELECT COUNT(*) FROM orders o JOIN deals d ON d.id = o.deal_id JOIN stages s ON s.id = d.stage_id
      WHERE NOT (s.category = 'won' OR s.likelihood >= 50)`)).toBe(0);

    // Calls and visits with outcomes and summaries; templates and sequences with steps.
    expect(one(engine, 'SELECT COUNT(*) FROM calls')).toBe(100);
    expect(one(engine, 'SELECT COUNT(*) FROM calls WHERE missed = 0 AND (outcome_id IS NULL OR summary IS NULL)')).toBe(0);
    expect(one(engine, 'SELECT COUNT(DISTINCT outcome_id) FROM calls')).toBeGreaterThanOrEqual(4);
    expect(one(engine, 'SELECT COUNT(*) FROM visits WHERE outcome_id IS NOT NULL AND summary IS NOT NULL')).toBe(50);
    expect(one(engine, 'SELECT COUNT(*) FROM email_templates')).toBe(5);
    const sequences = all<{ name: string; steps: number; emails: number }>(engine, `SELECT s.name, COUNT(st.id) AS steps, SUM(st.action_type = 'automated_email') AS emails
      FROM sequences s JOIN sequence_steps st ON st.sequence_id = s.id GROUP BY s.id ORDER BY s.id`);
    expect(sequences.map((s) => s.name)).toEqual(['New lead outreach', 'Quote follow-up', 'Support plan renewal']);
    expect(sequences.every((s) => s.steps >= 3 && s.emails >= 1)).toBe(true);
    expect(one(engine, 'SELECT COUNT(*) FROM sequence_enrollments')).toBe(0);

    // Owners are spread over the team; every record is in the change log (devices receive it).
    for (const sql of ['SELECT DISTINCT owner_id FROM leads', 'SELECT DISTINCT owner_id FROM deals', 'SELECT DISTINCT user_id FROM calls',
      'SELECT DISTINCT creator_id FROM visits', 'SELECT DISTINCT owner_id FROM tasks', 'SELECT DISTINCT creator_id FROM notes']) {
      expect(column<number>(engine, `${sql} ORDER BY 1`), sql).toEqual([1, 2]);
    }
    for (const [table, type] of [['leads', 'lead'], ['deals', 'deal'], ['products', 'product'], ['orders', 'order'], ['line_items', 'line_item'], ['calls', 'call'],
      ['visits', 'visit'], ['email_templates', 'email_template'], ['sequences', 'sequence'], ['tasks', 'task'], ['notes', 'note'], ['lead_conversions', 'lead_conversion'],
      ['sources', 'source'], ['loss_reasons', 'loss_reason']]) {
      expect(one(engine, `SELECT COUNT(*) FROM ${table} t WHERE NOT EXISTS (SELECT 1 FROM record_revisions r WHERE r.resource_type = ? AND r.resource_id = t.id)`, type), table).toBe(0);
    }
    // The search indexes follow: a seeded lead and a seeded deal are found by a word of their name.
    const lead = all<{ id: number; last_name: string }>(engine, 'SELECT id, last_name FROM leads ORDER BY id LIMIT 1')[0];
    expect(engine.leads.listPage({ q: lead.last_name }).rows.map((r) => JSON.parse(r).id)).toContain(lead.id);
    const callSummary = one<string>(engine, 'SELECT summary FROM calls WHERE summary IS NOT NULL ORDER BY id LIMIT 1');
    expect(callSummary).toMatch(/^[A-Z].*[.!?]$/);
    engine.close();
  });

  it('writes English tasks and notes, tasks overdue, due today, upcoming, without a due date and done, all valid for their services', async () => {
    const { engine, clock } = await demoEngine();
    engine.db.prepare("UPDATE users SET timezone = 'UTC-05:00' WHERE id = 2").run();
    seedDemoData(engine, { contacts: 200, tasks: 300, notes: 300, textMessages: 50 });
    const notes = column<string>(engine, 'SELECT content FROM notes');
    const texts = [...notes, ...column<string>(engine, 'SELECT content FROM tasks'), ...column<string>(engine, 'SELECT content FROM text_messages'),
      ...column<string>(engine, 'SELECT summary FROM calls WHERE summary IS NOT NULL'), ...column<string>(engine, 'SELECT summary FROM visits')];
    // No lorem ipsum: the words of faker's Latin make up almost all of such text, and hardly any English.
    const latin = new Set(faker.rawDefinitions.lorem!.word as string[]);
    const words = texts.flatMap((t) => t.toLowerCase().match(/[a-z]+/g) ?? []);
    const latinShare = words.filter((w) => latin.has(w) && w.length > 2).length / words.length;
    expect(latinShare).toBeLessThan(0.02);
    for (const word of ['lorem', 'ipsum', 'dolor', 'amet', 'consectetur']) expect(words).not.toContain(word);
    // Every note and task names a topic (the benchmark's full-text lines search for them).
    expect(notes.every((n) => TOPICS.some((t) => n.includes(t)))).toBe(true);
    expect(new Set(notes).size).toBeGreaterThan(280);

    // "Today" is the rest of the owner's day in the owner's time zone (the rep is five hours behind UTC).
    const now = clock.now().getTime();
    const tomorrow = { 1: Date.parse('2026-03-05T00:00:00Z'), 2: Date.parse('2026-03-05T05:00:00Z') } as Record<number, number>;
    const tasks = all<{ id: number; owner_id: number; due_date: string | null; completed: number; completed_at: string | null; remind_at: string | null }>(engine,
      'SELECT id, owner_id, due_date, completed, completed_at, remind_at FROM tasks');
    const open = tasks.filter((t) => t.completed === 0);
    const due = (t: { due_date: string | null }) => Date.parse(t.due_date!);
    const buckets = {
      overdue: open.filter((t) => t.due_date !== null && due(t) < now),
      today: open.filter((t) => t.due_date !== null && due(t) >= now && due(t) < tomorrow[t.owner_id]),
      upcoming: open.filter((t) => t.due_date !== null && due(t) >= tomorrow[t.owner_id]),
      none: open.filter((t) => t.due_date === null),
      completed: tasks.filter((t) => t.completed === 1 && t.completed_at !== null && Date.parse(t.completed_at) <= now),
    };
    for (const [bucket, list] of Object.entries(buckets)) expect(list.length, bucket).toBeGreaterThanOrEqual(20);
    expect(Object.values(buckets).reduce((sum, list) => sum + list.length, 0)).toBe(300);
    expect(new Set(buckets.today.map((t) => t.owner_id))).toEqual(new Set([1, 2]));
    expect(buckets.today.some((t) => t.owner_id === 2 && due(t) >= tomorrow[1])).toBe(true);

    // What went in by prepared statements is what the services accept: sent back through them, nothing is refused.
    const asSent = (row: Record<string, unknown>, booleans: string[]) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, booleans.includes(k) ? v === 1 : v]));
    for (const { id, ...task } of all<Record<string, unknown>>(engine, 'SELECT id, content, owner_id, resource_type, resource_id, due_date, remind_at, completed FROM tasks')) {
      engine.tasks.update(id as number, asSent(task, ['completed']), ADMIN);
    }
    // A restricted note is its author's only: each goes back as its author.
    for (const { id, creator_id: author, ...note } of all<Record<string, unknown>>(engine, 'SELECT id, creator_id, content, resource_type, resource_id, is_important, type FROM notes')) {
      engine.notes.update(id as number, asSent(note, ['is_important']), author === 1 ? ADMIN : { ...ADMIN, userId: author as number, role: 'user' as const });
    }
    // Tasks and notes are about contacts, leads not converted yet, and deals.
    expect(column(engine, 'SELECT DISTINCT resource_type FROM tasks ORDER BY 1')).toEqual(['contact', 'deal', 'lead']);
    expect(one(engine, "SELECT COUNT(*) FROM notes n JOIN leads l ON n.resource_type = 'lead' AND l.id = n.resource_id WHERE l.status = 'Converted'")).toBe(0);
    engine.close();
  });

  it('adds records on a second run, but never an email another contact or lead has', async () => {
    const { engine } = await demoEngine();
    seedDemoData(engine, { contacts: 300 });
    const first = { contacts: one<number>(engine, 'SELECT COUNT(*) FROM contacts'), leads: one<number>(engine, 'SELECT COUNT(*) FROM leads') };
    seedDemoData(engine, { contacts: 300 });
    expect(one(engine, 'SELECT COUNT(*) FROM contacts')).toBeGreaterThanOrEqual(first.contacts + 300);
    expect(one(engine, 'SELECT COUNT(*) FROM leads')).toBe(first.leads + 60);
    expect(one(engine, 'SELECT COUNT(*) FROM deals')).toBe(120);
    // The catalog, the templates and the sequences are made once.
    expect([one(engine, 'SELECT COUNT(*) FROM products'), one(engine, 'SELECT COUNT(*) FROM email_templates'), one(engine, 'SELECT COUNT(*) FROM sequences')])
      .toEqual([CATALOG.length, 5, 3]);

    const twice = (sql: string) => column(engine, `SELECT lower(email) FROM (${sql}) WHERE email IS NOT NULL GROUP BY lower(email) HAVING COUNT(*) > 1`);
    expect(twice('SELECT email FROM contacts')).toEqual([]);
    expect(twice('SELECT email FROM leads')).toEqual([]);
    // A lead and a contact share an address only when the contact is that lead, converted.
    expect(column(engine, `SELECT l.id FROM leads l JOIN contacts c ON lower(c.email) = lower(l.email)
      WHERE NOT EXISTS (SELECT 1 FROM lead_conversions lc WHERE lc.lead_id = l.id AND lc.individual_id = c.id)`)).toEqual([]);
    // A second run draws other people, not numbered copies of the first run's.
    expect(one(engine, "SELECT COUNT(*) FROM contacts WHERE email GLOB '*[0-9]@*' AND is_organization = 1")).toBeLessThan(10);
    engine.close();
  });

  it('is repeatable: the same database and clock give the same records', async () => {
    const names = async () => {
      const { engine } = await demoEngine();
      seedDemoData(engine, { contacts: 100 });
      const rows = [
        all(engine, 'SELECT name, email FROM contacts ORDER BY id'),
        all(engine, 'SELECT first_name, last_name, email, status, owner_id FROM leads ORDER BY id'),
        all(engine, 'SELECT name, value, currency, stage_id, estimated_close_date FROM deals ORDER BY id'),
        column(engine, 'SELECT content FROM notes ORDER BY id'),
      ];
      engine.close();
      return rows;
    };
    expect(await names()).toEqual(await names());
  });

  it('leaves the plan as it is: on a plan without commerce it skips products and orders, and says how to get them', async () => {
    const { engine } = await demoEngine();
    engine.accounts.update({ plan: 'professional' }, ADMIN);
    const lines: string[] = [];
    const report = seedDemoData(engine, { contacts: 100 }, (line) => lines.push(line));
    expect(report.commerceSkipped).toMatch(/professional plan/);
    expect(lines).toContain('Skipped products and orders: the account is on the professional plan and they need enterprise or elite (outpost account set --plan enterprise, then outpost seed --orders N).');
    expect([one(engine, 'SELECT COUNT(*) FROM products'), one(engine, 'SELECT COUNT(*) FROM orders'), JSON.parse(engine.accounts.json()).plan]).toEqual([0, 0, 'professional']);

    // Once the plan allows them, orders go on the deals already there (without more contacts or deals).
    engine.accounts.update({ plan: 'enterprise' }, ADMIN);
    const deals = one(engine, 'SELECT COUNT(*) FROM deals');
    lines.length = 0;
    seedDemoData(engine, { orders: 3 }, (line) => lines.push(line));
    expect(lines).toEqual([expect.stringMatching(/^Seeded 16 products priced in USD, EUR, GBP and CAD, and 3 orders with \d+ line items in [\d.]+ s\.$/)]);
    expect([one(engine, 'SELECT COUNT(*) FROM orders'), one(engine, 'SELECT COUNT(*) FROM deals')]).toEqual([3, deals]);

    engine.accounts.update({ commerce_changes: 'disabled' }, ADMIN);
    expect(seedDemoData(engine, { orders: 3 }).commerceSkipped).toMatch(/turned off changes/);
    engine.close();
  });

  it('needs contacts before the records that are about them', async () => {
    const { engine } = await demoEngine();
    for (const kind of ['deals', 'calls', 'tasks'] as const) expect(() => seedDemoData(engine, { [kind]: 5 })).toThrow(/No contacts yet/);
    engine.close();
  });
});
