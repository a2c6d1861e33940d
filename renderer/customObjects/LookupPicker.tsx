import { useEffect, useState } from 'react';
import { searchTarget, targetNames, type TargetOption } from './lookupTargets.js';

interface Props {
  label: string;
  /** `sell:contact`, `zen:user`, `zen:custom_object:car`… */
  target: string;
  /** The id of the record picked, as the lookup stores it; null for none. */
  value: string | null;
  onChange(id: string | null): void;
  error?: string;
  /** What the target is called ("contacts"), for the placeholder. */
  noun: string;
}

const SEARCH_DELAY_MS = 150;

/**
 * Picks the record a lookup points at by typing part of its name (as the
 * deal form's contact picker does), for any target: contacts, deals, leads,
 * users or another object's records. Shows the picked record's name, not
 * its id; clearing the text clears the lookup.
 */
export function LookupPicker({ label, target, value, onChange, error, noun }: Props) {
  const [text, setText] = useState('');
  const [options, setOptions] = useState<TargetOption[]>([]);
  const [open, setOpen] = useState(false);

  // The name of the record the lookup holds (when the form opens, or a record picked elsewhere).
  useEffect(() => {
    if (value === null) return;
    let live = true;
    targetNames(target, [value]).then((names) => live && setText(names.get(value) ?? '(deleted record)')).catch(() => undefined);
    return () => {
      live = false;
    };
  }, [target, value]);

  useEffect(() => {
    if (!open || text.trim() === '') return;
    let live = true;
    const timer = setTimeout(() => {
      searchTarget(target, text).then((found) => live && setOptions(found)).catch(() => undefined);
    }, SEARCH_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [target, text, open]);

  const choose = (option: TargetOption) => {
    onChange(option.id);
    setText(option.name);
    setOpen(false);
  };

  return (
    <div className={`field picker${error ? ' invalid' : ''}`}>
      <label>
        {label}
        <input type="text" value={text} aria-invalid={Boolean(error)} placeholder={`Type to search ${noun}`} autoComplete="off"
          onChange={(e) => {
            setText(e.target.value);
            setOpen(true);
            if (e.target.value === '') onChange(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Escape') setOpen(false);
          }} />
      </label>
      {open && text.trim() !== '' && options.length > 0 && (
        <ul className="suggestions" role="listbox" aria-label={`${label.replace(/ \*$/, '')} suggestions`}>
          {options.map((option) => (
            <li key={option.id} role="option" aria-selected={option.id === value}>
              <button type="button" onClick={() => choose(option)}>
                {option.name} {option.detail && <span className="muted">{option.detail}</span>}
              </button>
            </li>
          ))}
        </ul>
      )}
      {error && <span className="field-error" role="alert">{error}</span>}
    </div>
  );
}
