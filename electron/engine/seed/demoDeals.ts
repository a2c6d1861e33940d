import { faker } from '@faker-js/faker';
import type { Engine } from '../engine.js';
import type { StageCategory } from '../../../shared/resources/deal.js';
import { isoSeconds } from '../clock.js';
import { DAY, Pool, demoCurrencies, ensureEntries, isoDay, runSeed, seedExchangeRates, sent, type DemoUsers } from './demoSetup.js';
import { DEAL_SUBJECTS } from './phrases.js';

const SOURCES = ['Inbound', 'Outbound', 'Referral', 'Partner', 'Existing customer'];
const LOSS_REASONS = ['Price too high', 'Chose a competitor', 'No budget', 'Bad timing', 'No decision', 'Missing features'];
const UNQUALIFIED_REASONS = ['Too small', 'Not a decision maker', 'Outside our area'];
const TAGS = ['upsell', 'new-business', 'renewal', 'multi-site'];
/** How often a deal is in a stage of each kind (an in-progress weight applies to each such stage). */
const CATEGORY_WEIGHTS: Record<StageCategory, number> = { incoming: 20, in_progress: 15, won: 17, lost: 12, unqualified: 6 };

interface StageRow {
  id: number;
  name: string;
  category: StageCategory;
  likelihood: number;
}

export interface DealSummary {
  deals: number;
  /** Deals per stage of the default pipeline, in pipeline order. */
  byStage: Map<string, number>;
  /** Deals per currency, the account's first. */
  byCurrency: Map<string, number>;
}

/** The stages of the default pipeline (the one new deals go to), in order. */
export function defaultPipelineStages(engine: Engine): StageRow[] {
  const first = engine.stages.defaultStageId();
  if (first === undefined) return [];
  return engine.db.prepare('SELECT id, name, category, likelihood FROM stages WHERE pipeline_id = (SELECT pipeline_id FROM stages WHERE id = ?) ORDER BY position, id')
    .all(first) as StageRow[];
}

/**
 * `count` deals through the deals service on existing contacts (mostly
 * organizations), spread over the owners and over every stage of the
 * default pipeline (each stage at least once when there are enough deals),
 * in several currencies; won and lost deals have closed in the past, lost
 * ones with a loss reason, unqualified ones with their reason. One transaction.
 */
export function seedDeals(engine: Engine, count: number, users: DemoUsers, seed = 13): DealSummary {
  const stages = defaultPipelineStages(engine);
  const currencies = demoCurrencies(engine);
  const summary: DealSummary = { deals: count, byStage: new Map(stages.map((s) => [s.name, 0])), byCurrency: new Map(currencies.map((c) => [c, 0])) };
  if (count === 0) return summary;
  if (stages.length === 0) throw new Error('No pipeline has stages: deals need one.');
  // A deal is for its organization: the contact's own name, or the name of the organization the person is in.
  const customers = (organization: 0 | 1) => new Pool(engine, `SELECT id FROM contacts WHERE is_organization = ${organization} ORDER BY id`,
    'SELECT c.id, coalesce(o.name, c.name) AS customer FROM contacts c LEFT JOIN contacts o ON o.id = c.contact_id WHERE c.id = ?',
    (row) => ({ id: row.id as number, customer: row.customer as string | null }));
  const organizations = customers(1);
  const people = customers(0);
  if (organizations.size + people.size === 0) throw new Error('No contacts yet: seed some with --contacts first.');
  // The column total of the pipeline's last open stage is checked in the account's currency by the
  // end-to-end suite (e2e/deals.spec.mjs): deals there are in that currency, foreign ones elsewhere.
  const closing = stages.filter((s) => s.category === 'in_progress').at(-1)?.id;
  engine.db.transaction(() => {
    faker.seed(runSeed(engine, 'deals', seed));
    const sources = [...ensureEntries(engine, engine.dealSources, SOURCES, users.admin).values()];
    const lossReasons = [...ensureEntries(engine, engine.lossReasons, LOSS_REASONS, users.admin).values()];
    const unqualifiedReasons = [...ensureEntries(engine, engine.dealUnqualifiedReasons, UNQUALIFIED_REASONS, users.admin).values()];
    const weightedStages = stages.map((value) => ({ value, weight: CATEGORY_WEIGHTS[value.category] }));
    // Totals over the demo's currencies convert into the account's.
    seedExchangeRates(engine, users.admin);
    const [home, ...foreign] = currencies;
    const now = engine.clock.now().getTime();
    const setStageChange = engine.db.prepare('UPDATE deals SET last_stage_change_at = ? WHERE id = ?');
    for (let i = 0; i < count; i++) {
      const stage = i < stages.length ? stages[i] : faker.helpers.weightedArrayElement(weightedStages);
      const owner = faker.helpers.arrayElement(users.all);
      const { id: contactId, customer } = (organizations.size > 0 && (people.size === 0 || faker.number.int(9) < 6) ? organizations : people).draw();
      const currency = stage.id === closing || foreign.length === 0 || faker.number.int(9) < 6 ? home : faker.helpers.arrayElement(foreign);
      const finished = stage.category === 'won' || stage.category === 'lost' || stage.category === 'unqualified';
      // Closed deals over the past eleven months; open ones added in the last five.
      const added = now - faker.number.int({ min: 5, max: finished ? 330 : 150 }) * DAY;
      const closes = finished ? faker.number.int({ min: added, max: now - DAY }) : now + faker.number.int({ min: 3, max: 90 }) * DAY;
      const id = engine.deals.create(sent({
        name: `${customer ?? 'Walk-in customer'} – ${faker.helpers.arrayElement(DEAL_SUBJECTS)}`,
        value: `${faker.number.int({ min: 10, max: 1200 }) * 50}${faker.number.int(4) === 0 ? '.50' : ''}`,
        currency, stage_id: stage.id, contact_id: contactId, owner_id: owner.userId,
        hot: !finished && faker.number.int(5) === 0,
        source_id: faker.number.int(9) < 7 ? faker.helpers.arrayElement(sources) : null,
        loss_reason_id: stage.category === 'lost' ? faker.helpers.arrayElement(lossReasons) : null,
        unqualified_reason_id: stage.category === 'unqualified' ? faker.helpers.arrayElement(unqualifiedReasons) : null,
        added_on: isoDay(new Date(added)),
        estimated_close_date: isoDay(new Date(closes)),
        customized_win_likelihood: !finished && faker.number.int(9) === 0 ? faker.number.int({ min: 2, max: 18 }) * 5 : null,
        tags: faker.helpers.arrayElements(TAGS, { min: 0, max: 1 }),
      }), owner);
      // The API sets the stage change to now; a closed deal closed on its day, an open one moved some day since it was added,
      // so the won-and-lost report has months to show.
      const moved = finished ? closes : faker.number.int({ min: added, max: now });
      setStageChange.run(isoSeconds(new Date(moved)), id);
      summary.byStage.set(stage.name, summary.byStage.get(stage.name)! + 1);
      summary.byCurrency.set(currency, summary.byCurrency.get(currency)! + 1);
    }
  }).immediate();
  return summary;
}
