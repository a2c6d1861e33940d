import { useEffect, useState } from 'react';
import type { Contact } from '../../shared/resources/contact.js';
import { api } from '../api/client.js';

interface Props {
  label: string;
  value: number | null;
  onChange(id: number | null): void;
  error?: string;
}

/** Picks an organization by typing part of its name (search as you type on organizations only). */
export function OrganizationPicker({ label, value, onChange, error }: Props) {
  const [text, setText] = useState('');
  const [options, setOptions] = useState<Contact[]>([]);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (value === null) return;
    let live = true;
    api.get<Contact>(`/v2/contacts/${value}`).then((org) => live && setText(org.name ?? '')).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [value]);

  useEffect(() => {
    if (!open || text.trim() === '') return;
    let live = true;
    const timer = setTimeout(() => {
      api.list<Contact>('/v2/contacts', { q: text, is_organization: true, per_page: 8, sort_by: 'name' })
        .then((page) => live && setOptions(page.items.map((i) => i.data)))
        .catch(() => undefined);
    }, 150);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [text, open]);

  return (
    <div className="field picker">
      <label>
        {label}
        <input type="text" value={text} aria-invalid={Boolean(error)} placeholder="Type to search organizations"
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            if (e.target.value === '') onChange(null);
          }} />
      </label>
      {open && options.length > 0 && (
        <ul className="suggestions" role="listbox" aria-label={`${label} suggestions`}>
          {options.map((org) => (
            <li key={org.id} role="option" aria-selected={org.id === value}>
              <button type="button" onClick={() => {
                onChange(org.id);
                setText(org.name ?? '');
                setOpen(false);
              }}>{org.name}</button>
            </li>
          ))}
        </ul>
      )}
      {error && <span className="field-error" role="alert">{error}</span>}
    </div>
  );
}
