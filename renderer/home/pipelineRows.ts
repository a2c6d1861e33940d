import type { Pipeline, Stage } from '../../shared/resources/deal.js';
import type { StageTotal } from '../../shared/resources/dealSummary.js';
import { totalsByCurrency } from '../deals/money.js';

export interface StageRow {
  stage: Stage;
  count: number;
  totals: { currency: string; value: string }[];
}

export interface PipelineRows {
  pipeline: Pipeline;
  stages: StageRow[];
  count: number;
  totals: { currency: string; value: string }[];
}

/** Stages whose deals are still being worked. */
const OPEN = new Set<Stage['category']>(['incoming', 'in_progress']);

/** The user's open deals per pipeline and stage, in the board's order; pipelines and stages without any are left out. */
export function pipelineRows(pipelines: Pipeline[], stages: Stage[], totals: StageTotal[]): PipelineRows[] {
  const byStage = new Map(totals.map((t) => [t.stage_id, t]));
  return pipelines.flatMap((pipeline) => {
    const rows = stages
      .filter((s) => s.pipeline_id === pipeline.id && OPEN.has(s.category) && byStage.has(s.id))
      .map((stage) => ({ stage, count: byStage.get(stage.id)!.count, totals: byStage.get(stage.id)!.totals }));
    if (rows.length === 0) return [];
    const sums = totalsByCurrency(rows.flatMap((r) => r.totals)).map(({ currency, total }) => ({ currency, value: total }));
    return [{ pipeline, stages: rows, count: rows.reduce((n, r) => n + r.count, 0), totals: sums }];
  });
}
