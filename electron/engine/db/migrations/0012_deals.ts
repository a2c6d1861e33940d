/**
 * Migration 12: pipelines, their stages, deals and the contacts associated
 * with deals, with a default "Sales Pipeline" every hub starts with.
 *
 * `deals.value` is a decimal kept as its normalized text ("1000.25", "0"),
 * never a float: resources/decimal.ts parses, formats and sorts it exactly.
 * The reference columns keep the names the reason and source modules clear
 * when a reason or source is deleted (`source_id`, `loss_reason_id`,
 * `unqualified_reason_id`).
 */
const NOW = "strftime('%Y-%m-%dT%H:%M:%SZ', 'now')";

/** The default pipeline's stages: name, category, likelihood (percent). Position follows the order. */
const DEFAULT_STAGES: [string, string, number][] = [
  ['Incoming', 'incoming', 10],
  ['Qualified', 'in_progress', 25],
  ['Quote', 'in_progress', 50],
  ['Closure', 'in_progress', 75],
  ['Won', 'won', 100],
  ['Lost', 'lost', 0],
  ['Unqualified', 'unqualified', 0],
];

/** Won, lost and unqualified stages hold finished deals: they are not active. */
const stageRows = DEFAULT_STAGES.map(([name, category, likelihood], i) =>
  `SELECT '${name}' AS name, '${category}' AS category, ${i + 1} AS position, ${likelihood} AS likelihood, ${['incoming', 'in_progress'].includes(category) ? 1 : 0} AS active`,
).join(' UNION ALL ');

/** Rows a migration inserts get a change-log entry, so devices receive them (see migration 7). */
const logged = (type: string, table: string) => `INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
SELECT '${type}', id, 'created', NULL, updated_at FROM ${table};`;

/**
 * A deal's \`last_activity_at\`: the time of the newest note, task or call
 * recorded on it, kept by triggers so the notes, tasks and calls modules need
 * not know about deals. The deal counts as updated (devices receive the new
 * time) but its \`updated_at\` stays: an activity is not an edit of the deal.
 */
const activityTrigger = (table: string, when: string, dealIds: string, at: string, actor: string) => `CREATE TRIGGER deals_activity_${table} AFTER INSERT ON ${table} WHEN ${when} BEGIN
  UPDATE deals SET last_activity_at = MAX(COALESCE(last_activity_at, ''), ${at}) WHERE id IN (${dealIds});
  INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
    SELECT 'deal', id, 'updated', ${actor}, now_utc() FROM deals WHERE id IN (${dealIds});
END;`;

export const sql = /* sql */ `
CREATE TABLE pipelines (
  id          INTEGER PRIMARY KEY,
  name        TEXT NOT NULL UNIQUE,
  disabled    INTEGER NOT NULL DEFAULT 0,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);

CREATE TABLE stages (
  id           INTEGER PRIMARY KEY,
  pipeline_id  INTEGER NOT NULL REFERENCES pipelines(id),
  name         TEXT NOT NULL,
  category     TEXT NOT NULL CHECK (category IN ('incoming', 'in_progress', 'won', 'lost', 'unqualified')),
  position     INTEGER NOT NULL,
  likelihood   INTEGER NOT NULL DEFAULT 0 CHECK (likelihood BETWEEN 0 AND 100),
  active       INTEGER NOT NULL DEFAULT 1,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL,
  UNIQUE (pipeline_id, name)
);
CREATE INDEX stages_pipeline ON stages(pipeline_id, position);

INSERT INTO pipelines (name, created_at, updated_at) VALUES ('Sales Pipeline', ${NOW}, ${NOW});
INSERT INTO stages (pipeline_id, name, category, position, likelihood, active, created_at, updated_at)
SELECT (SELECT id FROM pipelines), name, category, position, likelihood, active, ${NOW}, ${NOW} FROM (${stageRows});
${logged('pipeline', 'pipelines')}
${logged('stage', 'stages')}

CREATE TABLE deals (
  id                         INTEGER PRIMARY KEY,
  creator_id                 INTEGER NOT NULL REFERENCES users(id),
  owner_id                   INTEGER NOT NULL REFERENCES users(id),
  name                       TEXT NOT NULL,
  value                      TEXT NOT NULL DEFAULT '0',
  currency                   TEXT NOT NULL,
  hot                        INTEGER NOT NULL DEFAULT 0,
  stage_id                   INTEGER NOT NULL REFERENCES stages(id),
  contact_id                 INTEGER REFERENCES contacts(id),
  organization_id            INTEGER REFERENCES contacts(id),
  source_id                  INTEGER REFERENCES sources(id),
  loss_reason_id             INTEGER REFERENCES loss_reasons(id),
  unqualified_reason_id      INTEGER REFERENCES deal_unqualified_reasons(id),
  dropbox_email              TEXT NOT NULL,
  last_stage_change_at       TEXT,
  last_stage_change_by_id    INTEGER REFERENCES users(id),
  last_activity_at           TEXT,
  estimated_close_date       TEXT,
  customized_win_likelihood  INTEGER CHECK (customized_win_likelihood BETWEEN 0 AND 100),
  added_on                   TEXT NOT NULL,
  custom_fields              TEXT NOT NULL DEFAULT '{}',
  created_at                 TEXT NOT NULL,
  updated_at                 TEXT NOT NULL
);
CREATE INDEX deals_stage ON deals(stage_id);
CREATE INDEX deals_contact ON deals(contact_id);
CREATE INDEX deals_organization ON deals(organization_id);
CREATE INDEX deals_owner ON deals(owner_id);

-- A surrogate id, so the sync protocol can serve each association as a record.
CREATE TABLE associated_contacts (
  id          INTEGER PRIMARY KEY,
  deal_id     INTEGER NOT NULL REFERENCES deals(id) ON DELETE CASCADE,
  contact_id  INTEGER NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
  role        TEXT NOT NULL,
  creator_id  INTEGER REFERENCES users(id),
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  UNIQUE (deal_id, contact_id)
);
CREATE INDEX associated_contacts_contact ON associated_contacts(contact_id);

${activityTrigger('notes', "NEW.resource_type = 'deal'", 'SELECT NEW.resource_id', 'NEW.created_at', 'NEW.creator_id')}
${activityTrigger('tasks', "NEW.resource_type = 'deal'", 'SELECT NEW.resource_id', 'NEW.created_at', 'NEW.creator_id')}
${activityTrigger('calls', "NEW.associated_deal_ids != '[]'", 'SELECT value FROM json_each(NEW.associated_deal_ids)', 'NEW.made_at', 'NEW.creator_id')}
`;
