/** The resources a smart list can list: their list endpoints take `smart_list_id`. */
export const SMART_LIST_TYPES = ['contact', 'lead', 'deal', 'task'] as const;
export type SmartListType = (typeof SMART_LIST_TYPES)[number];

/**
 * A list screen's filters, sort and columns saved under a name (GET /v2/smart_lists).
 * `filters` are the list endpoint's own query parameters, values as they are
 * sent in a query (`{"customer_status": "current", "custom_fields[Region]": "West"}`).
 */
export interface SmartList {
  id: number;
  name: string;
  resource_type: SmartListType;
  filters: Record<string, string>;
  sort_by: string | null;
  columns: string[];
  shared: boolean;
  owner_id: number;
  created_at: string;
  updated_at: string;
}

/** Query parameters a smart list does not keep in `filters`: paging and counting are the screen's, the sort is `sort_by`. */
export const NOT_SAVED_PARAMS = ['page', 'per_page', 'count', 'sort_by', 'smart_list_id'] as const;
