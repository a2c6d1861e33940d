import { useEffect, useRef, useState } from 'react';
import { api } from '../../api/client.js';
import { changedFields } from '../../api/changedFields.js';
import { DataTable } from '../../lists/DataTable.js';
import { ConfirmDelete } from '../../shell/ConfirmDelete.js';
import { NameEditor } from './NameEditor.js';
import { CATEGORY_LABELS, StageForm, type StageDraft } from './StageForm.js';
import { inWordsOnFailure } from './useAdminList.js';
import { refusalText } from '../../api/formErrors.js';
import type { Pipeline, Stage } from '../../../shared/resources/deal.js';

interface Props {
  pipeline: Pipeline;
  /** The pipeline's stages, by position. */
  stages: Stage[];
  counts: Map<number, number>;
  canEdit: boolean;
  onChanged(): void;
}

type Direction = 'up' | 'down';

/** One pipeline: its name, and its stages in order with what admins do to each. */
export function PipelineCard({ pipeline, stages, counts, canEdit, onChanged }: Props) {
  const [renaming, setRenaming] = useState(false);
  const [editing, setEditing] = useState<Stage | null>(null);
  const [moveError, setMoveError] = useState<string | null>(null);
  const refocus = useRefocusAfterMove(stages);
  const last = stages.length;

  const move = async (stage: Stage, direction: Direction) => {
    try {
      await api.update(`/v2/stages/${stage.id}`, { position: stage.position + (direction === 'up' ? -1 : 1) });
      setMoveError(null);
      refocus.after(stage.id, direction);
      onChanged();
    } catch (err) {
      setMoveError(refusalText(err, `${stage.name} could not be moved.`));
    }
  };
  const addStage = async (draft: StageDraft) => {
    await api.create('/v2/stages', { ...withoutEmpty(draft), pipeline_id: pipeline.id });
    onChanged();
  };
  /** Sends only the stage's fields the admin changed, so a change made meanwhile elsewhere (another field, its position) stays. */
  const saveStage = async (stage: Stage, draft: StageDraft) => {
    const changes = changedFields({ name: stage.name, category: stage.category, likelihood: stage.likelihood }, draft);
    if (Object.keys(changes).length > 0) await api.update(`/v2/stages/${stage.id}`, changes);
    setEditing(null);
    onChanged();
  };

  return (
    <section className="card admin-card pipeline-card" aria-label={`Pipeline ${pipeline.name}`}>
      <div className="admin-card-header">
        {renaming
          ? <NameEditor label="Pipeline name" what={`pipeline ${pipeline.name}`} value={pipeline.name} onDone={() => setRenaming(false)}
            onSave={async (name) => {
              await api.update(`/v2/pipelines/${pipeline.id}`, { name });
              onChanged();
            }} />
          : <h2>{pipeline.name}{pipeline.disabled && <span className="muted"> (disabled)</span>}</h2>}
        {canEdit && !renaming && (
          <div className="row-actions">
            <button type="button" aria-label={`Rename pipeline ${pipeline.name}`} onClick={() => setRenaming(true)}>Rename</button>
            <ConfirmDelete name={`pipeline ${pipeline.name}`} question={`Delete ${pipeline.name} and its stages? A pipeline whose stages hold deals can't be deleted.`}
              onConfirm={() => inWordsOnFailure(async () => {
                await api.remove(`/v2/pipelines/${pipeline.id}`);
                onChanged();
              }, `${pipeline.name} could not be deleted.`)} />
          </div>
        )}
      </div>
      {stages.length === 0 && <p className="muted">No stages yet: deals can't be put in this pipeline until it has one.</p>}
      {stages.length > 0 && (
        <DataTable label={`Stages of ${pipeline.name}`} framed={false} className="admin-table stage-table" rows={stages} rowKey={(s) => s.id} rowLabel={(s) => s.name} columns={[
          { label: 'Order', kind: 'muted', cell: (s) => s.position },
          // On a phone the Order column is hidden and the number leads the stage's card instead.
          { label: 'Stage', kind: 'title', cell: (s) => <><span className="stage-number">{s.position}. </span>{s.name}</> },
          { label: 'Category', cell: (s) => CATEGORY_LABELS[s.category] },
          { label: 'Win likelihood', kind: 'number', cell: (s) => `${s.likelihood} %` },
          { label: 'Deals', kind: 'number', cell: (s) => counts.get(s.id) ?? '—' },
          canEdit && {
            label: 'Actions', kind: 'actions', cell: (s) => (
              <div className="row-actions">
                <button type="button" data-move={`${s.id}-up`} aria-label={`Move ${s.name} up`} title="Move up" disabled={s.position <= 1} onClick={() => void move(s, 'up')}>↑</button>
                <button type="button" data-move={`${s.id}-down`} aria-label={`Move ${s.name} down`} title="Move down" disabled={s.position >= last} onClick={() => void move(s, 'down')}>↓</button>
                <button type="button" aria-label={`Edit stage ${s.name}`} onClick={() => setEditing(s)}>Edit</button>
                <ConfirmDelete name={`stage ${s.name}`} question={`Delete ${s.name}?${counts.get(s.id) ? ' Move its deals to another stage first.' : ''}`}
                  onConfirm={() => inWordsOnFailure(async () => {
                    await api.remove(`/v2/stages/${s.id}`);
                    onChanged();
                  }, `${s.name} could not be deleted.`)} />
              </div>
            ),
          },
        ]} />
      )}
      {moveError && <p className="form-error" role="alert">{moveError}</p>}
      {canEdit && editing && (
        <div className="admin-subform">
          <h3>Edit stage {editing.name}</h3>
          <StageForm key={editing.id} stage={editing} title={`Edit stage ${editing.name}`} onSave={(draft) => saveStage(editing, draft)} onCancel={() => setEditing(null)} />
        </div>
      )}
      {canEdit && (
        <details className="admin-subform">
          <summary>Add a stage</summary>
          <StageForm title={`Add a stage to ${pipeline.name}`} onSave={addStage} />
        </details>
      )}
    </section>
  );
}

/** A new stage's fields without an empty likelihood, which the API then sets from the category. */
function withoutEmpty(draft: StageDraft): Partial<StageDraft> {
  return draft.likelihood === null ? { name: draft.name, category: draft.category } : draft;
}

/**
 * Keeps the keyboard on the moved stage: once the stages come back in
 * their new order, the same arrow button gets the focus again (or the
 * other one when the stage reached the top or bottom and its button is
 * disabled).
 */
function useRefocusAfterMove(stages: Stage[]) {
  const pending = useRef<{ id: number; direction: Direction } | null>(null);
  const order = stages.map((s) => s.id).join(',');
  useEffect(() => {
    const moved = pending.current;
    if (!moved) return;
    pending.current = null;
    const button = (direction: Direction) => document.querySelector<HTMLButtonElement>(`[data-move="${moved.id}-${direction}"]`);
    const same = button(moved.direction);
    (same && !same.disabled ? same : button(moved.direction === 'up' ? 'down' : 'up'))?.focus();
  }, [order]);
  return { after: (id: number, direction: Direction) => (pending.current = { id, direction }) };
}
