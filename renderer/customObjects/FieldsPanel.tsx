import { useState } from 'react';
import { objectPath, supportApi } from '../api/supportClient.js';
import { FormField } from '../leads/FormField.js';
import { ConfirmDelete } from '../shell/ConfirmDelete.js';
import { useCustomObjects } from './customObjectsStore.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { NewFieldForm } from './NewFieldForm.js';
import { FIELD_TYPE_LABELS, targetLabel, type CustomObject, type CustomObjectField, type FieldType } from './types.js';
import { useObjectFields } from './useObjectFields.js';
import { DataTable } from '../lists/DataTable.js';

/**
 * An object's fields: the standard ones (name, external id) and its own,
 * by title (their keys are the API's business, not shown).
 * Admins add fields, change a field's title, description and whether it is
 * active, and delete fields (which drops their values from every record);
 * agents read the list.
 */
export function FieldsPanel({ object, canEdit }: { object: CustomObject; canEdit: boolean }) {
  const { fields, error, reload } = useObjectFields(object.key);
  const [editing, setEditing] = useState<CustomObjectField | null>(null);

  const remove = async (field: CustomObjectField) => {
    await supportApi.remove(objectPath(object.key, 'fields', field.key));
    if (editing?.id === field.id) setEditing(null);
    reload();
  };

  return (
    <section className="card fields-panel" aria-label="Fields">
      <h2>Fields</h2>
      {error && <p className="form-error" role="alert">{error}</p>}
      {fields === null && !error && <p className="muted">Loading…</p>}
      {fields !== null && (
        <DataTable label={`Fields of ${object.title}`} framed={false} className="fields-table" rows={fields} rowKey={(field) => field.id} rowLabel={(field) => field.title} columns={[
          { label: 'Title', kind: 'title', cell: (field) => <>{field.title}{field.description && <div className="muted">{field.description}</div>}</> },
          { label: 'Type', cell: (field) => FIELD_TYPE_LABELS[field.type as FieldType] ?? field.type },
          { label: 'Settings', cell: (field) => <FieldSettings field={field} /> },
          { label: 'Status', cell: (field) => (field.system ? <span className="badge">Standard</span> : field.active ? <span className="badge">Active</span> : <span className="muted">Inactive</span>) },
          canEdit && {
            label: 'Actions', kind: 'actions', cell: (field) => !field.system && (
              <div className="row-actions">
                <button type="button" aria-label={`Edit field ${field.title}`} onClick={() => setEditing(field)}>Edit</button>
                <ConfirmDelete name={`field ${field.title}`} question={`Delete ${field.title}? Its values go from every record.`} onConfirm={() => remove(field)} />
              </div>
            ),
          },
        ]} />
      )}
      {canEdit && editing && (
        <FieldEditForm key={editing.id} objectKey={object.key} field={editing} onCancel={() => setEditing(null)} onSaved={() => {
          setEditing(null);
          reload();
        }} />
      )}
      {canEdit && <NewFieldForm objectKey={object.key} onAdded={reload} />}
    </section>
  );
}

/** What a field's type adds: its choices, a lookup's target, a pattern. */
function FieldSettings({ field }: { field: CustomObjectField }) {
  const objects = useCustomObjects((s) => s.objects) ?? [];
  if (field.custom_field_options && field.custom_field_options.length > 0) {
    return <span title={field.custom_field_options.map((o) => `${o.name} (${o.value})`).join(', ')}>{field.custom_field_options.map((o) => o.name).join(', ')}</span>;
  }
  if (field.type === 'lookup') return <span>Links to {targetLabel(field.relationship_target_type, objects)}</span>;
  if (field.regexp_for_validation) return <code>{field.regexp_for_validation}</code>;
  return null;
}

interface EditDraft {
  title: string;
  description: string;
  active: boolean;
}

const EDIT_LABELS = { title: 'Field title', description: 'Field description', active: 'Active' };

/** Change a field's title, description and whether records show it; its key and type stay. */
function FieldEditForm({ objectKey, field, onSaved, onCancel }: { objectKey: string; field: CustomObjectField; onSaved(): void; onCancel(): void }) {
  const [draft, setDraft] = useState<EditDraft>({ title: field.raw_title ?? field.title, description: field.raw_description ?? '', active: field.active });
  const change = (patch: Partial<EditDraft>) => setDraft({ ...draft, ...patch });

  const { saving, errors, submit } = useFormSubmit({ labels: EDIT_LABELS, failure: 'The field could not be saved.' }, async () => {
    await supportApi.patch(objectPath(objectKey, 'fields', field.key), {
      custom_object_field: { title: draft.title.trim(), description: draft.description.trim() || null, active: draft.active },
    });
    onSaved();
  });

  return (
    <form className="field-form edit" aria-label={`Edit field ${field.title}`} onSubmit={submit} noValidate>
      <h3>Edit {field.title} <span className="muted">({FIELD_TYPE_LABELS[field.type as FieldType] ?? field.type})</span></h3>
      <div className="grid">
        <FormField label="Field title *" error={errors.title}>
          <input type="text" value={draft.title} onChange={(e) => change({ title: e.target.value })} aria-invalid={Boolean(errors.title)} />
        </FormField>
        <FormField label="Field description" error={errors.description}>
          <input type="text" value={draft.description} onChange={(e) => change({ description: e.target.value })} />
        </FormField>
      </div>
      <label className="check">
        <input type="checkbox" checked={draft.active} onChange={(e) => change({ active: e.target.checked })} />
        Active (shown in record forms and lists; values are kept either way)
      </label>
      {errors.active && <span className="field-error" role="alert">{errors.active}</span>}
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save field'}</button>
        <button type="button" onClick={onCancel}>Cancel</button>
      </div>
    </form>
  );
}
