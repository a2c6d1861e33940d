import type { QueryValue } from '../../shared/bridge.js';
import type { SmartList, SmartListType } from '../../shared/resources/smartList.js';

/** Parameters of a screen's list query that are not its filters: paging, counting, and the sort (saved apart). */
const NOT_FILTERS = new Set(['page', 'per_page', 'count', 'sort_by', 'smart_list_id']);

/** Where each resource's list screen is; a smart list opens there with `?smart_list_id=`. */
export const LIST_PATHS: Record<SmartListType, string> = { contact: '/contacts', lead: '/leads', deal: '/deals/list', task: '/tasks' };
export const API_PATHS: Record<SmartListType, string> = { contact: '/v2/contacts', lead: '/v2/leads', deal: '/v2/deals', task: '/v2/tasks' };

export const smartListPath = (list: Pick<SmartList, 'id' | 'resource_type'>) => `${LIST_PATHS[list.resource_type]}?smart_list_id=${list.id}`;

/** A screen's list query as a smart list's `filters`: the parameters set, each as it is sent in a query. */
export function filtersOf(query: Record<string, QueryValue>): Record<string, string> {
  const filters: Record<string, string> = {};
  for (const [name, value] of Object.entries(query)) {
    if (NOT_FILTERS.has(name) || value === undefined || value === null || value === '') continue;
    filters[name] = Array.isArray(value) ? value.join(',') : String(value);
  }
  return filters;
}

/** The query's filters and sort as one comparable text: the same for the same view, whatever the order of its keys. */
export function viewKey(query: Record<string, QueryValue>): string {
  const filters = filtersOf(query);
  const sorted = Object.keys(filters).sort().map((name) => [name, filters[name]]);
  return JSON.stringify([sorted, query.sort_by ?? null]);
}

/**
 * What a list screen sends for a page: while an open smart list is shown as
 * saved (its view unchanged, `baseline`), the smart list itself by id, so the
 * hub answers exactly its saved filters (those the screen has no control for
 * too); once the rep changed a filter, the screen's own query.
 */
export function pageQuery(query: Record<string, QueryValue>, open: { list: SmartList | null; baseline: string | null }, resource: SmartListType): Record<string, QueryValue> {
  const { list, baseline } = open;
  if (!list || list.resource_type !== resource || baseline === null || baseline !== viewKey(query)) return query;
  const { page, per_page: perPage, count, sort_by: sortBy } = query;
  return { page, per_page: perPage, count, sort_by: sortBy, smart_list_id: list.id };
}

/** The smart list id the address names (`?smart_list_id=3`), or null. */
export function smartListIdIn(search: string): number | null {
  const value = new URLSearchParams(search).get('smart_list_id');
  return value !== null && /^-?\d+$/.test(value) ? Number(value) : null;
}
