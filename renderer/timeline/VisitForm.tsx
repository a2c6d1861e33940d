import { useState } from 'react';
import { useOutcomes } from './useOutcomes.js';
import { VISIT_VERIFICATION_STATUSES, type Visit } from '../../shared/resources/visit.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormField, FormMessage } from '../forms/FormField.js';

const VISIT_LABELS = { outcome_id: 'Outcome', summary: 'Visit summary', rep_location_verification_status: 'Location' };

interface Props {
  resource: { type: string; id: number };
  onSaved(): void;
  /** The visit being corrected in place (else a new one is recorded). */
  editing?: Visit;
  /** Leaves the correction unsaved. */
  onCancel?(): void;
}

/** Record a visit to the customer, or correct one in place: outcome, summary and how the location was verified. */
export function VisitForm({ resource, onSaved, editing, onCancel }: Props) {
  const outcomes = useOutcomes('/v2/visit_outcomes');
  const [outcomeId, setOutcomeId] = useState(editing?.outcome_id ? String(editing.outcome_id) : '');
  const [summary, setSummary] = useState(editing?.summary ?? '');
  const [verification, setVerification] = useState<string>(editing?.rep_location_verification_status ?? 'location_unknown');

  const { saving, errors, clearError, submit } = useFormSubmit({ labels: VISIT_LABELS, failure: 'The visit could not be saved.', stays: true }, async () => {
    const fields = { summary: summary || null, outcome_id: outcomeId ? Number(outcomeId) : null, rep_location_verification_status: verification };
    if (editing) {
      await api.update(`/v2/visits/${editing.id}`, fields);
    } else {
      await api.create('/v2/visits', { resource_type: resource.type, resource_id: resource.id, ...fields });
      setSummary('');
    }
    onSaved();
  });

  return (
    <form className="inline-form" onSubmit={submit} aria-label={editing ? 'Edit the visit' : 'Record a visit'} noValidate>
      <FormField label="Outcome" error={errors.outcome_id}>
        <select value={outcomeId} onChange={(e) => (setOutcomeId(e.target.value), clearError('outcome_id'))}>
          <option value="">—</option>
          {outcomes.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
      </FormField>
      <FormField label="Visit summary" error={errors.summary} className="grow">
        <input type="text" value={summary} onChange={(e) => (setSummary(e.target.value), clearError('summary'))} />
      </FormField>
      <FormField label="Location" error={errors.rep_location_verification_status}>
        <select value={verification} onChange={(e) => (setVerification(e.target.value), clearError('rep_location_verification_status'))}>
          {VISIT_VERIFICATION_STATUSES.map((s) => <option key={s} value={s}>{s.replace(/_/g, ' ')}</option>)}
        </select>
      </FormField>
      <button type="submit" className="primary" disabled={saving}>{editing ? 'Save' : 'Record visit'}</button>
      {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
      <FormMessage error={errors._} />
    </form>
  );
}
