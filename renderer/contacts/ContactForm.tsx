import { useEffect, useState } from 'react';
import { CUSTOMER_STATUSES, PROSPECT_STATUSES, type Contact, type ContactInput } from '../../shared/resources/contact.js';
import type { Address } from '../../shared/resources/address.js';
import { AddressFields, EMPTY_ADDRESS } from '../records/AddressFields.js';
import type { CustomFieldDefinition, CustomFieldValue } from '../../shared/resources/customField.js';
import { api } from '../api/client.js';
import { changedFields } from '../api/changedFields.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { checkOf, inputTypeOf } from '../forms/checks.js';
import { CustomFieldInputs, customFieldLabels, customFieldOf, customFieldsPayload } from '../forms/CustomFieldInputs.js';
import { capitalized } from '../shell/words.js';
import { CONTACT_FIELD_LABELS } from '../records/ContactFieldRows.js';
import { useRouter } from '../router/routerStore.js';
import { OrganizationPicker } from './OrganizationPicker.js';
import { useCustomFieldDefinitions } from './useCustomFieldDefinitions.js';
import { DuplicateWarning } from '../duplicates/DuplicateWarning.js';

type Draft = Required<Pick<ContactInput, 'is_organization' | 'customer_status' | 'prospect_status'>> & {
  text: Record<string, string>;
  contact_id: number | null;
  address: Address;
  billing_address: Address;
  shipping_address: Address;
  tags: string;
  custom_fields: Record<string, CustomFieldValue>;
};

const TEXT_FIELDS = ['name', 'first_name', 'last_name', 'title', 'email', 'phone', 'mobile', 'website', 'industry', 'description'] as const;
const LABELS: Record<string, string> = { name: 'Name', first_name: 'First name', last_name: 'Last name', ...CONTACT_FIELD_LABELS };
/** Every field the form shows, by API name: a refusal's problems show by them, in these words (and a sync conflict's field). */
export const CONTACT_FORM_LABELS = {
  ...LABELS, contact_id: 'Organization', customer_status: 'Customer status', prospect_status: 'Prospect status', tags: 'Tags',
  address: 'Address', billing_address: 'Billing address', shipping_address: 'Shipping address', custom_fields: 'Custom fields',
};

function draftOf(contact: Contact | null, organizationId: number | null): Draft {
  return {
    is_organization: contact?.is_organization ?? false,
    customer_status: contact?.customer_status ?? 'none',
    prospect_status: contact?.prospect_status ?? 'none',
    text: Object.fromEntries(TEXT_FIELDS.map((f) => [f, contact?.[f] ?? ''])),
    contact_id: contact?.contact_id ?? organizationId,
    address: contact?.address ?? EMPTY_ADDRESS,
    billing_address: contact?.billing_address ?? EMPTY_ADDRESS,
    shipping_address: contact?.shipping_address ?? EMPTY_ADDRESS,
    tags: contact?.tags.join(', ') ?? '',
    custom_fields: contact?.custom_fields ?? {},
  };
}

/** What the form sends: the fields that apply to the kind, empty text as null. */
function payloadOf(draft: Draft, creating: boolean, definitions: CustomFieldDefinition[]): ContactInput {
  const kindFields = draft.is_organization ? ['name'] : ['first_name', 'last_name'];
  const shared = ['title', 'email', 'phone', 'mobile', 'website', 'industry', 'description'];
  const hasStatus = draft.customer_status !== 'none' || draft.prospect_status !== 'none';
  const payload: Record<string, unknown> = Object.fromEntries(
    [...kindFields, ...shared].map((f) => [f, draft.text[f].trim() === '' ? null : draft.text[f].trim()]),
  );
  if (creating) payload.is_organization = draft.is_organization;
  if (!draft.is_organization) payload.contact_id = draft.contact_id;
  Object.assign(payload, {
    customer_status: draft.customer_status,
    prospect_status: draft.prospect_status,
    address: draft.address,
    billing_address: hasStatus ? draft.billing_address : null,
    shipping_address: hasStatus ? draft.shipping_address : null,
    tags: draft.tags.split(',').map((t) => t.trim()).filter(Boolean),
    custom_fields: customFieldsPayload(definitions, draft.custom_fields),
  });
  return payload as ContactInput;
}

/** Create and edit: shows the API's field errors next to the fields they are about, in words, and warnings as email, website and phone are typed. */
export function ContactForm({ id }: { id: number | null }) {
  const navigate = useRouter((s) => s.navigate);
  const definitions = useCustomFieldDefinitions();
  const organizationParam = Number(new URLSearchParams(window.location.search).get('organization')) || null;
  const [draft, setDraft] = useState<Draft | null>(id === null ? draftOf(null, organizationParam) : null);
  // The payload of the contact as loaded: an edit sends only what differs from it.
  const [initialPayload, setInitialPayload] = useState<Record<string, unknown>>({});

  /**
   * Creates the contact, or sends the fields the user changed (so what others
   * changed meanwhile in other fields stays); answers the contact's id. With
   * nothing changed there is nothing to send.
   */
  const save = async (edited: Draft): Promise<number> => {
    if (id === null) return (await api.create<Contact>('/v2/contacts', payloadOf(edited, true, definitions))).id;
    const changes = changedFields(initialPayload, payloadOf(edited, false, definitions));
    if (Object.keys(changes).length > 0) await api.update<Contact>(`/v2/contacts/${id}`, changes);
    return id;
  };

  const labels = { ...CONTACT_FORM_LABELS, ...customFieldLabels(definitions) };
  const { saving, errors, setErrors, submit } = useFormSubmit({ labels, failure: 'The contact could not be saved.', fieldOf: customFieldOf }, async (edited: Draft) => {
    navigate(`/contacts/${await save(edited)}`);
  });

  useEffect(() => {
    if (id === null) return;
    const loaded = (contact: Contact) => {
      const loadedDraft = draftOf(contact, null);
      setDraft(loadedDraft);
      setInitialPayload(payloadOf(loadedDraft, false, []));
    };
    api.get<Contact>(`/v2/contacts/${id}`).then(loaded, () => setErrors({ _: 'The contact could not be loaded.' }));
  }, [id, setErrors]);

  if (!draft) return <section className="screen"><p className="muted">{errors._ ?? 'Loading…'}</p></section>;
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });
  const hasStatus = draft.customer_status !== 'none' || draft.prospect_status !== 'none';

  const textField = (field: (typeof TEXT_FIELDS)[number], options: { required?: boolean; multiline?: boolean } = {}) => (
    <FormField key={field} label={LABELS[field] + (options.required ? ' *' : '')} error={errors[field]} warning={checkOf(field, draft.text[field])}>
      {options.multiline
        ? <textarea value={draft.text[field]} onChange={(e) => change({ text: { ...draft.text, [field]: e.target.value } })} />
        : <input type={inputTypeOf(field)} value={draft.text[field]} onChange={(e) => change({ text: { ...draft.text, [field]: e.target.value } })} />}
    </FormField>
  );

  return (
    <section className="screen">
      <form className="card contact-form" onSubmit={(e) => submit(e, draft)} noValidate aria-label={id === null ? 'New contact' : 'Edit contact'}>
        <h1>{id === null ? 'New contact' : 'Edit contact'}</h1>
        {id === null && (
          <fieldset className="kind-choice">
            <legend>Kind</legend>
            <label><input type="radio" name="kind" checked={!draft.is_organization} onChange={() => change({ is_organization: false })} /> Person</label>
            <label><input type="radio" name="kind" checked={draft.is_organization} onChange={() => change({ is_organization: true })} /> Organization</label>
          </fieldset>
        )}
        <div className="grid">
          {draft.is_organization ? textField('name', { required: true }) : [textField('first_name'), textField('last_name', { required: true })]}
          {!draft.is_organization && <OrganizationPicker label="Organization" value={draft.contact_id} error={errors.contact_id} onChange={(contact_id) => change({ contact_id })} />}
          {['title', 'email', 'phone', 'mobile', 'website', 'industry'].map((f) => textField(f as (typeof TEXT_FIELDS)[number]))}
          <FormField label="Customer status" error={errors.customer_status}>
            <select value={draft.customer_status} onChange={(e) => change({ customer_status: e.target.value as Draft['customer_status'] })}>
              {CUSTOMER_STATUSES.map((s) => <option key={s} value={s}>{capitalized(s)}</option>)}
            </select>
          </FormField>
          <FormField label="Prospect status" error={errors.prospect_status}>
            <select value={draft.prospect_status} onChange={(e) => change({ prospect_status: e.target.value as Draft['prospect_status'] })}>
              {PROSPECT_STATUSES.map((s) => <option key={s} value={s}>{capitalized(s)}</option>)}
            </select>
          </FormField>
          <FormField label="Tags (comma-separated)" error={errors.tags}>
            <input type="text" value={draft.tags} onChange={(e) => change({ tags: e.target.value })} />
          </FormField>
        </div>
        {id === null && <DuplicateWarning type="contact" candidate={{ email: draft.text.email, phone: draft.text.phone || draft.text.mobile, name: draft.is_organization ? draft.text.name : `${draft.text.first_name} ${draft.text.last_name}`, organization: !draft.is_organization && draft.contact_id !== null ? String(draft.contact_id) : '' }} />}
        <AddressFields legend="Address" value={draft.address} error={errors.address} onChange={(address) => change({ address })} />
        {hasStatus && <AddressFields legend="Billing address" value={draft.billing_address} error={errors.billing_address} onChange={(billing_address) => change({ billing_address })} />}
        {hasStatus && <AddressFields legend="Shipping address" value={draft.shipping_address} error={errors.shipping_address} onChange={(shipping_address) => change({ shipping_address })} />}
        <CustomFieldInputs definitions={definitions.filter((d) => (draft.is_organization ? d.for_organization : d.for_contact))}
          values={draft.custom_fields} errors={errors} onChange={(custom_fields) => change({ custom_fields })} />
        {textField('description', { multiline: true })}
        <FormMessage error={errors._} />
        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>{saving ? 'Saving…' : 'Save'}</button>
          <button type="button" onClick={() => window.history.back()}>Cancel</button>
        </div>
      </form>
    </section>
  );
}
