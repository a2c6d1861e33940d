import type { Pipeline, Stage } from '../../shared/resources/deal.js';
import type { StageTotal } from '../../shared/resources/dealSummary.js';
import { convertTotal, sumByCurrency, type ConvertedTotal, type RateTable } from '../../shared/money.js';

type CurrencyTotal = { currency: string; value: string };

export interface StageRow {
  stage: Stage;
  count: number;
  /** The hub's sums per currency. */
  totals: CurrencyTotal[];
  /** Those sums converted into the account's currency, with the originals. */
  converted: ConvertedTotal;
}

export interface PipelineRows {
  pipeline: Pipeline;
  stages: StageRow[];
  count: number;
  totals: CurrencyTotal[];
  converted: ConvertedTotal;
}

/** Stages whose deals are still being worked. */
const OPEN = new Set<Stage['category']>(['incoming', 'in_progress']);

const convert = (totals: CurrencyTotal[], into: string, rates: RateTable) =>
  convertTotal(totals.map((t) => ({ currency: t.currency, amount: t.value })), into, rates);

/**
 * The user's open deals per pipeline and stage, in the board's order, each
 * total converted into `into` (the account's currency) with `rates`;
 * pipelines and stages without any deal are left out.
 */
export function pipelineRows(pipelines: Pipeline[], stages: Stage[], totals: StageTotal[], into: string, rates: RateTable): PipelineRows[] {
  const byStage = new Map(totals.map((t) => [t.stage_id, t]));
  return pipelines.flatMap((pipeline) => {
    const rows = stages
      .filter((s) => s.pipeline_id === pipeline.id && OPEN.has(s.category) && byStage.has(s.id))
      .map((stage) => {
        const { count, totals: sums } = byStage.get(stage.id)!;
        return { stage, count, totals: sums, converted: convert(sums, into, rates) };
      });
    if (rows.length === 0) return [];
    const sums = sumByCurrency(rows.flatMap((r) => r.totals.map((t) => ({ currency: t.currency, amount: t.value }))))
      .map(({ currency, amount }) => ({ currency, value: amount }));
    return [{ pipeline, stages: rows, count: rows.reduce((n, r) => n + r.count, 0), totals: sums, converted: convert(sums, into, rates) }];
  });
}
