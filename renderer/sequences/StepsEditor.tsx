import type { NamedOption } from '../leads/useNamedOptions.js';
import { ACTION_TYPES, DELAY_UNITS, type ActionType, type DelayUnit, type SequenceStep } from '../../shared/resources/sequence.js';

/** One step as the form holds it: text while typed, the API judges it. */
export interface StepDraft {
  delay: string;
  unit: DelayUnit;
  action_type: ActionType;
  email_template_id: string;
  is_reply: boolean;
  task_content: string;
}

export const NEW_STEP: StepDraft = { delay: '0', unit: 'hours', action_type: 'automated_email', email_template_id: '', is_reply: false, task_content: '' };

const ACTION_LABELS: Record<ActionType, string> = { automated_email: 'Send an email', task: 'Create a task' };

export function stepDraftOf(step: SequenceStep): StepDraft {
  const props = step.action_properties;
  return {
    delay: String(step.delay_from_previous_step),
    unit: step.delay_from_previous_step_unit,
    action_type: step.action_type,
    email_template_id: 'email_template_id' in props ? String(props.email_template_id) : '',
    is_reply: 'is_reply' in props ? props.is_reply : false,
    task_content: 'task_content' in props ? props.task_content : '',
  };
}

/** A number when the text is one, else the text itself, so the API names what is wrong with it. */
const numberOrText = (text: string): number | string | null => (text.trim() === '' ? null : Number.isFinite(Number(text)) ? Number(text) : text);

/** The step as the API takes it: its position is its place in the list. */
export function stepPayloadOf(step: StepDraft, position: number): Record<string, unknown> {
  return {
    position,
    delay_from_previous_step: numberOrText(step.delay),
    delay_from_previous_step_unit: step.unit,
    action_type: step.action_type,
    action_properties: step.action_type === 'task'
      ? { task_content: step.task_content.trim() }
      : { email_template_id: numberOrText(step.email_template_id), is_reply: step.is_reply },
  };
}

interface Props {
  steps: StepDraft[];
  templates: NamedOption[];
  error?: string;
  onChange(steps: StepDraft[]): void;
}

/**
 * A sequence's steps in order, each with its delay from the previous step
 * and its action. Saving sends the whole list, which replaces the steps.
 */
export function StepsEditor({ steps, templates, error, onChange }: Props) {
  const setStep = (index: number, patch: Partial<StepDraft>) => onChange(steps.map((s, i) => (i === index ? { ...s, ...patch } : s)));
  const move = (index: number, by: -1 | 1) => {
    const moved = [...steps];
    [moved[index], moved[index + by]] = [moved[index + by], moved[index]];
    onChange(moved);
  };

  return (
    <fieldset className={`steps-editor${error ? ' invalid' : ''}`}>
      <legend>Steps</legend>
      {steps.length === 0 && <p className="muted">No steps yet.</p>}
      <ol className="plain-list">
        {steps.map((step, index) => {
          const name = `Step ${index + 1}`;
          return (
            <li key={index} className="step-row" aria-label={name}>
              <strong>{name}</strong>
              <div className="inline-form">
                <label>
                  Wait
                  <input type="number" min={0} aria-label={`${name} delay`} value={step.delay} onChange={(e) => setStep(index, { delay: e.target.value })} />
                </label>
                <label>
                  Unit
                  <select aria-label={`${name} delay unit`} value={step.unit} onChange={(e) => setStep(index, { unit: e.target.value as DelayUnit })}>
                    {DELAY_UNITS.map((u) => <option key={u} value={u}>{u === 'weekdays' ? 'weekdays (Mon–Fri)' : u}</option>)}
                  </select>
                </label>
                <label>
                  Then
                  <select aria-label={`${name} action`} value={step.action_type} onChange={(e) => setStep(index, { action_type: e.target.value as ActionType })}>
                    {ACTION_TYPES.map((a) => <option key={a} value={a}>{ACTION_LABELS[a]}</option>)}
                  </select>
                </label>
                {step.action_type === 'task' ? (
                  <label className="grow">
                    Task
                    <input type="text" aria-label={`${name} task content`} value={step.task_content} onChange={(e) => setStep(index, { task_content: e.target.value })} />
                  </label>
                ) : (
                  <>
                    <label className="grow">
                      Template
                      <select aria-label={`${name} email template`} value={step.email_template_id} onChange={(e) => setStep(index, { email_template_id: e.target.value })}>
                        <option value="">Choose a template</option>
                        {templates.map((t) => <option key={t.id} value={t.id}>{t.name}</option>)}
                      </select>
                    </label>
                    <label className="check">
                      <input type="checkbox" aria-label={`${name} is a reply`} checked={step.is_reply} onChange={(e) => setStep(index, { is_reply: e.target.checked })} />
                      As a reply
                    </label>
                  </>
                )}
              </div>
              <div className="row-actions">
                <button type="button" className="link" aria-label={`Move ${name} up`} disabled={index === 0} onClick={() => move(index, -1)}>Up</button>
                <button type="button" className="link" aria-label={`Move ${name} down`} disabled={index === steps.length - 1} onClick={() => move(index, 1)}>Down</button>
                <button type="button" className="link" aria-label={`Remove ${name}`} onClick={() => onChange(steps.filter((_, i) => i !== index))}>Remove</button>
              </div>
            </li>
          );
        })}
      </ol>
      <button type="button" onClick={() => onChange([...steps, NEW_STEP])}>Add step</button>
      {error && <span className="field-error" role="alert">{error}</span>}
    </fieldset>
  );
}
