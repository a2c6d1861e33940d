import { useState } from 'react';
import type { Call } from '../../shared/resources/call.js';
import { useOutcomes } from './useOutcomes.js';
import { api } from '../api/client.js';
import { useFormSubmit } from '../api/useFormSubmit.js';
import { FormInputError } from '../api/formSubmit.js';
import { warningFor } from '../forms/checks.js';
import { FormField, FormMessage } from '../forms/FormField.js';
import { showPhone } from '../records/phoneFormat.js';
import { durationSeconds, durationText } from './activityText.js';

const CALL_LABELS = { phone_number: 'Phone number', summary: 'Summary', outcome_id: 'Outcome', duration: 'Length' };

interface Props {
  resource: { type: string; id: number };
  /** The record's number, pre-filled as every screen shows numbers. */
  phone: string;
  onSaved(): void;
  /** The call being corrected in place (else a new one is logged). */
  editing?: Call;
  /** Leaves the correction unsaved. */
  onCancel?(): void;
}

/** Log a call inline, or correct one in place: number (checked as typed), summary, outcome, length, direction. */
export function CallForm({ resource, phone, onSaved, editing, onCancel }: Props) {
  const shownNumber = (typed: string) => (typed ? showPhone(typed).text : '');
  const [phoneNumber, setPhoneNumber] = useState(() => shownNumber(editing?.phone_number ?? phone));
  const [summary, setSummary] = useState(editing?.summary ?? '');
  const [outcomeId, setOutcomeId] = useState(editing?.outcome_id ? String(editing.outcome_id) : '');
  const [length, setLength] = useState(editing ? durationText(editing.duration) ?? '' : '');
  const [incoming, setIncoming] = useState(editing?.incoming ?? false);
  const outcomes = useOutcomes('/v2/call_outcomes');

  const { saving, errors, clearError, submit } = useFormSubmit({ labels: CALL_LABELS, failure: 'The call could not be saved.', stays: true }, async () => {
    const duration = durationSeconds(length);
    if (duration === undefined) throw new FormInputError({ duration: 'Enter the length in minutes, such as 4 or 4:30.' });
    const fields = { summary: summary || null, outcome_id: outcomeId ? Number(outcomeId) : null, incoming };
    if (editing) {
      // The number as stored stays as the rep typed it unless they changed it here.
      const number = phoneNumber === shownNumber(editing.phone_number) ? {} : { phone_number: phoneNumber };
      await api.update(`/v2/calls/${editing.id}`, { ...fields, ...number, duration });
      onSaved();
      return;
    }
    // A call is about a lead or contact; a deal's calls name it among their associated deals.
    const about = resource.type === 'deal' ? { associated_deal_ids: [resource.id] } : { resource_type: resource.type, resource_id: resource.id };
    await api.create('/v2/calls', { ...about, ...fields, phone_number: phoneNumber, ...(duration === null ? {} : { duration }) });
    setSummary('');
    setOutcomeId('');
    setLength('');
    onSaved();
  });
  const changed = (field: string, set: (value: string) => void) => (value: string) => {
    set(value);
    clearError(field);
  };

  return (
    <form className="inline-form" onSubmit={submit} aria-label={editing ? 'Edit the call' : 'Log a call'} noValidate>
      <FormField label="Phone number" error={errors.phone_number} warning={warningFor('phone', phoneNumber)}>
        <input type="tel" value={phoneNumber} onChange={(e) => changed('phone_number', setPhoneNumber)(e.target.value)} />
      </FormField>
      <FormField label="Summary" error={errors.summary} className="grow">
        <input type="text" value={summary} onChange={(e) => changed('summary', setSummary)(e.target.value)} />
      </FormField>
      <FormField label="Outcome" error={errors.outcome_id}>
        <select value={outcomeId} onChange={(e) => changed('outcome_id', setOutcomeId)(e.target.value)}>
          <option value="">—</option>
          {outcomes.map((o) => <option key={o.id} value={o.id}>{o.name}</option>)}
        </select>
      </FormField>
      <FormField label="Length" error={errors.duration} className="call-length">
        <input type="text" inputMode="numeric" placeholder="min or m:ss" value={length} onChange={(e) => changed('duration', setLength)(e.target.value)} />
      </FormField>
      <label className="check"><input type="checkbox" checked={incoming} onChange={(e) => setIncoming(e.target.checked)} /> Incoming</label>
      <button type="submit" className="primary" disabled={saving}>{editing ? 'Save' : 'Log call'}</button>
      {onCancel && <button type="button" onClick={onCancel}>Cancel</button>}
      <FormMessage error={errors._} />
    </form>
  );
}
