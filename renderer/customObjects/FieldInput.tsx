import { FormField } from '../forms/FormField.js';
import { AmountInput, amountWarning } from '../forms/AmountInput.js';
import { ChoiceChecks } from '../forms/ChoiceChecks.js';
import { DateField } from '../forms/DateField.js';
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
 * are typed as people type amounts ("12,500.50"; a warning while it is no
 * number) and go to the interface exactly (recordDraft.ts), so a number of
 * the wrong kind (2.5 for a whole number) is refused there and shows by the
 * field, as every other type's refusal.
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
        <FormField label={label} error={error} warning={amountWarning(text, `the ${label.toLowerCase()}`)} after={hint}>
          <AmountInput value={text} onChange={onChange} />
        </FormField>
      );
    case 'date':
      return (
        <DateField label={label} value={text} error={error} onChange={onChange} />
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

/** Several choices, as a group of checkboxes (the same as a contact's multi-select custom field). */
function MultiSelect({ field, chosen, error, onChange }: { field: CustomObjectField; chosen: string[]; error?: string; onChange(value: string[]): void }) {
  const choices = (field.custom_field_options ?? []).map((o) => ({ value: o.value, label: o.name }));
  return <ChoiceChecks legend={field.title} choices={choices} chosen={chosen} error={error} onChange={onChange} />;
}

function LookupField({ field, value, error, onChange }: { field: CustomObjectField; value: string; error?: string; onChange(value: string): void }) {
  const objects = useCustomObjects((s) => s.objects) ?? [];
  const target = field.relationship_target_type ?? '';
  const crm = CRM_TARGETS.find((t) => t.type === target);
  const objectKey = targetObjectKey(target);
  const noun = crm ? `${crm.label.toLowerCase()}s` : (objects.find((o) => o.key === objectKey)?.title_pluralized ?? 'records').toLowerCase();
  return <LookupPicker label={field.title} target={target} value={value || null} error={error} noun={noun} onChange={(id) => onChange(id ?? '')} />;
}
