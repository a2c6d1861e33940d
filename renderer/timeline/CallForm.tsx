import { useState } from 'react';
import { useOutcomes } from './useOutcomes.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormInputError } from '../api/formSubmit.js';
import { warningFor } from '../forms/checks.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { durationSeconds } from './activityText.js';

const CALL_LABELS = { phone_number: 'Phone number', summary: 'Summary', outcome_id: 'Outcome', duration: 'Length' };

/** Log a call inline: number (prefilled from the contact, checked as typed), summary, outcome, length, direction. */
export function CallForm({ resource, phone, onSaved }: { resource: { type: string; id: number }; phone: string; onSaved(): void }) {
  const [phoneNumber, setPhoneNumber] = useState(phone);
  const [summary, setSummary] = useState('');
  const [outcomeId, setOutcomeId] = useState('');
  const [length, setLength] = useState('');
  const [incoming, setIncoming] = useState(false);
  const outcomes = useOutcomes('/v2/call_outcomes');

  const { saving, errors, submit } = useFormSubmit({ labels: CALL_LABELS, failure: 'The call could not be saved.', stays: true }, async () => {
    const duration = durationSeconds(length);
    if (duration === undefined) throw new FormInputError({ duration: 'Enter the length in minutes, such as 4 or 4:30.' });
    // A call is about a lead or contact; a deal's calls name it among their associated deals.
    const about = resource.type === 'deal' ? { associated_deal_ids: [resource.id] } : { resource_type: resource.type, resource_id: resource.id };
    await api.create('/v2/calls', {
      ...about, phone_number: phoneNumber, summary: summary || null,
      outcome_id: outcomeId ? Number(outcomeId) : null, incoming, ...(duration === null ? {} : { duration }),
    });
    setSummary('');
    setOutcomeId('');
    setLength('');
    onSaved();
  });

  return (
    <form className="inline-form" onSubmit={submit} aria-label="Log a call" noValidate>
      <FormField label="Phone number" error={errors.phone_number} warning={warningFor('phone', phoneNumber)}>
        <input type="tel" value={phoneNumber} onChange={(e) => setPhoneNumber(e.target.value)} />
      </FormField>
      <FormField label="Summary" error={errors.summary} className="grow">
        <input type="text" value={summary} onChange={(e) => setSummary(e.target.value)} />
      </FormField>
      <FormField label="Outcome" error={errors.outcome_id}>
        <select value={outcomeId} onChange={(e) => setOutcomeId(e.target.value)}>
          <option value="">—</option>
          {outcomes.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
      </FormField>
      <FormField label="Length" error={errors.duration} className="call-length">
        <input type="text" inputMode="numeric" placeholder="min or m:ss" value={length} onChange={(e) => setLength(e.target.value)} />
      </FormField>
      <label className="check"><input type="checkbox" checked={incoming} onChange={(e) => setIncoming(e.target.checked)} /> Incoming</label>
      <button type="submit" className="primary" disabled={saving}>Log call</button>
      <FormMessage error={errors._} />
    </form>
  );
}
