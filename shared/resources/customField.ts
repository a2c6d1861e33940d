/**
 * Custom field definitions (real service: GET /v2/:resource_type/custom_fields).
 * Outpost supports the four types the spec names as filterable:
 * Number (`number`), Single Line Text (`string`), Dropdown (`list`),
 * Multi Select (`multi_select_list`).
 */
export const CUSTOM_FIELD_TYPES = ['number', 'string', 'list', 'multi_select_list'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];
export type CustomFieldValue = string | number | string[] | null;

export const CUSTOM_FIELD_RESOURCE_TYPES = ['contact', 'lead', 'deal'] as const;
export type CustomFieldResourceType = (typeof CUSTOM_FIELD_RESOURCE_TYPES)[number];

export interface CustomFieldChoice {
  id: number;
  name: string;
}

export interface CustomFieldDefinition {
  id: number;
  resource_type: CustomFieldResourceType;
  name: string;
  type: CustomFieldType;
  /** Filterable fields can be used in `custom_fields[<name>]` filters and `sort_by=custom_fields:<name>`. */
  filterable: boolean;
  /** Contacts only: whether the field applies to individuals and/or organizations. */
  for_contact: boolean;
  for_organization: boolean;
  choices: CustomFieldChoice[] | null;
  created_at: string;
  updated_at: string;
}
