import type { CustomFieldDefinition, CustomFieldValue } from '../../shared/resources/customField.js';
import type { FieldLabels } from '../api/formErrors.js';
import { AmountInput, amountText, amountWarning, apiAmount } from './AmountInput.js';
import { ChoiceChecks } from './ChoiceChecks.js';
import { FormField } from './FormField.js';

/** A custom field's name in a form's errors: `custom_fields.Size`, so its refusal shows by it. */
const keyOf = (name: string) => `custom_fields.${name}`;

/** The labels of the custom fields, by their names in the form's errors. */
export const customFieldLabels = (definitions: CustomFieldDefinition[]): FieldLabels =>
  Object.fromEntries(definitions.map((d) => [keyOf(d.name), d.name]));

/** `/custom_fields/Size` is the form's `custom_fields.Size`; every other field its own name. */
export const customFieldOf = (name: string, path: string[]) => (name === 'custom_fields' && path[1] ? keyOf(path[1]) : name);

/** What a record's custom fields send: numbers as typed are read as amounts in the rep's locale ("12,5" in Germany), exactly. */
export function customFieldsPayload(definitions: CustomFieldDefinition[], values: Record<string, CustomFieldValue>): Record<string, CustomFieldValue> {
  const numbers = new Set(definitions.filter((d) => d.type === 'number').map((d) => d.name));
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, numbers.has(name) && typeof value === 'string' ? apiAmount(value) : value]));
}

interface Props {
  definitions: CustomFieldDefinition[];
  values: Record<string, CustomFieldValue>;
  /** The form's errors: each custom field's by `custom_fields.<name>`, the group's by `custom_fields`. */
  errors: Record<string, string>;
  onChange(values: Record<string, CustomFieldValue>): void;
}

/**
 * The custom fields of a contact (and of a lead or deal) as a form's inputs:
 * a dropdown as a select, several choices as checkboxes, a number typed as
 * people type amounts, text as text.
 */
export function CustomFieldInputs({ definitions, values, errors, onChange }: Props) {
  if (definitions.length === 0) return null;
  const set = (name: string, value: CustomFieldValue) => onChange({ ...values, [name]: value === '' ? null : value });
  return (
    <fieldset className="custom-fields">
      <legend>Custom fields</legend>
      <div className="grid">
        {definitions.map((d) => {
          const value = values[d.name];
          const error = errors[keyOf(d.name)];
          if (d.type === 'multi_select_list') {
            return <ChoiceChecks key={d.id} legend={d.name} choices={(d.choices ?? []).map((c) => ({ value: c.name, label: c.name }))}
              chosen={Array.isArray(value) ? value : []} error={error} onChange={(chosen) => set(d.name, chosen)} />;
          }
          if (d.type === 'list') {
            return (
              <FormField key={d.id} label={d.name} error={error}>
                <select value={typeof value === 'string' ? value : ''} onChange={(e) => set(d.name, e.target.value)}>
                  <option value="">—</option>
                  {d.choices?.map((c) => <option key={c.id} value={c.name}>{c.name}</option>)}
                </select>
              </FormField>
            );
          }
          if (d.type === 'number') {
            const text = typeof value === 'number' ? amountText(value) : typeof value === 'string' ? value : '';
            return (
              <FormField key={d.id} label={d.name} error={error} warning={amountWarning(text, `the ${d.name.toLowerCase()}`)}>
                <AmountInput value={text} onChange={(typed) => set(d.name, typed)} />
              </FormField>
            );
          }
          return (
            <FormField key={d.id} label={d.name} error={error}>
              <input type="text" value={typeof value === 'string' ? value : ''} onChange={(e) => set(d.name, e.target.value)} />
            </FormField>
          );
        })}
      </div>
      {errors.custom_fields && <span className="field-error" role="alert">{errors.custom_fields}</span>}
    </fieldset>
  );
}
