import { useState } from 'react';
import { api } from '../../api/client.js';
import { useFormSubmit } from '../../api/useFormSubmit.js';
import { FormField } from '../../leads/FormField.js';
import { DataTable } from '../../lists/DataTable.js';
import { ConfirmDelete } from '../../shell/ConfirmDelete.js';
import { AdminScreen, useIsAdmin } from './AdminScreen.js';
import { NameEditor } from './NameEditor.js';
import { inWordsOnFailure, useAdminList } from './useAdminList.js';
import {
  CUSTOM_FIELD_RESOURCE_TYPES, CUSTOM_FIELD_TYPES, type CustomFieldDefinition, type CustomFieldResourceType, type CustomFieldType,
} from '../../../shared/resources/customField.js';

const TYPE_LABELS: Record<CustomFieldType, string> = {
  string: 'Single line text', number: 'Number', list: 'Dropdown', multi_select_list: 'Multi select',
};
const TAB_LABELS: Record<CustomFieldResourceType, { tab: string; records: string }> = {
  contact: { tab: 'Contacts', records: 'contact' }, lead: { tab: 'Leads', records: 'lead' }, deal: { tab: 'Deals', records: 'deal' },
};
const isListType = (type: CustomFieldType) => type === 'list' || type === 'multi_select_list';

/** Settings → Custom fields: the extra fields of contacts, leads and deals, a tab each. */
export function FieldsScreen() {
  const [type, setType] = useState<CustomFieldResourceType>('contact');
  return (
    <AdminScreen title="Custom fields" intro="Fields of your own on contacts, leads and deals, shown in their forms and pages.">
      <div className="tabs admin-tabs" role="tablist" aria-label="Records">
        {CUSTOM_FIELD_RESOURCE_TYPES.map((t) => (
          <button key={t} type="button" role="tab" id={`fields-tab-${t}`} aria-selected={type === t} aria-controls="fields-panel" onClick={() => setType(t)}>{TAB_LABELS[t].tab}</button>
        ))}
      </div>
      <FieldsPanel key={type} type={type} />
    </AdminScreen>
  );
}

function FieldsPanel({ type }: { type: CustomFieldResourceType }) {
  const canEdit = useIsAdmin();
  const path = `/v2/${type}/custom_fields`;
  const { rows, error, reload } = useAdminList<CustomFieldDefinition>(path);
  const [renaming, setRenaming] = useState<number | null>(null);
  const records = TAB_LABELS[type].records;

  return (
    <section className="card admin-card" id="fields-panel" role="tabpanel" aria-labelledby={`fields-tab-${type}`}>
      {error && <p className="form-error" role="alert">{error}</p>}
      {rows === null && !error && <p className="muted">Loading…</p>}
      {rows?.length === 0 && <p className="muted">No custom fields on {records}s yet.</p>}
      {rows !== null && rows.length > 0 && (
        <DataTable label={`Custom fields of ${records}s`} framed={false} className="admin-table" rows={rows} rowKey={(f) => f.id} rowLabel={(f) => f.name} columns={[
          {
            label: 'Name', kind: 'title', cell: (field) => renaming === field.id
              ? <NameEditor label="Field name" what={`field ${field.name}`} value={field.name} onDone={() => setRenaming(null)}
                onSave={async (name) => {
                  await api.update(`${path}/${field.id}`, { name });
                  reload();
                }} />
              : field.name,
          },
          { label: 'Type', cell: (field) => TYPE_LABELS[field.type] },
          { label: 'Choices', cell: (field) => field.choices?.map((c) => c.name).join(', ') ?? <span className="muted">—</span> },
          canEdit && {
            label: 'Actions', kind: 'actions', cell: (field) => renaming !== field.id && (
              <div className="row-actions">
                <button type="button" aria-label={`Rename field ${field.name}`} onClick={() => setRenaming(field.id)}>Rename</button>
                <ConfirmDelete name={`field ${field.name}`} question={`Delete ${field.name}? Its values go from every ${records}.`}
                  onConfirm={() => inWordsOnFailure(async () => {
                    await api.remove(`${path}/${field.id}`);
                    reload();
                  }, `${field.name} could not be deleted.`)} />
              </div>
            ),
          },
        ]} />
      )}
      {canEdit && <NewFieldForm path={path} records={records} onAdded={reload} />}
    </section>
  );
}

const LABELS = { name: 'Field name', type: 'Type', choices: 'Choices (one a line)' };

/** A new field: its name, type and, for the list types, its choices one a line. */
function NewFieldForm({ path, records, onAdded }: { path: string; records: string; onAdded(): void }) {
  const [name, setName] = useState('');
  const [type, setType] = useState<CustomFieldType>('string');
  const [choices, setChoices] = useState('');

  const { saving, errors, submit } = useFormSubmit({ labels: LABELS, failure: 'The field could not be added.', stays: true }, async () => {
    const lines = choices.split('\n').map((c) => c.trim()).filter(Boolean);
    await api.create(path, { name: name.trim(), type, ...(isListType(type) ? { choices: lines } : {}) });
    setName('');
    setChoices('');
    onAdded();
  });

  return (
    <form className="admin-subform new-field" aria-label={`New ${records} field`} onSubmit={submit} noValidate>
      <h2>New {records} field</h2>
      <div className="grid">
        <FormField label={LABELS.name} error={errors.name}>
          <input type="text" value={name} onChange={(e) => setName(e.target.value)} aria-invalid={Boolean(errors.name)} />
        </FormField>
        <FormField label={LABELS.type} error={errors.type}>
          <select value={type} onChange={(e) => setType(e.target.value as CustomFieldType)}>
            {CUSTOM_FIELD_TYPES.map((t) => <option key={t} value={t}>{TYPE_LABELS[t]}</option>)}
          </select>
        </FormField>
        {isListType(type) && (
          <FormField label={LABELS.choices} error={errors.choices}>
            <textarea rows={4} value={choices} onChange={(e) => setChoices(e.target.value)} aria-invalid={Boolean(errors.choices)} />
          </FormField>
        )}
      </div>
      <p className="muted">The type can't be changed later.</p>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
      <div className="actions">
        <button type="submit" disabled={saving}>{saving ? 'Adding…' : 'Add field'}</button>
      </div>
    </form>
  );
}
