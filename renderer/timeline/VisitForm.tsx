import { useState, type FormEvent } from 'react';
import { useOutcomes } from './useOutcomes.js';
import { VISIT_VERIFICATION_STATUSES } from '../../shared/resources/visit.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';

/** Record a visit to the customer: outcome, summary and how the location was verified. */
export function VisitForm({ resource, onSaved }: { resource: { type: string; id: number }; onSaved(): void }) {
  const outcomes = useOutcomes('/v2/visit_outcomes');
  const [outcomeId, setOutcomeId] = useState('');
  const [summary, setSummary] = useState('');
  const [verification, setVerification] = useState<string>('location_unknown');
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    try {
      await api.create('/v2/visits', {
        resource_type: resource.type, resource_id: resource.id, summary: summary || null,
        outcome_id: outcomeId ? Number(outcomeId) : null, rep_location_verification_status: verification,
      });
      setSummary('');
      setError(null);
      onSaved();
    } catch (err) {
      setError(refusalText(err, 'The visit could not be saved.'));
    }
  };

  return (
    <form className="inline-form" onSubmit={submit} aria-label="Record a visit">
      <label>
        Outcome
        <select value={outcomeId} onChange={(e) => setOutcomeId(e.target.value)}>
          <option value="">—</option>
          {outcomes.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
      </label>
      <label className="grow">
        Visit summary
        <input type="text" value={summary} onChange={(e) => setSummary(e.target.value)} />
      </label>
      <label>
        Location
        <select value={verification} onChange={(e) => setVerification(e.target.value)}>
          {VISIT_VERIFICATION_STATUSES.map((s) => <option key={s} value={s}>{s.replace(/_/g, ' ')}</option>)}
        </select>
      </label>
      {error && <span className="field-error" role="alert">{error}</span>}
      <button type="submit" className="primary">Record visit</button>
    </form>
  );
}
