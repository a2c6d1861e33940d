/**
 * Migration 34: people or organizations, by name.
 *
 * The contacts screen's default list is sorted by `name`, and its kind
 * control filters `is_organization`. With no index on both, SQLite read the
 * kind's index (half the table) and sorted it for each page: 3 s a page of
 * "People" at a million contacts, 0.2 s of "Organizations". It does so even
 * with exact statistics: its planner prices the filter's index below a walk
 * of `contacts_name` that would stop after a page. Walking this index, a page
 * takes 2–3 ms. It costs about 1 s of sorting on one thread at a million
 * contacts when built (a replica's first sync builds it at its end).
 */
export const sql = /* sql */ `
CREATE INDEX contacts_kind_name ON contacts (is_organization, name, id);
`;
