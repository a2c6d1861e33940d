/** Migration 6: documents (files kept under the data folder) and the key that signs their download links. */
export const sql = /* sql */ `
CREATE TABLE documents (
  id             INTEGER PRIMARY KEY,
  creator_id     INTEGER NOT NULL REFERENCES users(id),
  resource_type  TEXT NOT NULL CHECK (resource_type IN ('lead', 'contact', 'sales_account', 'deal')),
  resource_id    INTEGER NOT NULL,
  name           TEXT NOT NULL,
  content_type   TEXT NOT NULL,
  size           INTEGER NOT NULL,
  sha256         TEXT NOT NULL,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX documents_resource ON documents(resource_type, resource_id);

-- Secrets of this hub (the key signing download links), created on first open.
CREATE TABLE secrets (
  name   TEXT PRIMARY KEY,
  value  TEXT NOT NULL
);
`;
