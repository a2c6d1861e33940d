/** Migration 5: text messages, visit outcomes (with a default set) and visits. */
export const sql = /* sql */ `
CREATE TABLE text_messages (
  id                     INTEGER PRIMARY KEY,
  user_id                INTEGER NOT NULL REFERENCES users(id),
  user_phone_number      TEXT,
  content                TEXT NOT NULL,
  incoming               INTEGER NOT NULL DEFAULT 0,
  resource_type          TEXT NOT NULL DEFAULT 'none' CHECK (resource_type IN ('lead', 'contact', 'none')),
  resource_id            INTEGER,
  resource_phone_number  TEXT,
  associated_deal_ids    TEXT NOT NULL DEFAULT '[]',
  send_at                TEXT NOT NULL,
  created_at             TEXT NOT NULL,
  updated_at             TEXT NOT NULL
);
CREATE INDEX text_messages_resource ON text_messages(resource_type, resource_id);

CREATE TABLE visit_outcomes (
  id          INTEGER PRIMARY KEY,
  creator_id  INTEGER REFERENCES users(id),
  name        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
INSERT INTO visit_outcomes (name, created_at, updated_at)
SELECT name, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
FROM (SELECT 'Met the decision maker' AS name UNION ALL SELECT 'Left materials' UNION ALL SELECT 'Nobody available'
      UNION ALL SELECT 'Follow-up scheduled' UNION ALL SELECT 'Not interested');

CREATE TABLE visits (
  id                                INTEGER PRIMARY KEY,
  creator_id                        INTEGER NOT NULL REFERENCES users(id),
  outcome_id                        INTEGER REFERENCES visit_outcomes(id),
  resource_type                     TEXT NOT NULL CHECK (resource_type IN ('lead', 'contact')),
  resource_id                       INTEGER NOT NULL,
  visited_at                        TEXT NOT NULL,
  resource_address                  TEXT,
  rep_location_verification_status  TEXT NOT NULL DEFAULT 'location_unknown' CHECK (rep_location_verification_status IN
    ('verified', 'resource_location_too_far', 'location_unknown', 'location_services_disabled')),
  summary                           TEXT,
  created_at                        TEXT NOT NULL,
  updated_at                        TEXT NOT NULL
);
CREATE INDEX visits_resource ON visits(resource_type, resource_id);
CREATE INDEX visits_visited ON visits(visited_at, id);
CREATE INDEX visits_creator ON visits(creator_id);
`;
