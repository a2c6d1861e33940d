/**
 * Migration 20: a full-text index of deal names, for the command palette's
 * record search (resources/recordSearch.ts). Contacts and leads have theirs
 * since migrations 1 and 13; deals had none, and "every word of the input is
 * the beginning of a word of the name" cannot use a B-tree index.
 *
 * Kept current by triggers named `deals_fts_*`, so a replica's bulk load
 * (replica/bulkLoad.ts) turns them off with the others and
 * `rebuildSearchIndexes` (db/searchIndexes.ts) fills the index at the end.
 * No rows of a resource are inserted here, so no change-log entries.
 */
export const sql = /* sql */ `
CREATE VIRTUAL TABLE deals_fts USING fts5(name, tokenize="unicode61 remove_diacritics 2", prefix='2 3');
CREATE TRIGGER deals_fts_insert AFTER INSERT ON deals BEGIN
  INSERT INTO deals_fts(rowid, name) VALUES (new.id, new.name);
END;
CREATE TRIGGER deals_fts_delete AFTER DELETE ON deals BEGIN
  DELETE FROM deals_fts WHERE rowid = old.id;
END;
CREATE TRIGGER deals_fts_update AFTER UPDATE OF name ON deals BEGIN
  DELETE FROM deals_fts WHERE rowid = old.id;
  INSERT INTO deals_fts(rowid, name) VALUES (new.id, new.name);
END;
INSERT INTO deals_fts(rowid, name) SELECT id, name FROM deals;
`;
