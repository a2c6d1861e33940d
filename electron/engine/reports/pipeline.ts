import type { EngineContext } from '../context.js';
import type { PipelineReportRow } from '../../../shared/resources/report.js';
import { CurrencySums, currenciesOf, hundredthsSql, roundPercentSum } from './money.js';
import { ownerOf, pipelineOf } from './params.js';
import { ownerClause, valueColumns, type Report } from './report.js';
import { winLikelihood } from '../../../shared/resources/winLikelihood.js';
import type { Stage } from '../../../shared/resources/deal.js';

interface StageRow { id: number; name: string; position: number; category: Stage['category']; likelihood: number }
interface SumRow { stage_id: bigint; currency: string; likelihood: bigint | null; deals: bigint; hundredths: bigint }

const CATEGORY_LABELS: Record<string, string> = { incoming: 'Incoming', in_progress: 'In progress', won: 'Won', lost: 'Lost', unqualified: 'Unqualified' };

/**
 * Deals per stage of one pipeline: count, value per currency, and the
 * forecast (value × the deal's own win likelihood, else its stage's; a won
 * stage's at 100 %).
 * Grouped by stage, currency and likelihood in SQL, so the weighting is a
 * handful of BigInt products instead of one per deal.
 */
export const pipelineReport: Report<PipelineReportRow> = {
  params: ['pipeline_id', 'owner_id'],

  rows(ctx, query, actor) {
    const ownerId = ownerOf(ctx, query, actor);
    const pipelineId = pipelineOf(ctx, query, true);
    if (pipelineId === null) return [];
    const stages = ctx.statements.get('SELECT id, name, position, category, likelihood FROM stages WHERE pipeline_id = ? ORDER BY position, id')
      .all(pipelineId) as StageRow[];
    const sums = stageSums(ctx, stages, ownerId);
    return stages.map((stage) => {
      const own = sums.get(stage.id);
      return {
        stage_id: stage.id, stage_name: stage.name, position: stage.position, category: stage.category, likelihood: winLikelihood(stage.category, stage.likelihood),
        deals_count: own?.count ?? 0, values: own?.values.json() ?? {}, weighted_values: own ? weighted(own.weighted) : {},
      };
    });
  },

  csv(rows) {
    const currencies = currenciesOf(rows.map((r) => r.values));
    const records = rows.map((r) => ({
      Stage: r.stage_name, Category: CATEGORY_LABELS[r.category] ?? r.category, 'Likelihood (%)': r.likelihood, Deals: r.deals_count,
      ...valueColumns('Value', r.values, currencies), ...valueColumns('Weighted value', r.weighted_values, currencies),
    }));
    return { records, columns: ['Stage', 'Category', 'Likelihood (%)', 'Deals'] };
  },
};

interface StageSums { count: number; values: CurrencySums; weighted: Map<string, bigint> }

/**
 * Grouped in the order of the deals_report index (stage, currency, the deal's
 * own likelihood), so SQLite reads it once, in order, with no sort; a deal
 * without its own likelihood takes its stage's, applied here.
 */
function stageSums(ctx: EngineContext, stages: StageRow[], ownerId: number | null): Map<number, StageSums> {
  const owner = ownerClause('d.owner_id', ownerId);
  const sql = `SELECT d.stage_id, d.currency, d.customized_win_likelihood AS likelihood, count(*) AS deals, sum(${hundredthsSql('d.value')}) AS hundredths
    FROM deals d WHERE d.stage_id IN (SELECT CAST(value AS INTEGER) FROM json_each(?))${owner.sql}
    GROUP BY d.stage_id, d.currency, d.customized_win_likelihood`;
  const rows = ctx.statements.get(sql).safeIntegers(true).all(JSON.stringify(stages.map((s) => s.id)), ...owner.params) as SumRow[];
  const stageById = new Map(stages.map((s) => [s.id, s]));
  const byStage = new Map<number, StageSums>();
  for (const row of rows) {
    const id = Number(row.stage_id);
    const stage = stageById.get(id)!;
    const likelihood = winLikelihood(stage.category, stage.likelihood, row.likelihood === null ? null : Number(row.likelihood));
    const sums = byStage.get(id) ?? { count: 0, values: new CurrencySums(), weighted: new Map<string, bigint>() };
    sums.count += Number(row.deals);
    sums.values.add(row.currency, row.hundredths);
    sums.weighted.set(row.currency, (sums.weighted.get(row.currency) ?? 0n) + row.hundredths * BigInt(likelihood));
    byStage.set(id, sums);
  }
  return byStage;
}

function weighted(exact: Map<string, bigint>): Record<string, string> {
  const sums = new CurrencySums();
  for (const [currency, value] of exact) sums.add(currency, roundPercentSum(value));
  return sums.json();
}
