import type { CustomObjectField, CustomObjectRecord, FieldValue } from './types.js';
import { formatDay } from '../tasks/taskDates.js';
import { amountText } from '../forms/AmountInput.js';
import { parseAmount } from '../forms/amount.js';

/**
 * A field's value as its form control holds it: text for text-like, number,
 * date, drop-down and lookup fields ('' for none); a boolean (or null:
 * never set) for checkboxes; the chosen values for multi-selects.
 */
export type DraftValue = string | boolean | null | string[];

export interface RecordDraft {
  name: string;
  external_id: string;
  values: Record<string, DraftValue>;
}

function draftValueOf(field: CustomObjectField, value: FieldValue | undefined): DraftValue {
  if (field.type === 'checkbox') return typeof value === 'boolean' ? value : null;
  if (field.type === 'multiselect') return Array.isArray(value) ? value : [];
  if (value === null || value === undefined) return '';
  if (field.type === 'integer' || field.type === 'decimal') return amountText(String(value));
  return Array.isArray(value) ? value.join(', ') : String(value);
}

export function recordDraftOf(fields: readonly CustomObjectField[], record: CustomObjectRecord | null): RecordDraft {
  const values: Record<string, DraftValue> = {};
  for (const field of fields) values[field.key] = draftValueOf(field, record?.custom_object_fields[field.key]);
  return { name: record?.name ?? '', external_id: record?.external_id ?? '', values };
}

/**
 * What the interface gets for a field: numbers read as the rep types them
 * ("12,500.50"), whole numbers as numbers and decimals as exact decimal
 * strings (anything else as typed, for the interface to refuse by the
 * field), dates as YYYY-MM-DD, lookups as the target's id; an emptied field
 * as null, which clears it.
 */
function wireValueOf(field: CustomObjectField, value: DraftValue): FieldValue {
  if (typeof value === 'boolean' || value === null) return value;
  if (Array.isArray(value)) return value.length > 0 ? value : null;
  const text = field.type === 'textarea' || field.type === 'text' ? value : value.trim();
  if (text.trim() === '') return null;
  if (field.type !== 'integer' && field.type !== 'decimal') return text;
  const number = parseAmount(text);
  if (!number.ok) return text;
  return field.type === 'integer' && /^-?\d+$/.test(number.value) && Number.isSafeInteger(Number(number.value)) ? Number(number.value) : number.value;
}

const same = (a: FieldValue, b: FieldValue) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The body of a create or a PATCH: the name, the external id, and the field
 * values that differ from what the record had (every set one, on create). A
 * PATCH merges, so sending only changes leaves alone what the form did not
 * touch (an inactive field's value, say).
 */
export function recordPayloadOf(fields: readonly CustomObjectField[], initial: RecordDraft, draft: RecordDraft): Record<string, unknown> {
  const changed: Record<string, FieldValue> = {};
  for (const field of fields) {
    const before = wireValueOf(field, initial.values[field.key]);
    const after = wireValueOf(field, draft.values[field.key]);
    if (!same(before, after)) changed[field.key] = after;
  }
  const externalId = draft.external_id.trim() || null;
  const record: Record<string, unknown> = { name: draft.name.trim(), custom_object_fields: changed };
  if (externalId !== (initial.external_id.trim() || null)) record.external_id = externalId;
  return { custom_object_record: record };
}

/** A value as the records table shows it: choices by their names, checkboxes as Yes/No, dates as people write them. */
export function displayValue(field: CustomObjectField, value: FieldValue | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const optionName = (v: string) => field.custom_field_options?.find((o) => o.value === v)?.name ?? v;
  if (field.type === 'checkbox') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map(optionName).join(', ');
  if (field.type === 'dropdown') return optionName(String(value));
  if (field.type === 'date') return formatDay(String(value));
  return String(value);
}
