import { useEffect, useRef, useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { useRouter } from '../router/routerStore.js';
import { useUsers } from '../collaborators/useUsers.js';
import { dealNameOfLead, leadDisplayName, type Lead, type LeadConversion } from '../../shared/resources/lead.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { useSession } from '../session/sessionStore.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { AmountInput, amountWarning, apiAmount } from '../forms/AmountInput.js';
import { CurrencySelect } from '../money/CurrencySelect.js';
import '../deals/dealDialogs.css';

/** The conversion's fields in the dialog's words (a refusal names them so). */
const CONVERT_LABELS = { owner_id: 'Owner', deal_name: 'Deal name', deal_value: 'Value', deal_currency: 'Currency' };

interface DealDraft {
  name: string;
  /** As typed ("12,500"); sent as the API's exact decimal text. */
  value: string;
  currency: string;
}

/** What the dialog finds wrong before asking the hub: a deal needs a name and a value (a $0.00 deal is never made silently). */
function dealProblems(deal: DealDraft): Record<string, string> {
  const problems: Record<string, string> = {};
  if (!deal.name.trim()) problems.deal_name = 'Enter a name for the deal.';
  if (!deal.value.trim()) problems.deal_value = 'Enter what the deal is worth, or untick Create a deal.';
  return problems;
}

/** Where a finished conversion lands: the person, else the organization, else the deal. */
export function landingOf(conversion: LeadConversion): string {
  if (conversion.individual_id !== null) return `/contacts/${conversion.individual_id}`;
  if (conversion.organization_id !== null) return `/contacts/${conversion.organization_id}`;
  return conversion.deal_id !== null ? `/deals/${conversion.deal_id}` : `/leads/${conversion.lead_id}`;
}

/**
 * Converts a lead (`POST /v2/lead_conversions`): the owner of what it creates,
 * and whether a deal comes with it, named and valued here (in the account's
 * currency unless changed), all sent in the one request. A modal <dialog>,
 * so focus stays inside and Escape closes it.
 */
export function ConvertDialog({ lead, onClose }: { lead: Lead; onClose(): void }) {
  const navigate = useRouter((s) => s.navigate);
  const users = useUsers();
  const dialog = useRef<HTMLDialogElement>(null);
  const [ownerId, setOwnerId] = useState(lead.owner_id);
  const [createDeal, setCreateDeal] = useState(true);
  const accountCurrency = useSession((state) => state.account?.currency ?? 'USD');
  const [deal, setDeal] = useState<DealDraft>({ name: dealNameOfLead(lead), value: '', currency: accountCurrency });

  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  const { saving, errors, setErrors, clearError, run } = useFormSubmit({ labels: CONVERT_LABELS, failure: 'The lead could not be converted.' }, async () => {
    const dealFields = createDeal ? { deal_name: deal.name.trim(), deal_value: apiAmount(deal.value), deal_currency: deal.currency } : {};
    const conversion = await api.create<LeadConversion>('/v2/lead_conversions', { lead_id: lead.id, owner_id: ownerId, create_deal: createDeal, ...dealFields });
    navigate(landingOf(conversion));
  });
  const convert = (event: FormEvent) => {
    event.preventDefault();
    const problems = createDeal ? dealProblems(deal) : {};
    if (Object.keys(problems).length > 0) setErrors(problems);
    else void run();
  };
  const changeDeal = (field: keyof DealDraft, value: string) => {
    setDeal((now) => ({ ...now, [field]: value }));
    clearError(`deal_${field}`);
  };

  const made = [lead.last_name && 'a person', lead.organization_name && 'an organization', createDeal && 'a deal'].filter(Boolean) as string[];
  const creates = made.length > 1 ? `${made.slice(0, -1).join(', ')} and ${made[made.length - 1]}` : made[0];
  return (
    <dialog ref={dialog} className="card dialog" aria-labelledby="convert-title" onCancel={onClose}>
      <form onSubmit={convert} className="dialog-form convert-form" noValidate>
        <h2 id="convert-title">Convert {leadDisplayName(lead)}</h2>
        <p className="muted">This creates {creates || 'the records'} from the lead; its activities move with it.</p>
        <FormField label="Owner" error={errors.owner_id}>
          <select value={ownerId} onChange={(e) => setOwnerId(Number(e.target.value))}>
            {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </select>
        </FormField>
        <label className="check">
          <input type="checkbox" checked={createDeal} onChange={(e) => setCreateDeal(e.target.checked)} /> Create a deal
        </label>
        {createDeal && (
          <fieldset className="convert-deal">
            <legend className="visually-hidden">The deal</legend>
            <FormField label="Deal name" error={errors.deal_name}>
              <input type="text" value={deal.name} onChange={(e) => changeDeal('name', e.target.value)} />
            </FormField>
            <div className="convert-amount">
              <FormField label="Value" error={errors.deal_value} warning={amountWarning(deal.value, 'the value')}>
                <AmountInput placeholder="0.00" value={deal.value} onChange={(value) => changeDeal('value', value)} />
              </FormField>
              <FormField label="Currency" error={errors.deal_currency}>
                <CurrencySelect value={deal.currency} invalid={Boolean(errors.deal_currency)} onChange={(code) => changeDeal('currency', code)} />
              </FormField>
            </div>
          </fieldset>
        )}
        <FormMessage error={errors._} />
        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>{saving ? 'Converting…' : 'Convert'}</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </dialog>
  );
}
