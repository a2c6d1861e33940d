import type { Deal } from '../../shared/resources/deal.js';
import { useSession } from '../session/sessionStore.js';
import { FormActions, FormField } from '../forms/FormField.js';
import { AmountInput, amountText, amountWarning, apiAmount } from '../forms/AmountInput.js';
import { DateField } from '../forms/DateField.js';
import { CustomFieldInputs, customFieldLabels, customFieldOf, customFieldsPayload } from '../forms/CustomFieldInputs.js';
import { useCustomFieldDefinitions } from '../contacts/useCustomFieldDefinitions.js';
import type { CustomFieldDefinition, CustomFieldValue } from '../../shared/resources/customField.js';
import { CurrencySelect } from '../money/CurrencySelect.js';
import { useRecordForm } from '../leads/useRecordForm.js';
import { OwnerField, SourceField } from '../leads/PickerFields.js';
import { ContactPicker } from './ContactPicker.js';
import { StageSelect } from './StageSelect.js';
import { usePipelines } from './usePipelines.js';
import { ReasonField } from './ReasonField.js';

interface Draft {
  name: string;
  /** Kept as typed ("12,500"), read as the API's exact decimal text when sent: nothing is rounded on the way. */
  value: string;
  currency: string;
  hot: boolean;
  stage_id: number | null;
  contact_id: number | null;
  organization_id: number | null;
  owner_id: number | null;
  source_id: number | null;
  estimated_close_date: string;
  loss_reason_id: number | null;
  unqualified_reason_id: number | null;
  custom_fields: Record<string, CustomFieldValue>;
}

/** The form's fields by API name, in its words (a refusal's problems and a sync conflict's field are named so). */
export const DEAL_FORM_LABELS = {
  name: 'Name', value: 'Value', currency: 'Currency', stage_id: 'Stage', contact_id: 'Contact', organization_id: 'Organization',
  owner_id: 'Owner', source_id: 'Source', estimated_close_date: 'Expected close date',
  loss_reason_id: 'Loss reason', unqualified_reason_id: 'Unqualified reason',
};

function draftOf(deal: Deal | null, defaults: { currency: string; stageId: number | null; contactId: number | null }): Draft {
  return {
    name: deal?.name ?? '',
    value: amountText(deal?.value),
    currency: deal?.currency ?? defaults.currency,
    hot: deal?.hot ?? false,
    stage_id: deal?.stage_id ?? defaults.stageId,
    contact_id: deal?.contact_id ?? defaults.contactId,
    organization_id: deal?.organization_id ?? null,
    owner_id: deal?.owner_id ?? null,
    source_id: deal?.source_id ?? null,
    estimated_close_date: deal?.estimated_close_date ?? '',
    loss_reason_id: deal?.loss_reason_id ?? null,
    unqualified_reason_id: deal?.unqualified_reason_id ?? null,
    custom_fields: (deal?.custom_fields ?? {}) as Record<string, CustomFieldValue>,
  };
}

/** What the form sends: an empty value is 0; the owner and stage only once chosen (the API defaults them). */
function payloadOf(draft: Draft, definitions: CustomFieldDefinition[]): Record<string, unknown> {
  const payload: Record<string, unknown> = {
    name: draft.name.trim(),
    value: apiAmount(draft.value) || '0',
    currency: draft.currency.trim().toUpperCase(),
    hot: draft.hot,
    contact_id: draft.contact_id,
    organization_id: draft.organization_id,
    source_id: draft.source_id,
    estimated_close_date: draft.estimated_close_date || null,
    loss_reason_id: draft.loss_reason_id,
    unqualified_reason_id: draft.unqualified_reason_id,
    custom_fields: customFieldsPayload(definitions, draft.custom_fields),
  };
  if (draft.stage_id !== null) payload.stage_id = draft.stage_id;
  if (draft.owner_id !== null) payload.owner_id = draft.owner_id;
  return payload;
}

/** Create and edit a deal; the API's field errors show by their fields. */
export function DealForm({ id }: { id: number | null }) {
  const account = useSession((s) => s.account);
  const pipelines = usePipelines();
  // A new deal from a board column starts in its stage; from a contact's page, with that contact.
  const params = new URLSearchParams(window.location.search);
  const stageParam = Number(params.get('stage_id')) || null;
  const contactParam = Number(params.get('contact_id')) || null;
  const definitions = useCustomFieldDefinitions('deal');
  const { draft, setDraft, errors, saving, submit } = useRecordForm<Deal, Draft>({
    apiPath: '/v2/deals', pagePath: '/deals', noun: 'deal', labels: { ...DEAL_FORM_LABELS, ...customFieldLabels(definitions) }, fieldOf: customFieldOf, id,
    payloadOf: (edited) => payloadOf(edited, definitions),
    draftOf: (deal) => draftOf(deal, { currency: account?.currency ?? 'USD', stageId: stageParam, contactId: contactParam }),
  });

  if (!draft) return <section className="screen"><p className="muted">{errors._ ?? 'Loading…'}</p></section>;
  const change = (patch: Partial<Draft>) => setDraft({ ...draft, ...patch });

  const title = id === null ? 'New deal' : 'Edit deal';
  return (
    <section className="screen">
      <form className="card contact-form" onSubmit={submit} noValidate aria-label={title}>
        <h1>{title}</h1>
        <div className="grid">
          <FormField label="Name *" error={errors.name}>
            <input type="text" value={draft.name} aria-invalid={Boolean(errors.name)} onChange={(e) => change({ name: e.target.value })} />
          </FormField>
          <FormField label="Value" error={errors.value} warning={amountWarning(draft.value, 'the value')}>
            <AmountInput placeholder="0.00" value={draft.value} onChange={(value) => change({ value })} />
          </FormField>
          <FormField label="Currency" error={errors.currency}>
            <CurrencySelect value={draft.currency} invalid={Boolean(errors.currency)} onChange={(currency) => change({ currency })} />
          </FormField>
          <div className={`field${errors.stage_id ? ' invalid' : ''}`}>
            <StageSelect label="Stage" value={draft.stage_id} onChange={(stage_id) => change({ stage_id })} {...pipelines} />
            {errors.stage_id && <span className="field-error" role="alert">{errors.stage_id}</span>}
          </div>
          <ReasonField category={pipelines.stages.find((s) => s.id === draft.stage_id)?.category} lossReasonId={draft.loss_reason_id}
            unqualifiedReasonId={draft.unqualified_reason_id} errors={errors} onChange={change} />
          <ContactPicker label="Contact *" value={draft.contact_id} error={errors.contact_id} onChange={(contact_id) => change({ contact_id })} />
          <ContactPicker organizationsOnly label="Organization" value={draft.organization_id} error={errors.organization_id} onChange={(organization_id) => change({ organization_id })} />
          <OwnerField value={draft.owner_id} error={errors.owner_id} onChange={(owner_id) => change({ owner_id })} />
          <SourceField path="/v2/deal_sources" value={draft.source_id} error={errors.source_id} onChange={(source_id) => change({ source_id })} />
          <DateField label="Expected close date" value={draft.estimated_close_date} error={errors.estimated_close_date}
            onChange={(estimated_close_date) => change({ estimated_close_date })} />
          <label className="check"><input type="checkbox" checked={draft.hot} onChange={(e) => change({ hot: e.target.checked })} /> Hot deal</label>
        </div>
        <CustomFieldInputs definitions={definitions} values={draft.custom_fields} errors={errors} onChange={(custom_fields) => change({ custom_fields })} />
        <FormActions error={errors._} saving={saving} />
      </form>
    </section>
  );
}
