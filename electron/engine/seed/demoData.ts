import type { Engine } from '../engine.js';
import { seedContacts } from './demoContacts.js';
import { seedLeads } from './demoLeads.js';
import { seedDeals } from './demoDeals.js';
import { commerceRefusal, seedCommerce } from './demoCommerce.js';
import { seedCallsAndVisits, seedSequences } from './demoOutreach.js';
import { TASK_BUCKETS, seedActivities } from './demoActivities.js';
import { demoUsers, type DemoUsers } from './demoSetup.js';

/** What `outpost seed` can be asked for, as counts (`textMessages` is `--text-messages`). */
export const SEED_KINDS = ['contacts', 'leads', 'deals', 'orders', 'calls', 'visits', 'tasks', 'notes', 'textMessages'] as const;
export type SeedKind = (typeof SEED_KINDS)[number];
export type SeedCounts = Record<SeedKind, number>;

/**
 * The counts of a run: what was asked for, and for what was not, a share
 * of the contacts asked for, with a ceiling: the services write record by
 * record (a lead or a call costs several times a bulk-loaded contact), so
 * `--contacts 100000` stays about as fast as before (a benchmark seeds it);
 * ask for more with the kind's own option. Orders follow the deals (a
 * quarter of them). Nothing but contacts brings the other kinds along.
 */
export function plannedCounts(given: Partial<SeedCounts>): SeedCounts {
  const contacts = given.contacts ?? 0;
  const share = (kind: SeedKind, ratio: number, ceiling: number) => given[kind] ?? Math.min(Math.round(contacts * ratio), ceiling);
  const deals = share('deals', 1 / 5, 500);
  return {
    contacts,
    leads: share('leads', 1 / 5, 500),
    deals,
    orders: given.orders ?? Math.round(deals / 4),
    calls: share('calls', 1 / 5, 500),
    visits: share('visits', 1 / 10, 250),
    tasks: share('tasks', 1 / 5, 1000),
    notes: share('notes', 1 / 5, 1000),
    textMessages: share('textMessages', 1 / 10, 500),
  };
}

/** What one run made, part by part (the templates and sequences are made with contacts, once). */
export interface SeedReport {
  counts: SeedCounts & { products: number; lineItems: number; emailTemplates: number; sequences: number };
  /** Why no products or orders were made when some were asked for; null otherwise. */
  commerceSkipped: string | null;
}

/**
 * Realistic demo data, part by part, each in its transaction, through the
 * engine's services (contacts, tasks, notes and text messages excepted:
 * they go in by prepared statements, see demoContacts.ts and
 * demoActivities.ts). `log` gets one line per part and a total.
 *
 * A hub may be serving the folder meanwhile, and writing (a replica's sync
 * answers each part's commit): every part's transaction takes the write
 * lock as it begins (BEGIN IMMEDIATE, waiting out the hub's writes), since
 * one that read first could not upgrade to writing once the hub had
 * written (SQLITE_BUSY_SNAPSHOT, which no busy timeout waits out).
 */
export function seedDemoData(engine: Engine, given: Partial<SeedCounts>, log: (line: string) => void = () => undefined): SeedReport {
  const planned = plannedCounts(given);
  const report: SeedReport = { counts: { ...planned, products: 0, lineItems: 0, emailTemplates: 0, sequences: 0 }, commerceSkipped: null };
  const { counts } = report;
  const started = performance.now();
  let lines = 0;
  const timed = <T>(part: () => T, line: (result: T) => string | null): void => {
    const begun = performance.now();
    const result = part();
    const text = line(result);
    if (text === null) return;
    log(`${text} in ${seconds(begun)} s.`);
    lines++;
  };
  let users: DemoUsers | undefined;
  const team = () => (users ??= demoUsers(engine));

  if (counts.contacts > 0) {
    timed(() => seedContacts(engine, counts.contacts), (r) => `Seeded ${counts.contacts} contacts (${r.organizations} organizations, ${r.people} people)`);
  }
  if (counts.leads > 0) {
    timed(() => seedLeads(engine, counts.leads, team()), (r) => {
      const { people, organizations } = r.convertedInto;
      const into = people + organizations === 0 ? '' : ` into ${people} ${people === 1 ? 'person' : 'people'} and ${organizations} organization${organizations === 1 ? '' : 's'}`;
      return `Seeded ${counts.leads} leads (${[...r.byStatus].map(([status, n]) => `${n} ${status}`).join(', ')}${into})`;
    });
  }
  if (counts.deals > 0) {
    timed(() => seedDeals(engine, counts.deals, team()), (r) => {
      const list = (what: string, map: Map<string, number>) => {
        const used = [...map].filter(([, n]) => n > 0);
        return `${used.length} ${what} (${used.map(([name, n]) => `${name} ${n}`).join(', ')})`;
      };
      return `Seeded ${counts.deals} deals in ${list('stages', r.byStage)} and ${list('currencies', r.byCurrency)}`;
    });
  }
  if (counts.orders > 0) {
    report.commerceSkipped = commerceRefusal(engine);
    if (report.commerceSkipped !== null) {
      log(`Skipped products and orders: ${report.commerceSkipped}.`);
      counts.orders = 0;
    } else {
      timed(() => seedCommerce(engine, counts.orders, team()), (r) => {
        Object.assign(counts, { products: r.products, orders: r.orders, lineItems: r.lineItems });
        const products = r.products > 0 ? `${r.products} products priced in ${and(r.currencies)}, and ` : '';
        return `Seeded ${products}${r.orders} orders with ${r.lineItems} line items`;
      });
    }
  }
  if (counts.calls + counts.visits > 0) {
    timed(() => seedCallsAndVisits(engine, counts.calls, counts.visits, team()), (r) => `Seeded ${r.calls} calls and ${r.visits} visits`);
  }
  if (counts.contacts > 0) {
    timed(() => seedSequences(engine, team()), (r) => {
      Object.assign(counts, { emailTemplates: r.templates, sequences: r.sequences });
      return r.templates + r.sequences === 0 ? null : `Seeded ${r.templates} email templates and ${r.sequences} sequences (${r.steps} steps)`;
    });
  }
  if (counts.tasks + counts.notes + counts.textMessages > 0) {
    timed(() => seedActivities(engine, counts), (r) => {
      const buckets = r.tasks === 0 ? '' : ` (${TASK_BUCKETS.map((b) => `${r.taskBuckets.get(b)} ${b === 'no due date' ? 'without a due date' : b === 'today' ? 'due today' : b}`).join(', ')})`;
      return `Seeded ${r.tasks} tasks${buckets}, ${r.notes} notes and ${r.textMessages} text messages`;
    });
  }
  if (lines > 1) {
    const parts: [number, string][] = [
      [counts.contacts, 'contacts'], [counts.leads, 'leads'], [counts.deals, 'deals'], [counts.products, 'products'], [counts.orders, 'orders'],
      [counts.lineItems, 'line items'], [counts.calls, 'calls'], [counts.visits, 'visits'], [counts.emailTemplates, 'email templates'],
      [counts.sequences, 'sequences'], [counts.tasks, 'tasks'], [counts.notes, 'notes'], [counts.textMessages, 'text messages'],
    ];
    log(`Seeded ${and(parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`))} in ${seconds(started)} s.`);
  }
  return report;
}

const seconds = (since: number) => ((performance.now() - since) / 1000).toFixed(1);

/** "a, b and c". */
function and(items: string[]): string {
  return items.length <= 1 ? items.join('') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}
