import { useState } from 'react';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { DetailRow } from '../leads/Details.js';
import { useOwners } from './useOwners.js';
import './owners.css';

interface Props<T extends { owner_id: number }> {
  /** The record's path (`/v2/deals/7`): a change is a plain PUT there, queued and synced like any edit on a replica. */
  path: string;
  record: T;
  /** The record as saved, so the page shows it. */
  onSaved(record: T): void;
}

/**
 * A record page's "Owner" row: the owner's name, in a select labelled
 * "Owner" that gives the record to another active user at once. Any user
 * who may edit a contact, lead or deal may reassign it (the API's rule: the
 * new owner must be active); until the team is known, the name alone.
 */
export function OwnerField<T extends { owner_id: number }>({ path, record, onSaved }: Props<T>) {
  const { users, me, nameOf } = useOwners();
  const [saving, setSaving] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const choices = users.filter((u) => u.status === 'active' || u.id === record.owner_id);

  const change = async (ownerId: number) => {
    setSaving(true);
    setError(null);
    setSaved(false);
    try {
      onSaved(await api.update<T>(path, { owner_id: ownerId }));
      setSaved(true);
    } catch (err) {
      setError(refusalText(err, 'The owner could not be changed.'));
    } finally {
      setSaving(false);
    }
  };

  if (me === null || choices.length === 0) return <DetailRow label="Owner">{nameOf(record.owner_id) || '—'}</DetailRow>;
  return (
    <DetailRow label="Owner">
      <span className="owner-field">
        <select aria-label="Owner" value={record.owner_id} disabled={saving} onChange={(e) => void change(Number(e.target.value))}>
          {choices.map((u) => (
            // A deactivated owner is shown as it is, but a record cannot be given to one.
            <option key={u.id} value={u.id} disabled={u.status !== 'active'}>{u.status === 'active' ? u.name : `${u.name} (deactivated)`}</option>
          ))}
        </select>
        <span className="owner-saved muted" role="status">{saved ? 'Saved' : ''}</span>
        {error && <span className="field-error" role="alert">{error}</span>}
      </span>
    </DetailRow>
  );
}
