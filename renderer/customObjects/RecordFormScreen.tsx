import { useEffect, useState } from 'react';
import { objectPath, supportApi } from '../api/supportClient.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { Link } from '../router/Link.js';
import { useRouter } from '../router/routerStore.js';
import { ConfirmDelete } from '../shell/ConfirmDelete.js';
import { useCustomObject, useCustomObjects } from './customObjectsStore.js';
import { FieldInput } from './FieldInput.js';
import { refusalText } from '../api/formErrors.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { recordsPath } from './paths.js';
import { recordDraftOf, recordPayloadOf, type RecordDraft } from './recordDraft.js';
import { editableFields, type CustomObject, type CustomObjectField, type CustomObjectRecord } from './types.js';
import { useObjectFields } from './useObjectFields.js';

/**
 * Create a record of an object (`id` null) or edit one: loads the object's
 * field definitions (and the record), then shows a form generated from them.
 */
export function RecordFormScreen({ objectKey, id }: { objectKey: string; id: string | null }) {
  const object = useCustomObject(objectKey);
  const objectsError = useCustomObjects((s) => s.error);
  const { fields, error: fieldsError } = useObjectFields(objectKey);
  const [record, setRecord] = useState<CustomObjectRecord | null>(null);
  const [recordError, setRecordError] = useState<string | null>(null);

  useEffect(() => {
    if (id === null) return;
    let live = true;
    supportApi.get<{ custom_object_record: CustomObjectRecord }>(objectPath(objectKey, 'records', id)).then(
      (answer) => live && setRecord(answer.custom_object_record),
      (err) => live && setRecordError(refusalText(err, 'The record could not be loaded.')),
    );
    return () => {
      live = false;
    };
  }, [objectKey, id]);

  const error = objectsError ?? fieldsError ?? recordError;
  if (error || !object || !fields || (id !== null && !record)) {
    return (
      <section className="screen record-form-screen">
        <p className="breadcrumbs"><Link to={recordsPath(objectKey)}>{object?.title_pluralized ?? objectKey}</Link></p>
        {error ? <p className="form-error" role="alert">{error}</p> : <p className="muted">Loading…</p>}
      </section>
    );
  }
  return <RecordForm key={record?.id ?? 'new'} object={object} fields={fields} record={record} />;
}

/** `custom_object_fields.color` (or `custom_object_fields[color]`, or a bare field key) is the form's `field:color`. */
function formFieldOf(fieldKeys: readonly string[]) {
  return (name: string): string => {
    const nested = /^custom_object_fields(?:\.|\[)([^\]]+)\]?$/.exec(name);
    if (nested) return `field:${nested[1]}`;
    if (name === 'name' || name === 'external_id') return name;
    return fieldKeys.includes(name) ? `field:${name}` : name;
  };
}

interface FormProps {
  object: CustomObject;
  fields: CustomObjectField[];
  record: CustomObjectRecord | null;
}

/**
 * The record form: the name, the external id, and an input per active field
 * of the object by its type. The interface's refusals show by their fields;
 * a PATCH sends only what changed. Saving returns to the list.
 */
function RecordForm({ object, fields, record }: FormProps) {
  const navigate = useRouter((s) => s.navigate);
  const shown = editableFields(fields);
  const standardTitle = (key: string, fallback: string) => fields.find((f) => f.key === key)?.title ?? fallback;
  const [initial] = useState<RecordDraft>(() => recordDraftOf(shown, record));
  const [draft, setDraft] = useState<RecordDraft>(initial);
  const title = record ? `Edit ${record.name}` : `New ${object.title}`;
  const keys = shown.map((f) => f.key);
  const labels = { name: standardTitle('standard::name', 'Name'), external_id: standardTitle('standard::external_id', 'External ID'), ...Object.fromEntries(shown.map((f) => [`field:${f.key}`, f.title])) };

  const { saving, errors, submit } = useFormSubmit({ labels, failure: 'The record could not be saved.', fieldOf: formFieldOf(keys) }, async () => {
    const body = recordPayloadOf(shown, initial, draft);
    if (record) await supportApi.patch(objectPath(object.key, 'records', record.id), body);
    else await supportApi.post(objectPath(object.key, 'records'), body);
    navigate(recordsPath(object.key));
  });

  const remove = async () => {
    if (!record) return;
    await supportApi.remove(objectPath(object.key, 'records', record.id));
    navigate(recordsPath(object.key));
  };

  return (
    <section className="screen record-form-screen">
      <header className="screen-header">
        <div>
          <p className="breadcrumbs"><Link to={recordsPath(object.key)}>{object.title_pluralized}</Link></p>
          <h1>{title}</h1>
        </div>
        {record && <ConfirmDelete name={record.name} question={`Delete ${record.name}? Lookups pointing at it are cleared.`} onConfirm={remove} />}
      </header>
      <form className="card record-form" aria-label={title} onSubmit={submit} noValidate>
        <div className="grid">
          <FormField label={`${standardTitle('standard::name', 'Name')} *`} error={errors.name}>
            <input type="text" value={draft.name} aria-invalid={Boolean(errors.name)} onChange={(e) => setDraft({ ...draft, name: e.target.value })} />
          </FormField>
          <FormField label={standardTitle('standard::external_id', 'External ID')} error={errors.external_id}>
            <input type="text" value={draft.external_id} aria-invalid={Boolean(errors.external_id)} spellCheck={false}
              onChange={(e) => setDraft({ ...draft, external_id: e.target.value })} />
          </FormField>
          {shown.map((field) => (
            <FieldInput key={field.key} field={field} value={draft.values[field.key]} error={errors[`field:${field.key}`]}
              onChange={(value) => setDraft({ ...draft, values: { ...draft.values, [field.key]: value } })} />
          ))}
        </div>
        {shown.length === 0 && <p className="muted">{object.title} has no fields of its own yet: an administrator adds them in Settings → Custom objects.</p>}
        <FormMessage error={errors._} />
        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : `Save ${object.title.toLowerCase()}`}</button>
          <button type="button" onClick={() => navigate(recordsPath(object.key))}>Cancel</button>
        </div>
      </form>
    </section>
  );
}
