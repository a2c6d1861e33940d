import { useState } from 'react';
import { api } from '../../api/client.js';
import { AddByName } from './AddByName.js';
import { AdminScreen, useIsAdmin } from './AdminScreen.js';
import { PipelineCard } from './PipelineCard.js';
import { useAdminList } from './useAdminList.js';
import { useDealCounts } from './useDealCounts.js';
import type { Pipeline, Stage } from '../../../shared/resources/deal.js';

/**
 * Settings → Pipelines and stages. Every change reads both lists again:
 * moving one stage renumbers the others on the hub, and the deals board
 * loads them fresh each time it opens, so it shows the new order.
 */
export function PipelinesScreen() {
  const canEdit = useIsAdmin();
  const pipelines = useAdminList<Pipeline>('/v2/pipelines');
  const stages = useAdminList<Stage>('/v2/stages');
  const [version, setVersion] = useState(0);
  const counts = useDealCounts((stages.rows ?? []).map((s) => s.id), version);
  const reload = () => {
    pipelines.reload();
    stages.reload();
    setVersion((v) => v + 1);
  };
  const error = pipelines.error ?? stages.error;

  return (
    <AdminScreen title="Pipelines and stages" intro="The stages deals go through, in order, and how likely a deal in each is to be won.">
      {error && <p className="form-error" role="alert">{error}</p>}
      {(pipelines.rows === null || stages.rows === null) && !error && <p className="muted">Loading…</p>}
      {pipelines.rows?.map((pipeline) => (
        <PipelineCard key={pipeline.id} pipeline={pipeline} stages={(stages.rows ?? []).filter((s) => s.pipeline_id === pipeline.id)}
          counts={counts} canEdit={canEdit} onChanged={reload} />
      ))}
      {canEdit && (
        <section className="card admin-card" aria-label="New pipeline">
          <AddByName label="New pipeline" button="Add pipeline" onAdd={async (name) => {
            await api.create('/v2/pipelines', { name });
            reload();
          }} />
        </section>
      )}
    </AdminScreen>
  );
}
