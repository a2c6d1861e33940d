/**
 * Migration 1: accounts, users, OAuth clients and tokens, the change log,
 * tags, custom field definitions and contacts.
 * Migrations are additive: later ones add tables and columns, never drop.
 */
/** Also used by bulk loads, which drop it, fill the index in one statement, and put it back. */
export const CONTACTS_FTS_INSERT_TRIGGER = /* sql */ `CREATE TRIGGER contacts_fts_insert AFTER INSERT ON contacts BEGIN
  INSERT INTO contacts_fts(rowid, name, email, phones) VALUES (new.id, new.name, new.email, phone_terms(new.phone, new.mobile));
END;`;

export const sql = /* sql */ `
CREATE TABLE account (
  id            INTEGER PRIMARY KEY CHECK (id = 1),
  name          TEXT NOT NULL,
  currency      TEXT NOT NULL DEFAULT 'USD',
  phone         TEXT,
  time_format   TEXT NOT NULL DEFAULT '24H',
  timezone      TEXT NOT NULL DEFAULT 'UTC+00:00',
  plan          TEXT NOT NULL DEFAULT 'enterprise',
  created_at    TEXT NOT NULL,
  updated_at    TEXT NOT NULL
);

CREATE TABLE users (
  id             INTEGER PRIMARY KEY,
  name           TEXT NOT NULL,
  email          TEXT NOT NULL UNIQUE COLLATE NOCASE,
  phone_number   TEXT,
  role           TEXT NOT NULL CHECK (role IN ('user', 'admin')),
  status         TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'inactive')),
  invited        INTEGER NOT NULL DEFAULT 0,
  confirmed      INTEGER NOT NULL DEFAULT 1,
  timezone       TEXT NOT NULL DEFAULT 'UTC+00:00',
  identity_type  TEXT NOT NULL DEFAULT 'person',
  team_name      TEXT,
  reports_to     INTEGER REFERENCES users(id),
  password_hash  TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  deleted_at     TEXT
);

CREATE TABLE oauth_clients (
  client_id     TEXT PRIMARY KEY,
  name          TEXT NOT NULL,
  secret_hash   TEXT,            -- NULL for public clients (the built-in app client)
  redirect_uri  TEXT,
  first_party   INTEGER NOT NULL DEFAULT 0,
  created_at    TEXT NOT NULL
);

CREATE TABLE refresh_tokens (
  id           INTEGER PRIMARY KEY,
  token_hash   TEXT NOT NULL UNIQUE,
  user_id      INTEGER NOT NULL REFERENCES users(id),
  client_id    TEXT NOT NULL REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  scope        TEXT NOT NULL,
  created_at   TEXT NOT NULL,
  revoked_at   TEXT
);

-- Personal access tokens have no client and no expiry.
CREATE TABLE access_tokens (
  id                INTEGER PRIMARY KEY,
  token_hash        TEXT NOT NULL UNIQUE,
  user_id           INTEGER NOT NULL REFERENCES users(id),
  client_id         TEXT REFERENCES oauth_clients(client_id) ON DELETE CASCADE,
  refresh_token_id  INTEGER REFERENCES refresh_tokens(id) ON DELETE CASCADE,
  kind              TEXT NOT NULL CHECK (kind IN ('oauth', 'personal')),
  scope             TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  expires_at        TEXT,
  revoked_at        TEXT,
  first_used_at     TEXT
);

-- Which version of each materialised document shape the stored docs were built with (db/documents.ts).
CREATE TABLE document_versions (
  name     TEXT PRIMARY KEY,
  version  TEXT NOT NULL
);

-- Every mutation appends one row here in the same transaction (sync builds on it).
CREATE TABLE change_log (
  revision       INTEGER PRIMARY KEY AUTOINCREMENT,
  resource_type  TEXT NOT NULL,
  resource_id    INTEGER NOT NULL,
  event_type     TEXT NOT NULL CHECK (event_type IN ('created', 'updated', 'deleted')),
  actor_id       INTEGER,
  changed_at     TEXT NOT NULL
);
CREATE INDEX change_log_resource ON change_log(resource_type, resource_id);

CREATE TABLE tags (
  id             INTEGER PRIMARY KEY,
  name           TEXT NOT NULL,
  resource_type  TEXT NOT NULL CHECK (resource_type IN ('contact', 'lead', 'deal')),
  creator_id     INTEGER REFERENCES users(id),
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (resource_type, name)
);

CREATE TABLE taggings (
  tag_id         INTEGER NOT NULL REFERENCES tags(id) ON DELETE CASCADE,
  resource_type  TEXT NOT NULL,
  resource_id    INTEGER NOT NULL,
  PRIMARY KEY (resource_type, resource_id, tag_id)
) WITHOUT ROWID;
CREATE INDEX taggings_tag ON taggings(tag_id);

CREATE TABLE custom_field_definitions (
  id                INTEGER PRIMARY KEY,
  resource_type     TEXT NOT NULL CHECK (resource_type IN ('contact', 'lead', 'deal')),
  name              TEXT NOT NULL,
  type              TEXT NOT NULL CHECK (type IN ('number', 'string', 'list', 'multi_select_list')),
  filterable        INTEGER NOT NULL DEFAULT 1,
  for_contact       INTEGER NOT NULL DEFAULT 1,
  for_organization  INTEGER NOT NULL DEFAULT 1,
  choices           TEXT,   -- JSON array of {id, name} for list types
  created_at        TEXT NOT NULL,
  updated_at        TEXT NOT NULL,
  UNIQUE (resource_type, name)
);

CREATE TABLE contacts (
  id                      INTEGER PRIMARY KEY,
  creator_id              INTEGER NOT NULL REFERENCES users(id),
  owner_id                INTEGER NOT NULL REFERENCES users(id),
  is_organization         INTEGER NOT NULL DEFAULT 0,
  contact_id              INTEGER REFERENCES contacts(id),
  parent_organization_id  INTEGER REFERENCES contacts(id),
  -- organizations: their name; individuals: "first last", kept by the engine
  name                    TEXT,
  first_name              TEXT,
  last_name               TEXT,
  customer_status         TEXT NOT NULL DEFAULT 'none' CHECK (customer_status IN ('none', 'current', 'past')),
  prospect_status         TEXT NOT NULL DEFAULT 'none' CHECK (prospect_status IN ('none', 'current', 'lost')),
  title TEXT, description TEXT, industry TEXT, website TEXT,
  email TEXT, phone TEXT, mobile TEXT, fax TEXT,
  twitter TEXT, facebook TEXT, linkedin TEXT, skype TEXT,
  address_line1 TEXT, address_city TEXT, address_postal_code TEXT, address_state TEXT, address_country TEXT,
  billing_address_line1 TEXT, billing_address_city TEXT, billing_address_postal_code TEXT,
  billing_address_state TEXT, billing_address_country TEXT,
  shipping_address_line1 TEXT, shipping_address_city TEXT, shipping_address_postal_code TEXT,
  shipping_address_state TEXT, shipping_address_country TEXT,
  custom_fields           TEXT NOT NULL DEFAULT '{}',
  created_at              TEXT NOT NULL,
  updated_at              TEXT NOT NULL
);
-- Each contact's API JSON, kept current by db/documents.ts. A table of its own
-- keeps the contacts rows small for filtering and sorting.
CREATE TABLE contact_docs (
  id   INTEGER PRIMARY KEY,
  doc  TEXT NOT NULL
);
CREATE INDEX contacts_last_name ON contacts(last_name, id);
CREATE INDEX contacts_name ON contacts(name, id);
CREATE INDEX contacts_first_name ON contacts(first_name, id);
CREATE INDEX contacts_email ON contacts(email, id);
CREATE INDEX contacts_phone ON contacts(phone);
CREATE INDEX contacts_mobile ON contacts(mobile);
CREATE INDEX contacts_contact_id ON contacts(contact_id);
CREATE INDEX contacts_parent_org ON contacts(parent_organization_id);
CREATE INDEX contacts_owner ON contacts(owner_id);
CREATE INDEX contacts_creator ON contacts(creator_id);
CREATE INDEX contacts_city ON contacts(address_city);
CREATE INDEX contacts_statuses ON contacts(customer_status, prospect_status);
-- The list's everyday filters (kind, then a status) in the default sort order, so a page is read straight off an index.
CREATE INDEX contacts_kind ON contacts(is_organization, last_name, id);
CREATE INDEX contacts_kind_customer ON contacts(is_organization, customer_status, last_name, id);
CREATE INDEX contacts_kind_prospect ON contacts(is_organization, prospect_status, last_name, id);
CREATE INDEX contacts_updated ON contacts(updated_at, id);
CREATE INDEX contacts_created ON contacts(created_at, id);

-- Search-as-you-type (extension 'q'): prefix matches on names, email and phones.
-- Phones are indexed as written and as bare digits (digits() is registered by db/database.ts).
CREATE VIRTUAL TABLE contacts_fts USING fts5(name, email, phones, tokenize="unicode61 remove_diacritics 2", prefix='2 3');
${CONTACTS_FTS_INSERT_TRIGGER}
CREATE TRIGGER contacts_fts_delete AFTER DELETE ON contacts BEGIN
  DELETE FROM contacts_fts WHERE rowid = old.id;
END;
CREATE TRIGGER contacts_fts_update AFTER UPDATE OF name, email, phone, mobile ON contacts BEGIN
  DELETE FROM contacts_fts WHERE rowid = old.id;
  INSERT INTO contacts_fts(rowid, name, email, phones) VALUES (new.id, new.name, new.email, phone_terms(new.phone, new.mobile));
END;
`;
