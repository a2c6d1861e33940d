import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_ASSOCIATED_CONTACT_ROLE, type AssociatedContact } from '../../shared/resources/deal.js';
import { api, ApiFailure } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { ContactPicker } from './ContactPicker.js';
import { useContactNames } from './useContactNames.js';

const failure = (err: unknown, fallback: string) => (err instanceof ApiFailure ? err.message : fallback);

/** The people and organizations involved in a deal, each with a role: listed, added, removed. */
export function AssociatedContacts({ dealId }: { dealId: number }) {
  const path = `/v2/deals/${dealId}/associated_contacts`;
  const [associated, setAssociated] = useState<AssociatedContact[]>([]);
  const [contactId, setContactId] = useState<number | null>(null);
  const [role, setRole] = useState(DEFAULT_ASSOCIATED_CONTACT_ROLE);
  const [pickerKey, setPickerKey] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const names = useContactNames(associated.map((a) => a.contact_id));

  const reload = useCallback(() => {
    api.list<AssociatedContact>(path, { per_page: 100 })
      .then((page) => setAssociated(page.items.map((i) => i.data)), (err) => setError(failure(err, 'The contacts could not be loaded.')));
  }, [path]);
  useEffect(reload, [reload]);
  useRefreshOnSync(reload);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (contactId === null) return;
    try {
      await api.create(path, { contact_id: contactId, role: role.trim() || DEFAULT_ASSOCIATED_CONTACT_ROLE });
      setContactId(null);
      setRole(DEFAULT_ASSOCIATED_CONTACT_ROLE);
      // A new key empties the picker's text too.
      setPickerKey((k) => k + 1);
      setError(null);
      reload();
    } catch (err) {
      setError(failure(err, 'The contact could not be added.'));
    }
  };

  const remove = async (id: number) => {
    try {
      await api.remove(`${path}/${id}`);
      setError(null);
      reload();
    } catch (err) {
      setError(failure(err, 'The contact could not be removed.'));
    }
  };

  const nameOf = (id: number) => names.get(id) ?? `Contact ${id}`;
  return (
    <section className="card associated-contacts" aria-label="Associated contacts">
      <h2>Contacts</h2>
      {associated.length === 0 ? <p className="muted">No contacts associated yet.</p> : (
        <ul className="plain-list">
          {associated.map((a) => (
            <li key={a.contact_id}>
              <span><Link to={`/contacts/${a.contact_id}`}>{nameOf(a.contact_id)}</Link> <span className="muted">{a.role}</span></span>
              <button type="button" className="link" aria-label={`Remove contact ${nameOf(a.contact_id)}`} onClick={() => void remove(a.contact_id)}>Remove</button>
            </li>
          ))}
        </ul>
      )}
      <form className="inline-form" onSubmit={add} aria-label="Associate a contact">
        <div className="grow"><ContactPicker key={pickerKey} label="Contact to add" value={contactId} onChange={setContactId} /></div>
        <label>
          Role
          <input type="text" value={role} onChange={(e) => setRole(e.target.value)} />
        </label>
        <button type="submit" disabled={contactId === null}>Add contact</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
    </section>
  );
}
