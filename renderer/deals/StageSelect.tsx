import type { Pipelines } from './usePipelines.js';

interface Props extends Pipelines {
  label: string;
  value: number | null;
  onChange(stageId: number): void;
  disabled?: boolean;
}

/** Picks a stage, grouped by pipeline: a deal's stage on its page and in its form. */
export function StageSelect({ label, value, onChange, pipelines, stages, disabled }: Props) {
  return (
    <label>
      {label}
      <select value={value ?? ''} disabled={disabled} onChange={(e) => onChange(Number(e.target.value))}>
        {value === null && <option value="">Choose a stage…</option>}
        {pipelines.map((pipeline) => (
          <optgroup key={pipeline.id} label={pipeline.name}>
            {stages.filter((s) => s.pipeline_id === pipeline.id).map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
          </optgroup>
        ))}
      </select>
    </label>
  );
}
