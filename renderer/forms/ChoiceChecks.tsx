import { useId } from 'react';

export interface Choice {
  value: string;
  label: string;
}

interface Props {
  legend: string;
  choices: Choice[];
  chosen: string[];
  onChange(chosen: string[]): void;
  error?: string;
}

/**
 * Several choices as a group of checkboxes (not a Ctrl-click list): a
 * multi-select custom field of a contact, lead or deal, and of a custom
 * object's record. Keeps the choices in the order they are offered.
 */
export function ChoiceChecks({ legend, choices, chosen, onChange, error }: Props) {
  const id = useId();
  // A value saved before its choice was removed stays chosen and shown, so saving does not drop it unseen.
  const shown = [...choices, ...chosen.filter((v) => !choices.some((c) => c.value === v)).map((v) => ({ value: v, label: v }))];
  const toggle = (value: string, on: boolean) => onChange(shown.map((c) => c.value).filter((v) => (v === value ? on : chosen.includes(v))));
  return (
    <fieldset className={`field choice-checks${error ? ' invalid' : ''}`} aria-invalid={Boolean(error)} aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      <div className="choice-list">
        {shown.map((c) => (
          <label key={c.value} className="check">
            <input type="checkbox" checked={chosen.includes(c.value)} onChange={(e) => toggle(c.value, e.target.checked)} />
            {c.label}
          </label>
        ))}
      </div>
      {error && <span id={`${id}-error`} className="field-error" role="alert">{error}</span>}
    </fieldset>
  );
}
