/**
 * The shapes of the custom-objects interface (/api/v2) as the UI reads them.
 * User ids are strings there, record ids ULID strings, times ISO 8601.
 */

export interface CustomObject {
  key: string;
  title: string;
  title_pluralized: string;
  description: string | null;
  /** The values as written (a `{{dc.…}}` placeholder stays as is): what an edit form starts from. */
  raw_title: string;
  raw_title_pluralized: string;
  raw_description: string | null;
  created_at: string;
  updated_at: string;
  created_by_user_id: string | null;
  updated_by_user_id: string | null;
  url: string;
}

export const FIELD_TYPES = ['text', 'textarea', 'integer', 'decimal', 'date', 'checkbox', 'regexp', 'dropdown', 'multiselect', 'lookup'] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

export const FIELD_TYPE_LABELS: Record<FieldType, string> = {
  text: 'Text',
  textarea: 'Multi-line text',
  integer: 'Number (whole)',
  decimal: 'Number (decimal)',
  date: 'Date',
  checkbox: 'Checkbox',
  regexp: 'Text matching a pattern',
  dropdown: 'Drop-down (one choice)',
  multiselect: 'Multi-select (several choices)',
  lookup: 'Lookup (link to a record)',
};

/** Types whose values are picked from `custom_field_options`. */
export const OPTION_TYPES: readonly string[] = ['dropdown', 'multiselect'];

export interface FieldOption {
  id: number;
  name: string;
  raw_name: string;
  value: string;
  position: number;
}

export interface CustomObjectField {
  id: number;
  key: string;
  type: string;
  title: string;
  raw_title: string;
  description: string | null;
  raw_description: string | null;
  position: number;
  active: boolean;
  /** The standard fields (`standard::name`, `standard::external_id`): not editable here, not in `custom_object_fields`. */
  system: boolean;
  regexp_for_validation: string | null;
  custom_field_options: FieldOption[] | null;
  relationship_target_type: string | null;
  url: string;
  created_at: string;
  updated_at: string;
}

export type FieldValue = string | number | boolean | string[] | null;

export interface CustomObjectRecord {
  id: string;
  name: string;
  external_id: string | null;
  custom_object_key: string;
  /** Every field key of the object, null when unset. Lookups hold the target's id as a string. */
  custom_object_fields: Record<string, FieldValue>;
  created_by_user_id: string | null;
  updated_by_user_id: string | null;
  created_at: string;
  updated_at: string;
  url: string;
}

export interface CursorMeta {
  has_more: boolean;
  after_cursor: string | null;
  before_cursor: string | null;
}

/** A page of records (the list and the search answer alike). */
export interface RecordPage {
  custom_object_records: CustomObjectRecord[];
  meta?: CursorMeta;
  links?: { prev: string | null; next: string | null };
}

/** Lookup targets of this CRM's own records and users; custom objects are `zen:custom_object:<key>`. */
export const CRM_TARGETS = [
  { type: 'sell:contact', label: 'Contact' },
  { type: 'sell:deal', label: 'Deal' },
  { type: 'sell:lead', label: 'Lead' },
  { type: 'zen:user', label: 'User' },
] as const;

const OBJECT_TARGET_PREFIX = 'zen:custom_object:';

export const objectTarget = (key: string) => `${OBJECT_TARGET_PREFIX}${key}`;

/** The custom object key a lookup target names, or null for a CRM record or a user. */
export function targetObjectKey(target: string): string | null {
  return target.startsWith(OBJECT_TARGET_PREFIX) ? target.slice(OBJECT_TARGET_PREFIX.length) : null;
}

/** "Contact", "User", or the object's title ("Car"), for a lookup's target. */
export function targetLabel(target: string | null, objects: readonly CustomObject[]): string {
  if (!target) return '';
  const crm = CRM_TARGETS.find((t) => t.type === target);
  if (crm) return crm.label;
  const key = targetObjectKey(target);
  return objects.find((o) => o.key === key)?.title ?? key ?? target;
}

/** The fields a record form and table show: the object's own, active ones, in their order. */
export function editableFields(fields: readonly CustomObjectField[]): CustomObjectField[] {
  return fields.filter((f) => !f.system && f.active).sort((a, b) => a.position - b.position || a.id - b.id);
}
