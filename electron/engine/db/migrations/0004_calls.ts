/** Migration 4: call outcomes (with a default set) and calls. */
export const sql = /* sql */ `
CREATE TABLE call_outcomes (
  id          INTEGER PRIMARY KEY,
  creator_id  INTEGER REFERENCES users(id),   -- NULL for the defaults every hub starts with
  name        TEXT NOT NULL UNIQUE,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL
);
INSERT INTO call_outcomes (name, created_at, updated_at)
SELECT name, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), strftime('%Y-%m-%dT%H:%M:%SZ', 'now')
FROM (SELECT 'Interested' AS name UNION ALL SELECT 'Not interested' UNION ALL SELECT 'Left voicemail'
      UNION ALL SELECT 'No answer' UNION ALL SELECT 'Call back later' UNION ALL SELECT 'Wrong number');

CREATE TABLE calls (
  id                   INTEGER PRIMARY KEY,
  user_id              INTEGER NOT NULL REFERENCES users(id),
  creator_id           INTEGER NOT NULL REFERENCES users(id),
  summary              TEXT,
  recording_url        TEXT,
  outcome_id           INTEGER REFERENCES call_outcomes(id),
  duration             INTEGER,
  phone_number         TEXT NOT NULL,
  incoming             INTEGER NOT NULL DEFAULT 0,
  missed               INTEGER NOT NULL DEFAULT 0,
  resource_type        TEXT CHECK (resource_type IN ('lead', 'contact')),
  resource_id          INTEGER,
  associated_deal_ids  TEXT NOT NULL DEFAULT '[]',   -- JSON array of deal ids
  made_at              TEXT NOT NULL,
  external_id          TEXT,
  created_at           TEXT NOT NULL,
  updated_at           TEXT NOT NULL,
  CHECK ((resource_type IS NULL) = (resource_id IS NULL))
);
CREATE INDEX calls_made_at ON calls(made_at, id);
CREATE INDEX calls_resource ON calls(resource_type, resource_id, made_at);
CREATE INDEX calls_outcome ON calls(outcome_id);
`;
