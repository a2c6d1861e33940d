import { useState } from 'react';
import { Link } from '../router/Link.js';
import { PipelineBoard } from './PipelineBoard.js';
import { usePipelines } from './usePipelines.js';
import { CsvExportButton } from '../importExport/ExportButton.js';
import { DealsViewSwitch } from './DealsViewSwitch.js';

/** The deals as a pipeline board: one column per stage of the pipeline chosen. */
export function DealsScreen() {
  const pipelines = usePipelines();
  const [chosen, setChosen] = useState<number | null>(null);
  // Until someone picks one, the board shows the first pipeline still in use.
  const pipelineId = chosen ?? (pipelines.pipelines.find((p) => !p.disabled) ?? pipelines.pipelines[0])?.id ?? null;
  const firstStage = pipelines.stages.find((s) => s.pipeline_id === pipelineId);

  return (
    <section className="screen deals-screen">
      <header className="screen-header">
        <h1>Deals</h1>
        <div className="actions">
          <DealsViewSwitch current="board" />
          <select aria-label="Pipeline" value={pipelineId ?? ''} onChange={(e) => setChosen(Number(e.target.value))}>
            {pipelines.pipelines.map((p) => <option key={p.id} value={p.id}>{p.name}{p.disabled ? ' (disabled)' : ''}</option>)}
          </select>
          {pipelineId !== null && <CsvExportButton resource="deals" query={{ pipeline_id: pipelineId, sort_by: 'stage_id' }} what="deals of this pipeline" />}
          <Link to={firstStage ? `/deals/new?stage_id=${firstStage.id}` : '/deals/new'} className="button primary">New deal</Link>
        </div>
      </header>
      {!pipelines.loaded ? <p className="muted">Loading…</p>
        : pipelineId === null ? <p className="muted">There is no pipeline to show.</p>
          : <PipelineBoard pipelineId={pipelineId} pipelines={pipelines} />}
    </section>
  );
}
