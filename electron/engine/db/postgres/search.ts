import { SEARCH_INDEXES } from '../searchIndexSql.js';

/**
 * Full-text `q` and the palette on a PostgreSQL hub: PostgreSQL's
 * own text search in place of SQLite's FTS5, answering the same records.
 *
 * Each FTS5 index of the SQLite schema (db/searchIndexes.ts: its name, and the
 * rows that fill it) becomes a table of that name: `id` (the record's) and
 * `terms`, a tsvector with a GIN index, kept by a trigger on the record's
 * table from the same rows. The engine's search statements run unchanged:
 * the translation (dialect.ts) turns `<index> MATCH ?` into `terms @@
 * fts_query(?)`, whose FTS5 expression becomes a tsquery (tsquery.ts), and
 * `rowid` into `id`.
 *
 * The words are made as FTS5's unicode61 tokenizer with remove_diacritics
 * makes them: split at punctuation and spaces (so an email is its parts),
 * accents removed (unaccent), lower case; a phone is its groups and its
 * digits' runs of seven or more up to its end (phone_terms), a name has a
 * column of its words' endings (name_parts): at most four columns, weights
 * A to D. Migration 35 (schema.ts) drops the tables of contacts, leads and
 * deals made with fewer terms: each is made and filled here again.
 */
const searchSql = (index: (typeof SEARCH_INDEXES)[number]): string => {
  const columns = index.columns.split(',').map((c) => c.trim());
  const table = /FROM (\w+)\s*$/.exec(index.rows)![1]!;
  const fill = (id: string) => `INSERT INTO ${index.fts} (id, terms)
    SELECT s.id, search_terms(${columns.map((c) => `s.${c}`).join(', ')}) FROM (${index.rows} WHERE id = ${id}) AS s(id, ${columns.join(', ')})`;
  return `
CREATE TABLE IF NOT EXISTS ${index.fts} (id bigint PRIMARY KEY, terms tsvector NOT NULL);
CREATE INDEX IF NOT EXISTS ${index.fts}_terms ON ${index.fts} USING gin (terms);
CREATE OR REPLACE FUNCTION ${index.fts}_keep() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN DELETE FROM ${index.fts} WHERE id = OLD.id; END IF;
  IF TG_OP <> 'DELETE' THEN ${fill('NEW.id')}; END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER ${index.fts}_keep AFTER INSERT OR UPDATE OR DELETE ON ${table} FOR EACH ROW EXECUTE FUNCTION ${index.fts}_keep();
-- Rows written before the index existed (a database copied in, or made by an older version).
INSERT INTO ${index.fts} (id, terms)
  SELECT s.id, search_terms(${columns.map((c) => `s.${c}`).join(', ')}) FROM (${index.rows}) AS s(id, ${columns.join(', ')})
  WHERE NOT EXISTS (SELECT 1 FROM ${index.fts} f WHERE f.id = s.id);`;
};

export const SEARCH = /* sql */ `
CREATE EXTENSION IF NOT EXISTS unaccent;

-- The words of a text: ASCII punctuation splits words (as FTS5's unicode61), accents go, lower case.
CREATE OR REPLACE FUNCTION search_words(part text) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT to_tsvector('simple', lower(unaccent(regexp_replace(coalesce(part, ''), '[!-/:-@\\[-\`{-~]+', ' ', 'g'))))
$$;

-- A record's words, each column's with its weight (A the first, the name), so a query may ask for one column (tsquery.ts).
CREATE OR REPLACE FUNCTION search_terms(VARIADIC parts text[]) RETURNS tsvector LANGUAGE sql STABLE AS $$
  SELECT setweight(search_words(parts[1]), 'A') || setweight(search_words(parts[2]), 'B') || setweight(search_words(parts[3]), 'C')
    || setweight(search_words(parts[4]), 'D')
$$;
${SEARCH_INDEXES.map(searchSql).join('\n')}
`;
