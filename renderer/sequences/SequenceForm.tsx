import { FormActions, FormField } from '../leads/FormField.js';
import { useRecordForm } from '../leads/useRecordForm.js';
import { NEW_STEP, StepsEditor, stepDraftOf, stepPayloadOf, type StepDraft } from './StepsEditor.js';
import { useTemplateNames } from './useTemplateNames.js';
import { NoMailServerWarning } from './NoMailServerWarning.js';
import type { Sequence } from '../../shared/resources/sequence.js';

interface Draft {
  name: string;
  unsubscribeEnabled: boolean;
  locale: string;
  steps: StepDraft[];
}

const LABELS = { name: 'Name', unsubscribe_settings: 'Unsubscribe link language', steps: 'Steps' };

function draftOf(sequence: Sequence | null): Draft {
  return {
    name: sequence?.name ?? '',
    unsubscribeEnabled: sequence?.unsubscribe_settings.enabled ?? false,
    locale: sequence?.unsubscribe_settings.locale ?? 'en',
    steps: sequence ? sequence.steps.map(stepDraftOf) : [NEW_STEP],
  };
}

function payloadOf(draft: Draft): Record<string, unknown> {
  return {
    name: draft.name.trim(),
    unsubscribe_settings: { enabled: draft.unsubscribeEnabled, locale: draft.locale.trim() },
    steps: draft.steps.map(stepPayloadOf),
  };
}

/**
 * Create and edit a sequence (admins). Saved steps replace the sequence's
 * steps; enrollments already running keep the steps they started with.
 */
export function SequenceForm({ id }: { id: number | null }) {
  const { draft, setDraft, errors, saving, submit } = useRecordForm<Sequence, Draft>({ apiPath: '/v2/sequences', pagePath: '/sequences', noun: 'sequence', labels: LABELS, id, draftOf, payloadOf });
  const { templates } = useTemplateNames();

  if (!draft) return <section className="screen"><p className="muted">{errors._ ?? 'Loading…'}</p></section>;
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const title = id === null ? 'New sequence' : 'Edit sequence';
  return (
    <section className="screen">
      <form className="card sequence-form" onSubmit={submit} noValidate aria-label={title}>
        <h1>{title}</h1>
        {id !== null && <p className="muted">Enrollments already running keep the steps they started with.</p>}
        <div className="grid">
          <FormField label="Name" error={errors.name}>
            <input type="text" value={draft.name} onChange={(e) => change({ name: e.target.value })} aria-invalid={Boolean(errors.name)} />
          </FormField>
          <FormField label="Unsubscribe link language" error={errors.unsubscribe_settings}>
            <input type="text" value={draft.locale} onChange={(e) => change({ locale: e.target.value })} />
          </FormField>
        </div>
        <label className="check">
          <input type="checkbox" checked={draft.unsubscribeEnabled} onChange={(e) => change({ unsubscribeEnabled: e.target.checked })} />
          Add an unsubscribe link to emails
        </label>
        <NoMailServerWarning steps={draft.steps} />
        <StepsEditor steps={draft.steps} templates={templates} error={errors.steps} onChange={(steps) => change({ steps })} />
        <FormActions error={errors._} saving={saving} />
      </form>
    </section>
  );
}
