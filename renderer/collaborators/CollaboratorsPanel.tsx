import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { api } from '../api/client.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useUsers } from './useUsers.js';
import { refusalText } from '../api/formErrors.js';
import { RecordSection } from '../records/RecordSection.js';

export type CollaborationResourceType = 'lead' | 'contact' | 'deal';

interface Collaboration {
  id: number;
  creator_id: number;
  resource_type: CollaborationResourceType | 'sales_account';
  resource_id: number;
  collaborator_id: number;
  created_at: string;
  updated_at: string;
}

/** The users a record is shared with (`/v2/collaborations`): listed, added one at a time, removed. */
export function CollaboratorsPanel({ resourceType, resourceId }: { resourceType: CollaborationResourceType; resourceId: number }) {
  const users = useUsers();
  const [collaborations, setCollaborations] = useState<Collaboration[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [chosen, setChosen] = useState('');
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(() => {
    api.list<Collaboration>('/v2/collaborations', { resource_type: resourceType, resource_id: resourceId, per_page: 100 })
      .then((page) => {
        setCollaborations(page.items.map((i) => i.data));
        setLoaded(true);
      }, (err) => setError(refusalText(err, 'The collaborators could not be loaded.')));
  }, [resourceType, resourceId]);
  useEffect(reload, [reload]);
  useRefreshOnSync(reload);

  const nameOf = (userId: number) => users.find((u) => u.id === userId)?.name ?? `User ${userId}`;
  const taken = new Set(collaborations.map((c) => c.collaborator_id));
  const candidates = users.filter((u) => !taken.has(u.id));

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!chosen) return;
    try {
      await api.create('/v2/collaborations', { resource_type: resourceType, resource_id: resourceId, collaborator_id: Number(chosen) });
      setChosen('');
      setError(null);
      reload();
    } catch (err) {
      setError(refusalText(err, 'The collaborator could not be added.'));
    }
  };

  const remove = async (collaboration: Collaboration) => {
    try {
      await api.remove(`/v2/collaborations/${collaboration.id}`);
      setError(null);
      reload();
    } catch (err) {
      setError(refusalText(err, 'The collaborator could not be removed.'));
    }
  };

  return (
    <RecordSection title="Collaborators" count={loaded ? collaborations.length : null} className="collaborators">
      {collaborations.length === 0 ? <p className="muted">Not shared with anyone yet.</p> : (
        <ul className="plain-list">
          {collaborations.map((c) => (
            <li key={c.id}>
              <span>{nameOf(c.collaborator_id)}</span>
              <button type="button" className="link" aria-label={`Remove collaborator ${nameOf(c.collaborator_id)}`} onClick={() => void remove(c)}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={add} aria-label="Add collaborator">
        <label className="grow">
          Collaborator
          <select value={chosen} onChange={(e) => setChosen(e.target.value)}>
            <option value="">Choose a user…</option>
            {candidates.map((u) => <option key={u.id} value={u.id}>{u.name}</option>)}
          </select>
        </label>
        <button type="submit" disabled={!chosen}>Add collaborator</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
    </RecordSection>
  );
}
