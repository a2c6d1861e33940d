import type { EngineContext } from '../context.js';
import { hundredthsSql } from './money.js';
import type { DayRange } from './params.js';
import { ownerClause } from './report.js';

export interface ClosedFilter {
  range: DayRange;
  ownerId: number | null;
  pipelineId: number | null;
}

/**
 * Deals that entered a stage of `categories` within the range (by
 * last_stage_change_at, in the account's zone), grouped by `groupBy` (SQL
 * over `d` deals and `s` stages) and currency, with their count and value
 * in hundredths. The bounds are UTC text, as the times are stored, so the
 * range needs no date function per row; only the grouping does.
 */
export function closedDealSums<Row>(ctx: EngineContext, categories: readonly string[], groupBy: string[], filter: ClosedFilter): Row[] {
  const owner = ownerClause('d.owner_id', filter.ownerId);
  const pipeline = filter.pipelineId === null ? { sql: '', params: [] } : { sql: ' AND s.pipeline_id = ?', params: [filter.pipelineId] };
  const keys = groupBy.map((expression, i) => `${expression} AS k${i}`).join(', ');
  const sql = `SELECT ${keys}, d.currency, count(*) AS deals, sum(${hundredthsSql('d.value')}) AS hundredths
    FROM stages s JOIN deals d ON d.stage_id = s.id
    WHERE s.category IN (${categories.map(() => '?').join(', ')})
      AND d.last_stage_change_at >= ? AND d.last_stage_change_at < ?${owner.sql}${pipeline.sql}
    GROUP BY ${groupBy.map((_, i) => `k${i}`).join(', ')}, d.currency`;
  return ctx.statements.get(sql).safeIntegers(true)
    .all(...categories, filter.range.startUtc, filter.range.endUtcExclusive, ...owner.params, ...pipeline.params) as Row[];
}
