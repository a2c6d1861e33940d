import { useEffect, useState } from 'react';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { api } from '../api/client.js';

interface Props {
  label: string;
  value: number | null;
  onChange(id: number | null): void;
  error?: string;
  /** Offers organizations only (a deal's organization). */
  organizationsOnly?: boolean;
}

const SEARCH_DELAY_MS = 150;

/**
 * Picks a contact, a person or an organization, by typing part of its name.
 * (contacts/OrganizationPicker is the contact form's organizations-only
 * twin; it could become `<ContactPicker organizationsOnly>`.)
 */
export function ContactPicker({ label, value, onChange, error, organizationsOnly = false }: Props) {
  const [text, setText] = useState('');
  const [options, setOptions] = useState<Contact[]>([]);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (value === null) return;
    let live = true;
    api.get<Contact>(`/v2/contacts/${value}`).then((c) => live && setText(contactDisplayName(c))).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [value]);

  useEffect(() => {
    if (!open || text.trim() === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api.list<Contact>('/v2/contacts', { q: text, is_organization: organizationsOnly || undefined, per_page: 8, sort_by: 'name' })
        .then((page) => live && setOptions(page.items.map((i) => i.data)))
        .catch(() => undefined);
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, open, organizationsOnly]);

  const choose = (contact: Contact) => {
    onChange(contact.id);
    setText(contactDisplayName(contact));
    setOpen(false);
  };

  return (
    <div className="field picker">
      <label>
        {label}
        <input type="text" value={text} aria-invalid={Boolean(error)} placeholder={`Type to search ${organizationsOnly ? 'organizations' : 'contacts'}`} autoComplete="off"
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            if (e.target.value === '') onChange(null);
          }} />
      </label>
      {open && options.length > 0 && (
        <ul className="suggestions" role="listbox" aria-label={`${label.replace(/ \*$/, '')} suggestions`}>
          {options.map((contact) => (
            <li key={contact.id} role="option" aria-selected={contact.id === value}>
              <button type="button" onClick={() => choose(contact)}>
                {contactDisplayName(contact)} <span className="muted">{contact.is_organization ? 'organization' : contact.title ?? ''}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <span className="field-error" role="alert">{error}</span>}
    </div>
  );
}
