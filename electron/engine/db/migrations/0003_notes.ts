/** Migration 3: notes, with full-text search on their content. */
export const sql = /* sql */ `
CREATE TABLE notes (
  id             INTEGER PRIMARY KEY,
  creator_id     INTEGER NOT NULL REFERENCES users(id),
  resource_type  TEXT NOT NULL CHECK (resource_type IN ('lead', 'contact', 'deal')),
  resource_id    INTEGER NOT NULL,
  content        TEXT NOT NULL,
  is_important   INTEGER NOT NULL DEFAULT 0,
  tags           TEXT NOT NULL DEFAULT '[]',   -- JSON array of labels
  type           TEXT NOT NULL DEFAULT 'regular' CHECK (type IN ('regular', 'restricted')),
  created_at     TEXT NOT NULL,
  updated_at     TEXT NOT NULL
);
CREATE INDEX notes_resource ON notes(resource_type, resource_id);
CREATE INDEX notes_creator ON notes(creator_id);
CREATE INDEX notes_updated ON notes(updated_at, id);

CREATE VIRTUAL TABLE notes_fts USING fts5(content, tokenize="unicode61 remove_diacritics 2", prefix='2 3');
CREATE TRIGGER notes_fts_insert AFTER INSERT ON notes BEGIN
  INSERT INTO notes_fts(rowid, content) VALUES (new.id, new.content);
END;
CREATE TRIGGER notes_fts_delete AFTER DELETE ON notes BEGIN
  DELETE FROM notes_fts WHERE rowid = old.id;
END;
CREATE TRIGGER notes_fts_update AFTER UPDATE OF content ON notes BEGIN
  DELETE FROM notes_fts WHERE rowid = old.id;
  INSERT INTO notes_fts(rowid, content) VALUES (new.id, new.content);
END;
`;
