import { useState } from 'react';
import { useFormSubmit } from '../../api/useFormSubmit.js';
import { FormField } from '../../leads/FormField.js';
import { STAGE_CATEGORIES, type Stage, type StageCategory } from '../../../shared/resources/deal.js';

/** A stage's category as people read it: what the stage means for its deals. */
export const CATEGORY_LABELS: Record<StageCategory, string> = {
  incoming: 'Incoming', in_progress: 'In progress', won: 'Won', lost: 'Lost', unqualified: 'Unqualified',
};

const LABELS = { name: 'Stage name', category: 'Category', likelihood: 'Win likelihood (%)' };

export interface StageDraft {
  name: string;
  category: StageCategory;
  likelihood: number | null;
}

interface Props {
  stage?: Stage;
  /** The form's accessible name ("Add a stage to Renewals", "Edit stage Quote"). */
  title: string;
  onSave(draft: StageDraft): Promise<void>;
  onCancel?(): void;
}

/**
 * A stage's name, category and win likelihood, for a new stage or one
 * being changed. An empty likelihood on a new stage leaves the API's
 * default (100 % for won stages, else 0).
 */
export function StageForm({ stage, title, onSave, onCancel }: Props) {
  const [name, setName] = useState(stage?.name ?? '');
  const [category, setCategory] = useState<StageCategory>(stage?.category ?? 'in_progress');
  const [likelihood, setLikelihood] = useState(stage ? String(stage.likelihood) : '');

  const { saving, errors, submit } = useFormSubmit({ labels: LABELS, failure: 'The stage could not be saved.', stays: true }, async () => {
    await onSave({ name: name.trim(), category, likelihood: likelihood.trim() === '' ? null : Number(likelihood) });
    if (!stage) {
      setName('');
      setLikelihood('');
    }
  });

  return (
    <form className="stage-form" aria-label={title} onSubmit={submit} noValidate>
      <div className="grid">
        <FormField label={LABELS.name} error={errors.name}>
          <input type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)} />
        </FormField>
        <FormField label={LABELS.category} error={errors.category}>
          <select value={category} onChange={(e) => setCategory(e.target.value as StageCategory)}>
            {STAGE_CATEGORIES.map((c) => <option key={c} value={c}>{CATEGORY_LABELS[c]}</option>)}
          </select>
        </FormField>
        <FormField label={LABELS.likelihood} error={errors.likelihood}>
          <input type="number" min={0} max={100} step={1} inputMode="numeric" value={likelihood} placeholder={stage ? undefined : 'Default'}
            onChange={(e) => setLikelihood(e.target.value)} aria-invalid={Boolean(errors.likelihood)} />
        </FormField>
      </div>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className={stage ? 'primary' : undefined} disabled={saving}>{saving ? 'Saving…' : stage ? 'Save stage' : 'Add stage'}</button>
        {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
      </div>
    </form>
  );
}
