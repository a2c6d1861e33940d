import { useState, type FormEvent } from 'react';
import { useOutcomes } from './useOutcomes.js';
import { api } from '../api/client.js';
import { formErrorsOf } from '../api/formErrors.js';

/** Log a call inline: number (prefilled from the contact), summary, outcome, direction. */
export function CallForm({ resource, phone, onSaved }: { resource: { type: string; id: number }; phone: string; onSaved(): void }) {
  const [phoneNumber, setPhoneNumber] = useState(phone);
  const [summary, setSummary] = useState('');
  const [outcomeId, setOutcomeId] = useState('');
  const [incoming, setIncoming] = useState(false);
  const outcomes = useOutcomes('/v2/call_outcomes');
  const [errors, setErrors] = useState<Record<string, string>>({});

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      // A call is about a lead or contact; a deal's calls name it among their associated deals.
      const about = resource.type === 'deal' ? { associated_deal_ids: [resource.id] } : { resource_type: resource.type, resource_id: resource.id };
      await api.create('/v2/calls', {
        ...about, phone_number: phoneNumber, summary: summary || null,
        outcome_id: outcomeId ? Number(outcomeId) : null, incoming,
      });
      setSummary('');
      setOutcomeId('');
      setErrors({});
      onSaved();
    } catch (err) {
      setErrors(formErrorsOf(err, { phone_number: 'Phone number' }, 'The call could not be saved.'));
    }
  };

  return (
    <form className="inline-form" onSubmit={submit} aria-label="Log a call">
      <label>
        Phone number
        <input type="tel" value={phoneNumber} onChange={(e) => setPhoneNumber(e.target.value)} aria-invalid={Boolean(errors.phone_number)} />
        {errors.phone_number && <span className="field-error" role="alert">{errors.phone_number}</span>}
      </label>
      <label className="grow">
        Summary
        <input type="text" value={summary} onChange={(e) => setSummary(e.target.value)} />
      </label>
      <label>
        Outcome
        <select value={outcomeId} onChange={(e) => setOutcomeId(e.target.value)}>
          <option value="">—</option>
          {outcomes.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
      </label>
      <label className="check"><input type="checkbox" checked={incoming} onChange={(e) => setIncoming(e.target.checked)} /> Incoming</label>
      <button type="submit" className="primary">Log call</button>
      {errors._ && <p className="form-error" role="alert">{errors._}</p>}
    </form>
  );
}
