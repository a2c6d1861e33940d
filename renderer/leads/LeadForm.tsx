import type { Address } from '../../shared/resources/address.js';
import { AddressFields, EMPTY_ADDRESS } from '../records/AddressFields.js';
import { CONTACT_FIELD_LABELS } from '../records/ContactFieldRows.js';
import { FormActions, FormField } from '../forms/FormField.js';
import { checkOf, inputTypeOf } from '../forms/checks.js';
import { CustomFieldInputs, customFieldLabels, customFieldOf, customFieldsPayload } from '../forms/CustomFieldInputs.js';
import { useCustomFieldDefinitions } from '../contacts/useCustomFieldDefinitions.js';
import type { CustomFieldDefinition, CustomFieldValue } from '../../shared/resources/customField.js';
import { useRecordForm } from './useRecordForm.js';
import { OwnerField, SourceField } from './PickerFields.js';
import { CONVERTED_LEAD_STATUS, DEFAULT_LEAD_STATUS, LEAD_STATUSES, type Lead } from '../../shared/resources/lead.js';
import { DuplicateWarning } from '../duplicates/DuplicateWarning.js';

const TEXT_FIELDS = [
  'first_name', 'last_name', 'organization_name', 'title', 'email', 'phone', 'mobile', 'website', 'industry', 'description',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

const LABELS: Record<TextField, string> = { first_name: 'First name', last_name: 'Last name', organization_name: 'Organization name', ...CONTACT_FIELD_LABELS };
/** Every field the form shows, by API name, in its words (a refusal's problems and a sync conflict's field are named so). */
export const LEAD_FORM_LABELS = { ...LABELS, status: 'Status', source_id: 'Source', owner_id: 'Owner', address: 'Address' };

/** The statuses a person picks from; Converted is set by converting the lead, not by hand. */
const CHOOSABLE_STATUSES = LEAD_STATUSES.filter((s) => s !== CONVERTED_LEAD_STATUS);

interface Draft {
  text: Record<TextField, string>;
  status: string;
  owner_id: number | null;
  source_id: number | null;
  address: Address;
  custom_fields: Record<string, CustomFieldValue>;
}

function draftOf(lead: Lead | null): Draft {
  return {
    text: Object.fromEntries(TEXT_FIELDS.map((f) => [f, lead?.[f] ?? ''])) as Record<TextField, string>,
    status: lead?.status ?? DEFAULT_LEAD_STATUS,
    owner_id: lead?.owner_id ?? null,
    source_id: lead?.source_id ?? null,
    address: lead?.address ?? EMPTY_ADDRESS,
    custom_fields: lead?.custom_fields ?? {},
  };
}

/** What the form sends: empty text as null, and the owner only once chosen (the API defaults it to the creator). */
function payloadOf(draft: Draft, definitions: CustomFieldDefinition[]): Record<string, unknown> {
  const payload: Record<string, unknown> = Object.fromEntries(
    TEXT_FIELDS.map((f) => [f, draft.text[f].trim() === '' ? null : draft.text[f].trim()]),
  );
  payload.status = draft.status;
  payload.source_id = draft.source_id;
  payload.address = draft.address;
  payload.custom_fields = customFieldsPayload(definitions, draft.custom_fields);
  if (draft.owner_id !== null) payload.owner_id = draft.owner_id;
  return payload;
}

/** Create and edit a lead; the API's field errors (a lead needs a last name or an organization name) show by their fields, in words; email, website and phone are checked as typed. */
export function LeadForm({ id }: { id: number | null }) {
  const definitions = useCustomFieldDefinitions('lead');
  const { draft, setDraft, errors, saving, submit } = useRecordForm<Lead, Draft>({
    apiPath: '/v2/leads', pagePath: '/leads', noun: 'lead', labels: { ...LEAD_FORM_LABELS, ...customFieldLabels(definitions) }, fieldOf: customFieldOf, id, draftOf,
    payloadOf: (edited) => payloadOf(edited, definitions),
  });

  if (!draft) return <section className="screen"><p className="muted">{errors._ ?? 'Loading…'}</p></section>;
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const setText = (field: TextField, value: string) => change({ text: { ...draft.text, [field]: value } });

  const textField = (field: TextField) => (
    <FormField key={field} label={LABELS[field]} error={errors[field]} warning={checkOf(field, draft.text[field])}>
      {field === 'description'
        ? <textarea value={draft.text[field]} onChange={(e) => setText(field, e.target.value)} />
        : <input type={inputTypeOf(field)} value={draft.text[field]} onChange={(e) => setText(field, e.target.value)} />}
    </FormField>
  );

  const title = id === null ? 'New lead' : 'Edit lead';
  return (
    <section className="screen">
      <form className="card contact-form" onSubmit={submit} noValidate aria-label={title}>
        <h1>{title}</h1>
        <p className="muted">A lead needs a last name or an organization name.</p>
        <div className="grid">
          {(['first_name', 'last_name', 'organization_name', 'title', 'email', 'phone', 'mobile', 'website', 'industry'] as const).map(textField)}
          <FormField label="Status" error={errors.status}>
            <select value={draft.status} onChange={(e) => change({ status: e.target.value })}>
              {/* A status the lead has that is not offered (Converted, or one imported) stays as it is. */}
              {!CHOOSABLE_STATUSES.some((s) => s === draft.status) && <option value={draft.status}>{draft.status}</option>}
              {CHOOSABLE_STATUSES.map((s) => <option key={s} value={s}>{s}</option>)}
            </select>
          </FormField>
          <SourceField path="/v2/lead_sources" value={draft.source_id} error={errors.source_id} onChange={(source_id) => change({ source_id })} />
          <OwnerField value={draft.owner_id} error={errors.owner_id} onChange={(owner_id) => change({ owner_id })} />
        </div>
        {id === null && <DuplicateWarning type="lead" candidate={{ email: draft.text.email, phone: draft.text.phone || draft.text.mobile, name: `${draft.text.first_name} ${draft.text.last_name}`, organization: draft.text.organization_name }} />}
        <AddressFields legend="Address" value={draft.address} error={errors.address} onChange={(address) => change({ address })} />
        <CustomFieldInputs definitions={definitions} values={draft.custom_fields} errors={errors} onChange={(custom_fields) => change({ custom_fields })} />
        {textField('description')}
        <FormActions error={errors._} saving={saving} />
      </form>
    </section>
  );
}
