import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_ASSOCIATED_CONTACT_ROLE, type AssociatedContact, type Deal } from '../../shared/resources/deal.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { ContactPicker } from './ContactPicker.js';
import { useContactNames } from './useContactNames.js';
import { refusalText } from '../api/formErrors.js';
import { RecordSection } from '../records/RecordSection.js';

interface Entry {
  contact_id: number;
  role: string;
  /** The deal's own contact (changed on the deal, not here). */
  dealContact: boolean;
  /** Associated with the deal, so removable here. */
  associated: boolean;
}

/** The deal's contact first (unless associated too, then marked on its entry), then the associated contacts. */
function entriesOf(deal: Deal, associated: AssociatedContact[]): Entry[] {
  const main = deal.contact_id;
  const listed = associated.map((a) => ({ contact_id: a.contact_id, role: a.role, dealContact: a.contact_id === main, associated: true }));
  if (main === null || listed.some((e) => e.dealContact)) return listed;
  return [{ contact_id: main, role: '', dealContact: true, associated: false }, ...listed];
}

/**
 * The people and organizations involved in a deal: its own contact, and the
 * contacts associated with it, each with a role (added and removed here).
 */
export function AssociatedContacts({ deal }: { deal: Deal }) {
  const path = `/v2/deals/${deal.id}/associated_contacts`;
  const [associated, setAssociated] = useState<AssociatedContact[]>([]);
  const [contactId, setContactId] = useState<number | null>(null);
  const [role, setRole] = useState(DEFAULT_ASSOCIATED_CONTACT_ROLE);
  const [pickerKey, setPickerKey] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const entries = entriesOf(deal, associated);
  const names = useContactNames(entries.map((e) => e.contact_id));

  const reload = useCallback(() => {
    api.list<AssociatedContact>(path, { per_page: 100 })
      .then((page) => setAssociated(page.items.map((i) => i.data)), (err) => setError(refusalText(err, 'The contacts could not be loaded.')));
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
      setError(refusalText(err, 'The contact could not be added.'));
    }
  };

  const remove = async (id: number) => {
    try {
      await api.remove(`${path}/${id}`);
      setError(null);
      reload();
    } catch (err) {
      setError(refusalText(err, 'The contact could not be removed.'));
    }
  };

  const nameOf = (id: number) => names.get(id) ?? '…';
  return (
    <RecordSection title="Contacts" label="Associated contacts" count={entries.length} className="associated-contacts">
      {entries.length > 0 && (
        <ul className="plain-list">
          {entries.map((e) => (
            <li key={e.contact_id}>
              <span>
                <Link to={`/contacts/${e.contact_id}`}>{nameOf(e.contact_id)}</Link> <span className="muted">{e.role}</span>
                {e.dealContact && <span className="badge">Deal contact</span>}
              </span>
              {e.associated && <button type="button" className="link" aria-label={`Remove contact ${nameOf(e.contact_id)}`} onClick={() => void remove(e.contact_id)}>Remove</button>}
            </li>
          ))}
        </ul>
      )}
      {associated.length === 0 && <p className="muted">No other contacts associated yet.</p>}
      <form className="inline-form" onSubmit={add} aria-label="Associate a contact">
        <div className="grow"><ContactPicker key={pickerKey} label="Contact to add" value={contactId} onChange={setContactId} /></div>
        <label>
          Role
          <input type="text" value={role} onChange={(e) => setRole(e.target.value)} />
        </label>
        <button type="submit" disabled={contactId === null}>Add contact</button>
      </form>
      {error && <p className="form-error" role="alert">{error}</p>}
    </RecordSection>
  );
}
