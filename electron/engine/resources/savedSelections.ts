import type { StatementCache } from '../db/statements.js';
import { invalidParam, problem } from '../problems.js';
import type { RawQuery } from './params.js';

/** What a smart list saves of a list query: its filters (query parameters) and its sort. */
export interface SavedSelection {
  filters: RawQuery;
  sortBy: string | null;
}

/**
 * SQL over a smart_lists alias: the user bound as `user` may see the list
 * (it is shared, or theirs). The API, the list layer and sync use this one rule.
 */
export const smartListVisibleTo = (alias: string, user: string) => `(${alias}.shared = 1 OR ${alias}.owner_id = ${user})`;

/**
 * The saved filters and sort of smart list `id`, for a list of `resource`
 * read by `viewerId`. A list the viewer may not see is answered as one that
 * does not exist (404), so private lists do not show through; one of another
 * resource is a 400 on `smart_list_id`, as any other bad parameter value.
 */
export function savedSelection(statements: StatementCache, id: number, resource: string, viewerId: number | undefined): SavedSelection {
  const row = statements.get(`SELECT s.resource_type, s.filters, s.sort_by FROM smart_lists s WHERE s.id = ? AND ${smartListVisibleTo('s', '?')}`)
    .get(id, viewerId ?? 0) as { resource_type: string; filters: string; sort_by: string | null } | undefined;
  if (!row) throw problem('not_found', `The smart list with id ${id} was not found.`, 'smart_list_id', 'smart_list');
  if (row.resource_type !== resource) throw invalidParam('smart_list_id', `smart list ${id} lists ${row.resource_type}s, not ${resource}s`);
  return { filters: JSON.parse(row.filters) as RawQuery, sortBy: row.sort_by };
}
