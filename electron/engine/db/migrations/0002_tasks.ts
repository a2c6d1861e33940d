/** Migration 2: tasks, with full-text search on their content. */
export const sql = /* sql */ `
CREATE TABLE tasks (
  id             INTEGER PRIMARY KEY,
  creator_id     INTEGER NOT NULL REFERENCES users(id),
  owner_id       INTEGER NOT NULL REFERENCES users(id),
  resource_type  TEXT CHECK (resource_type IN ('lead', 'contact', 'deal')),
  resource_id    INTEGER,
  content        TEXT NOT NULL,
  completed      INTEGER NOT NULL DEFAULT 0,
  completed_at   TEXT,
  due_date       TEXT,
  remind_at      TEXT,
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL,
  CHECK ((resource_type IS NULL) = (resource_id IS NULL))
);
CREATE INDEX tasks_resource ON tasks(resource_type, resource_id);
CREATE INDEX tasks_owner_due ON tasks(owner_id, completed, due_date);
CREATE INDEX tasks_due ON tasks(completed, due_date);
CREATE INDEX tasks_remind ON tasks(remind_at) WHERE remind_at IS NOT NULL;
CREATE INDEX tasks_updated ON tasks(updated_at, id);
CREATE INDEX tasks_creator ON tasks(creator_id);

CREATE VIRTUAL TABLE tasks_fts USING fts5(content, tokenize="unicode61 remove_diacritics 2", prefix='2 3');
CREATE TRIGGER tasks_fts_insert AFTER INSERT ON tasks BEGIN
  INSERT INTO tasks_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER tasks_fts_delete AFTER DELETE ON tasks BEGIN
  DELETE FROM tasks_fts WHERE rowid = old.id;
END;
CREATE TRIGGER tasks_fts_update AFTER UPDATE OF content ON tasks BEGIN
  DELETE FROM tasks_fts WHERE rowid = old.id;
  INSERT INTO tasks_fts(rowid, content) VALUES (new.id, new.content);
END;
`;
