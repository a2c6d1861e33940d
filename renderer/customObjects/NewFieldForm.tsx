import { useState } from 'react';
import { objectPath, supportApi } from '../api/supportClient.js';
import { FormField } from '../leads/FormField.js';
import { useCustomObjects } from './customObjectsStore.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { OptionsEditor, optionsPayload, type OptionDraft } from './OptionsEditor.js';
import { CRM_TARGETS, FIELD_TYPE_LABELS, FIELD_TYPES, OPTION_TYPES, objectTarget, type CustomObjectField, type FieldType } from './types.js';

interface Draft {
  key: string;
  title: string;
  type: FieldType;
  description: string;
  options: OptionDraft[];
  target: string;
  pattern: string;
}

const EMPTY: Draft = { key: '', title: '', type: 'text', description: '', options: [{ name: '', value: '' }], target: '', pattern: '' };
const FORM_LABELS = {
  key: 'Field key', title: 'Field title', type: 'Type', description: 'Field description', custom_field_options: 'Choices',
  relationship_target_type: 'Links to', regexp_for_validation: 'Pattern',
};

/** `custom_field_options.0.value` and the like are the choices editor's. */
const fieldOf = (name: string) => (name.startsWith('custom_field_options') ? 'custom_field_options' : name);

/** Only what the chosen type uses is sent: choices, a lookup's target, a pattern. */
function payloadOf(draft: Draft): Record<string, unknown> {
  const field: Record<string, unknown> = {
    key: draft.key.trim(), title: draft.title.trim(), type: draft.type, description: draft.description.trim() || null,
  };
  if (OPTION_TYPES.includes(draft.type)) field.custom_field_options = optionsPayload(draft.options);
  if (draft.type === 'lookup') field.relationship_target_type = draft.target || null;
  if (draft.type === 'regexp') field.regexp_for_validation = draft.pattern;
  return { custom_object_field: field };
}

/**
 * Add a field to an object (admins): its key and type are set here for
 * good; choices for drop-downs and multi-selects, the target for a lookup
 * (a contact, deal, lead, user or a record of any custom object), the
 * pattern for a pattern field. The interface's limits (fields per object,
 * lookups per plan) show below the form.
 */
export function NewFieldForm({ objectKey, onAdded }: { objectKey: string; onAdded(field: CustomObjectField): void }) {
  const objects = useCustomObjects((s) => s.objects) ?? [];
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const { saving, errors, submit } = useFormSubmit({ labels: FORM_LABELS, failure: 'The field could not be added.', fieldOf, stays: true }, async () => {
    const answer = await supportApi.post<{ custom_object_field: CustomObjectField }>(objectPath(objectKey, 'fields'), payloadOf(draft));
    setDraft(EMPTY);
    onAdded(answer.custom_object_field);
  });

  return (
    <form className="card field-form" aria-label="Add a field" onSubmit={submit} noValidate>
      <h3>Add a field</h3>
      <div className="grid">
        <FormField label="Field title *" error={errors.title}>
          <input type="text" value={draft.title} placeholder="e.g. Color" onChange={(e) => change({ title: e.target.value })} aria-invalid={Boolean(errors.title)} />
        </FormField>
        <FormField label="Field key *" error={errors.key}>
          <input type="text" value={draft.key} placeholder="e.g. color" autoComplete="off" spellCheck={false}
            onChange={(e) => change({ key: e.target.value })} aria-invalid={Boolean(errors.key)} />
        </FormField>
        <FormField label="Type *" error={errors.type}>
          <select value={draft.type} onChange={(e) => change({ type: e.target.value as FieldType })}>
            {FIELD_TYPES.map((t) => <option key={t} value={t}>{FIELD_TYPE_LABELS[t]}</option>)}
          </select>
        </FormField>
        {draft.type === 'lookup' && (
          <FormField label="Links to *" error={errors.relationship_target_type}>
            <select value={draft.target} onChange={(e) => change({ target: e.target.value })} aria-invalid={Boolean(errors.relationship_target_type)}>
              <option value="">Choose…</option>
              <optgroup label="CRM records">
                {CRM_TARGETS.map((t) => <option key={t.type} value={t.type}>{t.label}</option>)}
              </optgroup>
              {objects.length > 0 && (
                <optgroup label="Custom objects">
                  {objects.map((o) => <option key={o.key} value={objectTarget(o.key)}>{o.title}</option>)}
                </optgroup>
              )}
            </select>
          </FormField>
        )}
        {draft.type === 'regexp' && (
          <FormField label="Pattern *" error={errors.regexp_for_validation}>
            <input type="text" value={draft.pattern} placeholder="e.g. ^[A-Z]{2}-\d{4}$" spellCheck={false}
              onChange={(e) => change({ pattern: e.target.value })} aria-invalid={Boolean(errors.regexp_for_validation)} />
          </FormField>
        )}
      </div>
      <FormField label="Field description" error={errors.description}>
        <textarea rows={2} value={draft.description} onChange={(e) => change({ description: e.target.value })} />
      </FormField>
      {OPTION_TYPES.includes(draft.type) && <OptionsEditor options={draft.options} onChange={(options) => change({ options })} error={errors.custom_field_options} />}
      <p className="muted hint">The key names the field in the API and in records; it and the type cannot change later.</p>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Adding…' : 'Add field'}</button>
      </div>
    </form>
  );
}
