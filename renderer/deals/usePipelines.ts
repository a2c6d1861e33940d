import { useMemo } from 'react';
import type { Pipeline, Stage } from '../../shared/resources/deal.js';
import { useNamedOptionsLoading } from '../leads/useNamedOptions.js';

export interface Pipelines {
  pipelines: Pipeline[];
  /** Every stage, in pipeline order and by position within each pipeline. */
  stages: Stage[];
  /** Both lists have arrived (until then a board would lay out too few columns). */
  loaded: boolean;
}

/** The pipelines and their stages, for the board and every stage picker. */
export function usePipelines(): Pipelines {
  const { options: pipelines, loaded: pipelinesLoaded } = useNamedOptionsLoading<Pipeline>('/v2/pipelines');
  const { options: stages, loaded: stagesLoaded } = useNamedOptionsLoading<Stage>('/v2/stages');
  const loaded = pipelinesLoaded && stagesLoaded;
  const sorted = useMemo(() => {
    const order = new Map(pipelines.map((p, i) => [p.id, i]));
    return [...stages].sort((a, b) => (order.get(a.pipeline_id) ?? 0) - (order.get(b.pipeline_id) ?? 0) || a.position - b.position);
  }, [pipelines, stages]);
  return useMemo(() => ({ pipelines, stages: sorted, loaded }), [pipelines, sorted, loaded]);
}
