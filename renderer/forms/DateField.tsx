import { FormField } from './FormField.js';
import { pickedValue, QUICK_PICKS, type DateKind } from './dates.js';

interface Props {
  label: string;
  kind?: DateKind;
  value: string;
  onChange(value: string): void;
  error?: string;
  /** Shown as the values change (a reminder after the due date), not only once the field is left. */
  warning?: string | null;
  min?: string;
}

/** A date (or date and time) field with quick picks under it (Today, Tomorrow, Next week): every date a form asks for. */
export function DateField({ label, kind = 'date', value, onChange, error, warning, min }: Props) {
  const picks = (
    <div className="quick-picks" role="group" aria-label="Quick picks">
      {QUICK_PICKS.map((pick) => (
        <button key={pick.label} type="button" className="chip" onClick={() => onChange(pickedValue(kind, pick.days, value, new Date()))}>{pick.label}</button>
      ))}
    </div>
  );
  return (
    <FormField label={label} error={error} warning={warning} live after={picks} className="date-field">
      <input type={kind} value={value} min={min} onChange={(e) => onChange(e.target.value)} />
    </FormField>
  );
}
