/**
 * Migration 13: leads and lead conversions.
 *
 * A lead carries the same text fields and address as a contact, plus its
 * organization's name, a free-text status, a lead source and an unqualified
 * reason. A conversion records what one lead became; `activities_pending`
 * marks a conversion whose lead's activities (tasks, notes, calls, …) have
 * not yet been moved to the new records: the background job
 * (resources/leadActivities.ts) clears it, and an engine that opens with
 * pending conversions finishes them.
 */
export const sql = /* sql */ `
CREATE TABLE leads (
  id                     INTEGER PRIMARY KEY,
  creator_id             INTEGER NOT NULL REFERENCES users(id),
  owner_id               INTEGER NOT NULL REFERENCES users(id),
  first_name             TEXT,
  last_name              TEXT,
  organization_name      TEXT,
  status                 TEXT NOT NULL DEFAULT 'New',
  source_id              INTEGER REFERENCES sources(id) ON DELETE SET NULL,
  unqualified_reason_id  INTEGER REFERENCES lead_unqualified_reasons(id) ON DELETE SET NULL,
  title TEXT, description TEXT, industry TEXT, website TEXT,
  email TEXT, phone TEXT, mobile TEXT, fax TEXT,
  twitter TEXT, facebook TEXT, linkedin TEXT, skype TEXT,
  address_line1 TEXT, address_city TEXT, address_postal_code TEXT, address_state TEXT, address_country TEXT,
  custom_fields          TEXT NOT NULL DEFAULT '{}',
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);
CREATE INDEX leads_updated ON leads(updated_at, id);
CREATE INDEX leads_created ON leads(created_at, id);
CREATE INDEX leads_last_name ON leads(last_name, id);
CREATE INDEX leads_first_name ON leads(first_name, id);
CREATE INDEX leads_organization_name ON leads(organization_name, id);
CREATE INDEX leads_email ON leads(email, id);
CREATE INDEX leads_status ON leads(status, updated_at, id);
CREATE INDEX leads_owner ON leads(owner_id);
CREATE INDEX leads_creator ON leads(creator_id);
CREATE INDEX leads_source ON leads(source_id);
CREATE INDEX leads_unqualified_reason ON leads(unqualified_reason_id);
CREATE INDEX leads_city ON leads(address_city);

-- Search as you type (extension 'q'): prefix matches on the names, email and phones.
CREATE VIRTUAL TABLE leads_fts USING fts5(name, email, phones, tokenize="unicode61 remove_diacritics 2", prefix='2 3');
CREATE TRIGGER leads_fts_insert AFTER INSERT ON leads BEGIN
  INSERT INTO leads_fts(rowid, name, email, phones)
    VALUES (new.id, concat_ws(' ', new.first_name, new.last_name, new.organization_name), new.email, phone_terms(new.phone, new.mobile));
END;
CREATE TRIGGER leads_fts_delete AFTER DELETE ON leads BEGIN
  DELETE FROM leads_fts WHERE rowid = old.id;
END;
CREATE TRIGGER leads_fts_update AFTER UPDATE OF first_name, last_name, organization_name, email, phone, mobile ON leads BEGIN
  DELETE FROM leads_fts WHERE rowid = old.id;
  INSERT INTO leads_fts(rowid, name, email, phones)
    VALUES (new.id, concat_ws(' ', new.first_name, new.last_name, new.organization_name), new.email, phone_terms(new.phone, new.mobile));
END;

-- No foreign keys on the created records: a conversion stays on record after its lead, contacts or deal are deleted.
CREATE TABLE lead_conversions (
  id                  INTEGER PRIMARY KEY,
  lead_id             INTEGER NOT NULL UNIQUE,
  individual_id       INTEGER,
  organization_id     INTEGER,
  deal_id             INTEGER,
  creator_id          INTEGER NOT NULL REFERENCES users(id),
  created_at          TEXT NOT NULL,
  activities_pending  INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX lead_conversions_individual ON lead_conversions(individual_id);
CREATE INDEX lead_conversions_organization ON lead_conversions(organization_id);
CREATE INDEX lead_conversions_deal ON lead_conversions(deal_id);
CREATE INDEX lead_conversions_creator ON lead_conversions(creator_id);
CREATE INDEX lead_conversions_pending ON lead_conversions(id) WHERE activities_pending = 1;
`;
