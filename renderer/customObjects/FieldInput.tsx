import { FormField } from '../leads/FormField.js';
import { useCustomObjects } from './customObjectsStore.js';
import { LookupPicker } from './LookupPicker.js';
import type { DraftValue } from './recordDraft.js';
import { CRM_TARGETS, targetObjectKey, type CustomObjectField } from './types.js';

interface Props {
  field: CustomObjectField;
  value: DraftValue;
  error?: string;
  onChange(value: DraftValue): void;
}

/**
 * The form control for one field of a record, by the field's type. Numbers
 * are number inputs whose text goes to the interface as typed (decimals stay
 * exact), so a number of the wrong kind (2.5 for a whole number) is refused
 * there and shows by the field, as every other type's refusal. Text the
 * browser cannot read as a number at all is caught by the form
 * (`unreadableNumbers`), since the input then reports no value.
 */
export function FieldInput({ field, value, error, onChange }: Props) {
  const label = field.title;
  const invalid = Boolean(error);
  const text = typeof value === 'string' ? value : '';
  const hint = field.description ? <span className="muted hint">{field.description}</span> : null;

  switch (field.type) {
    case 'textarea':
      return (
        <FormField label={label} error={error}>
          <textarea rows={3} value={text} aria-invalid={invalid} onChange={(e) => onChange(e.target.value)} />
          {hint}
        </FormField>
      );
    case 'integer':
    case 'decimal':
      return (
        <FormField label={label} error={error}>
          <input type="number" step={field.type === 'integer' ? 1 : 'any'} inputMode={field.type === 'integer' ? 'numeric' : 'decimal'} value={text}
            data-field-key={field.key} aria-invalid={invalid} onChange={(e) => onChange(e.target.value)} />
          {hint}
        </FormField>
      );
    case 'date':
      return (
        <FormField label={label} error={error}>
          <input type="date" value={text} aria-invalid={invalid} onChange={(e) => onChange(e.target.value)} />
          {hint}
        </FormField>
      );
    case 'checkbox':
      return (
        <div className={`field${invalid ? ' invalid' : ''}`}>
          <label className="check">
            <input type="checkbox" checked={value === true} aria-invalid={invalid} onChange={(e) => onChange(e.target.checked)} />
            {label}
          </label>
          {hint}
          {error && <span className="field-error" role="alert">{error}</span>}
        </div>
      );
    case 'dropdown':
      return (
        <FormField label={label} error={error}>
          <select value={text} aria-invalid={invalid} onChange={(e) => onChange(e.target.value)}>
            <option value="">—</option>
            {(field.custom_field_options ?? []).map((o) => <option key={o.id} value={o.value}>{o.name}</option>)}
          </select>
          {hint}
        </FormField>
      );
    case 'multiselect':
      return <MultiSelect field={field} chosen={Array.isArray(value) ? value : []} error={error} onChange={onChange} />;
    case 'lookup':
      return <LookupField field={field} value={text} error={error} onChange={onChange} />;
    default:
      // text, regexp (the pattern shows as the placeholder), and any type this screen does not know yet.
      return (
        <FormField label={label} error={error}>
          <input type="text" value={text} aria-invalid={invalid} placeholder={field.type === 'regexp' ? field.regexp_for_validation ?? '' : undefined}
            spellCheck={field.type !== 'regexp'} onChange={(e) => onChange(e.target.value)} />
          {hint}
        </FormField>
      );
  }
}

/** Several choices, as a group of checkboxes (easier to use than a multiple select). */
function MultiSelect({ field, chosen, error, onChange }: { field: CustomObjectField; chosen: string[]; error?: string; onChange(value: string[]): void }) {
  const toggle = (v: string, on: boolean) => onChange(on ? [...chosen, v] : chosen.filter((c) => c !== v));
  return (
    <fieldset className={`field choice multiselect${error ? ' invalid' : ''}`} aria-invalid={Boolean(error)}>
      <legend>{field.title}</legend>
      {(field.custom_field_options ?? []).map((o) => (
        <label key={o.id} className="check">
          <input type="checkbox" checked={chosen.includes(o.value)} onChange={(e) => toggle(o.value, e.target.checked)} />
          {o.name}
        </label>
      ))}
      {error && <span className="field-error" role="alert">{error}</span>}
    </fieldset>
  );
}

function LookupField({ field, value, error, onChange }: { field: CustomObjectField; value: string; error?: string; onChange(value: string): void }) {
  const objects = useCustomObjects((s) => s.objects) ?? [];
  const target = field.relationship_target_type ?? '';
  const crm = CRM_TARGETS.find((t) => t.type === target);
  const objectKey = targetObjectKey(target);
  const noun = crm ? `${crm.label.toLowerCase()}s` : (objects.find((o) => o.key === objectKey)?.title_pluralized ?? 'records').toLowerCase();
  return <LookupPicker label={field.title} target={target} value={value || null} error={error} noun={noun} onChange={(id) => onChange(id ?? '')} />;
}

/** The keys of number fields whose text the browser cannot read as a number (it then reports an empty value). */
export function unreadableNumbers(form: HTMLFormElement): string[] {
  return [...form.querySelectorAll<HTMLInputElement>('input[type="number"][data-field-key]')]
    .filter((input) => input.validity.badInput)
    .map((input) => input.dataset.fieldKey ?? '');
}
