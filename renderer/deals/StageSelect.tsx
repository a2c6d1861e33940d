import type { Pipelines } from './usePipelines.js';

interface Props extends Pipelines {
  label: string;
  value: number | null;
  onChange(stageId: number): void;
  disabled?: boolean;
  /** Hides the label visually (on a board card), keeping it as the control's accessible name. */
  compact?: boolean;
}

/** Picks a stage, grouped by pipeline: the keyboard way to move a deal, and the stage of a new one. */
export function StageSelect({ label, value, onChange, pipelines, stages, disabled, compact }: Props) {
  const control = (
    <select value={value ?? ''} disabled={disabled} aria-label={compact ? label : undefined} onChange={(e) => onChange(Number(e.target.value))}>
      {value === null && <option value="">Choose a stage…</option>}
      {pipelines.map((pipeline) => (
        <optgroup key={pipeline.id} label={pipeline.name}>
          {stages.filter((s) => s.pipeline_id === pipeline.id).map((s) => <option key={s.id} value={s.id}>{s.name}</option>)}
        </optgroup>
      ))}
    </select>
  );
  return compact ? control : <label>{label}{control}</label>;
}
