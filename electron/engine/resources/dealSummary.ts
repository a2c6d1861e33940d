import type { Actor, EngineContext } from '../context.js';
import type { RawQuery } from './params.js';
import { invalidParam } from '../problems.js';
import { selection, type ListDefinition } from './listing.js';
import type { DealSummary as Summary, StageTotal } from '../../../shared/resources/dealSummary.js';

interface Row {
  stage_id: number;
  currency: string;
  count: number;
  whole: number | bigint;
  cents: number | bigint;
}

/**
 * Values are normalized decimal text with at most two decimals (decimal.ts),
 * so SQL sums their whole part and their cents separately as integers:
 * exact, with no float on the way, and one grouped pass over the owner's deals.
 */
const SUMS = `
  sum(CAST(CASE WHEN instr(d.value, '.') > 0 THEN substr(d.value, 1, instr(d.value, '.') - 1) ELSE d.value END AS INTEGER)) AS whole,
  sum(CASE WHEN instr(d.value, '.') > 0 THEN CAST(substr(substr(d.value, instr(d.value, '.') + 1) || '0', 1, 2) AS INTEGER) ELSE 0 END) AS cents`;

/** What a list has that a summary has not: pages and an order. */
const NOT_TAKEN = ['page', 'per_page', 'count', 'sort_by'];

/**
 * Extension GET /v2/deals/summary: deals per stage with their totals, for the
 * pipeline at a glance on the Home screen and the deals list's total. It takes
 * the deals list's filters (`owner_id`, `stage_id`, `tag`, `smart_list_id`…),
 * read by the list's own selection, so a total always adds up what the list
 * shows across all its pages.
 */
export class DealSummary {
  /** `list`: the deals' list definition (Deals.listFor), whose filters the summary takes. */
  constructor(private readonly ctx: EngineContext, private readonly list: () => ListDefinition) {}

  json(query: RawQuery, actor?: Actor): string {
    const paging = Object.keys(query).find((name) => NOT_TAKEN.includes(name));
    if (paging !== undefined) throw invalidParam(paging, 'a summary has no pages or order');
    const { from, whereSql, params } = selection(this.list(), query, { statements: this.ctx.statements, viewerId: actor?.userId }, true);
    const sql = `SELECT d.stage_id, d.currency, count(*) AS count, ${SUMS} FROM ${from}${whereSql} GROUP BY d.stage_id, d.currency ORDER BY d.stage_id, d.currency`;
    const rows = this.ctx.statements.get(sql).safeIntegers(true).all(...params) as Row[];
    const summary: Summary = { stages: byStage(rows) };
    return JSON.stringify(summary);
  }
}

function byStage(rows: Row[]): StageTotal[] {
  const stages = new Map<number, StageTotal>();
  for (const row of rows) {
    const id = Number(row.stage_id);
    const stage = stages.get(id) ?? { stage_id: id, count: 0, totals: [] };
    stage.count += Number(row.count);
    stage.totals.push({ currency: row.currency, value: decimalText(BigInt(row.whole) * 100n + BigInt(row.cents)) });
    stages.set(id, stage);
  }
  return [...stages.values()];
}

/** 120050 cents → "1200.5", as decimal.ts normalizes values (no trailing zeros, "0" for none). */
function decimalText(cents: bigint): string {
  const whole = cents / 100n;
  const fraction = (cents % 100n).toString().padStart(2, '0').replace(/0+$/, '');
  return fraction ? `${whole}.${fraction}` : String(whole);
}
