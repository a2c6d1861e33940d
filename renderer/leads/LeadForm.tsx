import { ADDRESS_KEYS, type Address } from '../../shared/resources/address.js';
import { FormActions, FormField } from './FormField.js';
import { useRecordForm } from './useRecordForm.js';
import { OwnerField, SourceField } from './PickerFields.js';
import { LEAD_STATUSES, type Lead } from '../../shared/resources/lead.js';

const TEXT_FIELDS = [
  'first_name', 'last_name', 'organization_name', 'title', 'email', 'phone', 'mobile', 'website', 'industry', 'status', 'description',
] as const;
type TextField = (typeof TEXT_FIELDS)[number];

const LABELS: Record<TextField, string> = {
  first_name: 'First name', last_name: 'Last name', organization_name: 'Organization name', title: 'Title', email: 'Email',
  phone: 'Phone', mobile: 'Mobile', website: 'Website', industry: 'Industry', status: 'Status', description: 'Description',
};

interface Draft {
  text: Record<TextField, string>;
  owner_id: number | null;
  source_id: number | null;
  address: Address;
}

const EMPTY_ADDRESS: Address = { line1: null, city: null, postal_code: null, state: null, country: null };

function draftOf(lead: Lead | null): Draft {
  return {
    text: Object.fromEntries(TEXT_FIELDS.map((f) => [f, lead?.[f] ?? ''])) as Record<TextField, string>,
    owner_id: lead?.owner_id ?? null,
    source_id: lead?.source_id ?? null,
    address: lead?.address ?? EMPTY_ADDRESS,
  };
}

/** What the form sends: empty text as null, and the owner only once chosen (the API defaults it to the creator). */
function payloadOf(draft: Draft): Record<string, unknown> {
  const payload: Record<string, unknown> = Object.fromEntries(
    TEXT_FIELDS.map((f) => [f, draft.text[f].trim() === '' ? null : draft.text[f].trim()]),
  );
  // A lead always has a status (the API makes a new one `New`): an emptied field leaves it as it is.
  if (payload.status === null) delete payload.status;
  payload.source_id = draft.source_id;
  payload.address = draft.address;
  if (draft.owner_id !== null) payload.owner_id = draft.owner_id;
  return payload;
}

/** Create and edit a lead; the API's field errors (a lead needs a last name or an organization name) show by their fields. */
export function LeadForm({ id }: { id: number | null }) {
  const { draft, setDraft, errors, saving, submit } = useRecordForm<Lead, Draft>({ apiPath: '/v2/leads', pagePath: '/leads', noun: 'lead', id, draftOf, payloadOf });

  if (!draft) return <section className="screen"><p className="muted">{errors._ ?? 'Loading…'}</p></section>;
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const setText = (field: TextField, value: string) => change({ text: { ...draft.text, [field]: value } });

  const textField = (field: TextField) => (
    <FormField key={field} label={LABELS[field]} error={errors[field]}>
      {field === 'description'
        ? <textarea value={draft.text[field]} onChange={(e) => setText(field, e.target.value)} />
        : <input type={field === 'email' ? 'email' : 'text'} value={draft.text[field]} aria-invalid={Boolean(errors[field])}
            list={field === 'status' ? 'lead-statuses' : undefined} onChange={(e) => setText(field, e.target.value)} />}
    </FormField>
  );

  const title = id === null ? 'New lead' : 'Edit lead';
  return (
    <section className="screen">
      <form className="card contact-form" onSubmit={submit} noValidate aria-label={title}>
        <h1>{title}</h1>
        <p className="muted">A lead needs a last name or an organization name.</p>
        <div className="grid">
          {(['first_name', 'last_name', 'organization_name', 'title', 'email', 'phone', 'mobile', 'website', 'industry', 'status'] as const).map(textField)}
          <datalist id="lead-statuses">{LEAD_STATUSES.map((s) => <option key={s} value={s} />)}</datalist>
          <SourceField path="/v2/lead_sources" value={draft.source_id} error={errors.source_id} onChange={(source_id) => change({ source_id })} />
          <OwnerField value={draft.owner_id} error={errors.owner_id} onChange={(owner_id) => change({ owner_id })} />
        </div>
        <fieldset className="address">
          <legend>Address</legend>
          <div className="grid">
            {ADDRESS_KEYS.map((key) => (
              <label key={key}>
                {key.replace('_', ' ').replace('line1', 'street')}
                <input type="text" value={draft.address[key] ?? ''} onChange={(e) => change({ address: { ...draft.address, [key]: e.target.value || null } })} />
              </label>
            ))}
          </div>
          {errors.address && <span className="field-error" role="alert">{errors.address}</span>}
        </fieldset>
        {textField('description')}
        <FormActions error={errors._} saving={saving} />
      </form>
    </section>
  );
}
