/**
 * Migration 29: smart lists (resources/smartLists.ts).
 *
 * A list screen's filters (the list endpoint's query parameters, a JSON
 * object of strings), sort and columns (a JSON array) saved under a name by
 * its owner, private or shared. Names need not be unique: two reps may both
 * have a "My hot leads". Rows sync to devices like other records (type
 * `smart_list`, each user receiving their own and the shared ones).
 */
export const sql = /* sql */ `
CREATE TABLE smart_lists (
  id             INTEGER PRIMARY KEY,
  name           TEXT NOT NULL,
  resource_type  TEXT NOT NULL,
  filters        TEXT NOT NULL DEFAULT '{}',
  sort_by        TEXT,
  columns        TEXT NOT NULL DEFAULT '[]',
  shared         INTEGER NOT NULL DEFAULT 0,
  owner_id       INTEGER NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX smart_lists_owner ON smart_lists(owner_id, resource_type);
CREATE INDEX smart_lists_shared ON smart_lists(shared, resource_type);
`;
