/**
 * Migration 11: the small account-wide lists of the sales pipeline (lead and
 * deal sources, loss reasons, unqualified reasons, each with a default set)
 * and collaborations.
 *
 * Sources share one table: a source is for leads or for deals
 * (`resource_type`), and its name is unique among sources of its kind.
 * `/v2/lead_sources` and `/v2/deal_sources` each show one kind, the older
 * `/v2/sources` both.
 */
const NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/** A list of names, each a row with no creator (the defaults every hub starts with). */
function defaults(table: string, names: string[], extra = ''): string {
  const rows = names.map((n) => `SELECT '${n}' AS name`).join(' UNION ALL ');
  return `INSERT INTO ${table} (name${extra ? ', resource_type' : ''}, created_at, updated_at)
SELECT name${extra ? `, '${extra}'` : ''}, ${NOW}, ${NOW} FROM (${rows});`;
}

/** Rows a migration inserts get a change-log entry, so devices receive them (see migration 7). */
const logged = (type: string, table: string) => `INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
SELECT '${type}', id, 'created', NULL, updated_at FROM ${table};`;

const namedList = (table: string) => `CREATE TABLE ${table} (
  id          INTEGER PRIMARY KEY,
  creator_id  INTEGER REFERENCES users(id),
  name        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);`;

export const sql = /* sql */ `
CREATE TABLE sources (
  id             INTEGER PRIMARY KEY,
  creator_id     INTEGER REFERENCES users(id),
  name           TEXT NOT NULL,
  resource_type  TEXT NOT NULL CHECK (resource_type IN ('lead', 'deal')),
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  UNIQUE (resource_type, name)
);
${defaults('sources', ['Word of mouth', 'Website', 'Referral', 'Trade show', 'Cold call'], 'lead')}
${defaults('sources', ['Word of mouth', 'Website', 'Referral', 'Trade show', 'Existing customer'], 'deal')}
${logged('source', 'sources')}

${namedList('loss_reasons')}
${defaults('loss_reasons', ['Too expensive', 'Chose a competitor', 'No budget', 'Bad timing', 'No response'])}
${logged('loss_reason', 'loss_reasons')}

${namedList('deal_unqualified_reasons')}
${defaults('deal_unqualified_reasons', ['Not a decision maker', 'No need', 'Duplicate'])}
${logged('deal_unqualified_reason', 'deal_unqualified_reasons')}

${namedList('lead_unqualified_reasons')}
${defaults('lead_unqualified_reasons', ['Not a fit', 'No budget', 'Could not reach', 'Duplicate'])}
${logged('lead_unqualified_reason', 'lead_unqualified_reasons')}

CREATE TABLE collaborations (
  id               INTEGER PRIMARY KEY,
  creator_id       INTEGER NOT NULL REFERENCES users(id),
  resource_type    TEXT NOT NULL CHECK (resource_type IN ('lead', 'contact', 'sales_account', 'deal')),
  resource_id      INTEGER NOT NULL,
  collaborator_id  INTEGER NOT NULL REFERENCES users(id),
  created_at       TEXT NOT NULL,
  updated_at       TEXT NOT NULL,
  UNIQUE (resource_type, resource_id, collaborator_id)
);
CREATE INDEX collaborations_collaborator ON collaborations(collaborator_id);
`;
