import { useEffect, useRef, useState } from 'react';
import { api } from '../api/client.js';
import { useRouter } from '../router/routerStore.js';
import { useUsers } from '../collaborators/useUsers.js';
import { dealNameOfLead, leadDisplayName, type Lead, type LeadConversion } from '../../shared/resources/lead.js';
import { refusalText } from '../api/formErrors.js';
import { useFormSubmit } from '../api/useFormSubmit.js';

/** Where a finished conversion lands: the person, else the organization, else the deal. */
export function landingOf(conversion: LeadConversion): string {
  if (conversion.individual_id !== null) return `/contacts/${conversion.individual_id}`;
  if (conversion.organization_id !== null) return `/contacts/${conversion.organization_id}`;
  return conversion.deal_id !== null ? `/deals/${conversion.deal_id}` : `/leads/${conversion.lead_id}`;
}

/**
 * Converts a lead (`POST /v2/lead_conversions`): the owner of what it creates,
 * and whether a deal comes with it. A modal <dialog>, so focus stays inside
 * and Escape closes it.
 */
export function ConvertDialog({ lead, onClose }: { lead: Lead; onClose(): void }) {
  const navigate = useRouter((s) => s.navigate);
  const users = useUsers();
  const dialog = useRef<HTMLDialogElement>(null);
  const [ownerId, setOwnerId] = useState(lead.owner_id);
  const [createDeal, setCreateDeal] = useState(true);

  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);

  const { saving, errors, submit } = useFormSubmit({ errorsOf: (err) => ({ _: refusalText(err, 'The lead could not be converted.') }) }, async () => {
    const conversion = await api.create<LeadConversion>('/v2/lead_conversions', { lead_id: lead.id, owner_id: ownerId, create_deal: createDeal });
    navigate(landingOf(conversion));
  });

  const made = [lead.last_name && 'a person', lead.organization_name && 'an organization', createDeal && 'a deal'].filter(Boolean) as string[];
  const creates = made.length > 1 ? `${made.slice(0, -1).join(', ')} and ${made[made.length - 1]}` : made[0];
  return (
    <dialog ref={dialog} className="card dialog" aria-labelledby="convert-title" onCancel={onClose}>
      <form onSubmit={submit} className="dialog-form">
        <h2 id="convert-title">Convert {leadDisplayName(lead)}</h2>
        <p className="muted">This creates {creates || 'the records'} from the lead; its activities move with it.</p>
        <label>
          Owner
          <select value={ownerId} onChange={(e) => setOwnerId(Number(e.target.value))}>
            {users.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </select>
        </label>
        <label className="check">
          <input type="checkbox" checked={createDeal} onChange={(e) => setCreateDeal(e.target.checked)} /> Create a deal
        </label>
        {/* The name the hub gives it (the same function names it there), so the rep knows what to look for. */}
        {createDeal && <p className="muted deal-name">The deal: {dealNameOfLead(lead)}</p>}
        {errors._ && <p className="form-error" role="alert">{errors._}</p>}
        <div className="actions">
          <button type="submit" className="primary" disabled={saving}>{saving ? 'Converting…' : 'Convert'}</button>
          <button type="button" onClick={onClose}>Cancel</button>
        </div>
      </form>
    </dialog>
  );
}
