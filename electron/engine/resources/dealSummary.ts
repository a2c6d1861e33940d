import type { EngineContext } from '../context.js';
import { recordIdParam, single, type RawQuery } from './params.js';
import { invalidParam } from '../problems.js';
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

/** Extension GET /v2/deals/summary: deals per stage with their totals, for the pipeline at a glance on the Home screen. */
export class DealSummary {
  constructor(private readonly ctx: EngineContext) {}

  json(query: RawQuery): string {
    const unknown = Object.keys(query).find((name) => name !== 'owner_id');
    if (unknown !== undefined) throw invalidParam(unknown, 'unknown parameter');
    const owner = single(query, 'owner_id');
    const where = owner === undefined ? '' : 'WHERE d.owner_id = ?';
    const sql = `SELECT d.stage_id, d.currency, count(*) AS count, ${SUMS} FROM deals d ${where} GROUP BY d.stage_id, d.currency ORDER BY d.stage_id, d.currency`;
    const rows = this.ctx.statements.get(sql).safeIntegers(true).all(...(owner === undefined ? [] : [recordIdParam('owner_id', owner)])) as Row[];
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
