import { useState } from 'react';
import { useOutcomes } from './useOutcomes.js';
import { VISIT_VERIFICATION_STATUSES } from '../../shared/resources/visit.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField, FormMessage } from '../forms/FormField.js';

const VISIT_LABELS = { outcome_id: 'Outcome', summary: 'Visit summary', rep_location_verification_status: 'Location' };

/** Record a visit to the customer: outcome, summary and how the location was verified. */
export function VisitForm({ resource, onSaved }: { resource: { type: string; id: number }; onSaved(): void }) {
  const outcomes = useOutcomes('/v2/visit_outcomes');
  const [outcomeId, setOutcomeId] = useState('');
  const [summary, setSummary] = useState('');
  const [verification, setVerification] = useState<string>('location_unknown');

  const { saving, errors, submit } = useFormSubmit({ labels: VISIT_LABELS, failure: 'The visit could not be saved.', stays: true }, async () => {
    await api.create('/v2/visits', {
      resource_type: resource.type, resource_id: resource.id, summary: summary || null,
      outcome_id: outcomeId ? Number(outcomeId) : null, rep_location_verification_status: verification,
    });
    setSummary('');
    onSaved();
  });

  return (
    <form className="inline-form" onSubmit={submit} aria-label="Record a visit" noValidate>
      <FormField label="Outcome" error={errors.outcome_id}>
        <select value={outcomeId} onChange={(e) => setOutcomeId(e.target.value)}>
          <option value="">—</option>
          {outcomes.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
      </FormField>
      <FormField label="Visit summary" error={errors.summary} className="grow">
        <input type="text" value={summary} onChange={(e) => setSummary(e.target.value)} />
      </FormField>
      <FormField label="Location" error={errors.rep_location_verification_status}>
        <select value={verification} onChange={(e) => setVerification(e.target.value)}>
          {VISIT_VERIFICATION_STATUSES.map((s) => <option key={s} value={s}>{s.replace(/_/g, ' ')}</option>)}
        </select>
      </FormField>
      <button type="submit" className="primary" disabled={saving}>Record visit</button>
      <FormMessage error={errors._} />
    </form>
  );
}
