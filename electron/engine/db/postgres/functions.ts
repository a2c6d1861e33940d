import { HUB_WRITE_LOCK } from './database.js';
import { PART_MARK } from '../searchIndexSql.js';

/**
 * SQLite's functions that the engine's SQL calls and PostgreSQL lacks,
 * defined in PostgreSQL under SQLite's names and with SQLite's answers, so the
 * statements that call them run unchanged (db/postgres/dialect.ts translates
 * the rest). JSON is stored as text, as on SQLite; paths are SQLite's
 * (`$.a.b`, `$."a b"`, `$[0]`, `$[#]` for "after the last element").
 *
 * Created or replaced each time a hub node opens the database, under the
 * hub's write lock: they are code, not data, so they follow the code's version.
 */
export const COMPAT_FUNCTIONS = /* sql */ `
-- ORDER BY … COLLATE NOCASE: compares without case, as SQLite's NOCASE.
DO $$ BEGIN
  CREATE COLLATION nocase (provider = icu, locale = 'und-u-ks-level2', deterministic = false);
EXCEPTION WHEN duplicate_object THEN NULL;
END $$;

-- A condition as SQLite reads one: 0 false, any other number true (dialect.ts wraps searched CASE conditions in it).
CREATE OR REPLACE FUNCTION truth(value boolean) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT value';
CREATE OR REPLACE FUNCTION truth(value bigint) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT value <> 0';
CREATE OR REPLACE FUNCTION truth(value integer) RETURNS boolean LANGUAGE sql IMMUTABLE AS 'SELECT value <> 0';

-- A SQLite JSON path as jsonb's path of keys and indexes. A quoted label is escaped as a JSON string (\\" for a quote,
-- as SQLite matches it against the stored key's JSON text): read as one.
CREATE OR REPLACE FUNCTION sqlite_json_path(path text) RETURNS text[] LANGUAGE sql IMMUTABLE STRICT AS $$
  SELECT coalesce(array_agg(coalesce(('"' || m[1] || '"')::jsonb #>> '{}', m[2], m[3]) ORDER BY n), '{}')
  FROM regexp_matches(substr(path, 2), '\\."((?:[^"\\\\]|\\\\.)*)"|\\.([^.\\[]+)|\\[(#|-?\\d+)\\]', 'g') WITH ORDINALITY AS t(m, n)
$$;

-- SQLite's value of a JSON value: strings unquoted, null as NULL, objects and arrays as JSON text.
CREATE OR REPLACE FUNCTION sqlite_json_value(value jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE jsonb_typeof(value) WHEN 'null' THEN NULL WHEN 'string' THEN value #>> '{}' ELSE value::text END
$$;

CREATE OR REPLACE FUNCTION sqlite_json_type(value jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE jsonb_typeof(value)
    WHEN 'string' THEN 'text'
    WHEN 'boolean' THEN value::text
    WHEN 'number' THEN CASE WHEN value::text ~ '^-?\\d+$' THEN 'integer' ELSE 'real' END
    ELSE jsonb_typeof(value) END
$$;

CREATE OR REPLACE FUNCTION json_extract(doc text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT sqlite_json_value(doc::jsonb #> sqlite_json_path(path))
$$;

CREATE OR REPLACE FUNCTION json_type(doc text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT sqlite_json_type(doc::jsonb #> sqlite_json_path(path))
$$;

CREATE OR REPLACE FUNCTION json_each(doc text) RETURNS TABLE (key text, value text, type text) LANGUAGE sql IMMUTABLE AS $$
  SELECT (n - 1)::text, sqlite_json_value(e), sqlite_json_type(e)
    FROM jsonb_array_elements(CASE WHEN jsonb_typeof(doc::jsonb) = 'array' THEN doc::jsonb ELSE '[]' END) WITH ORDINALITY AS a(e, n)
  UNION ALL
  SELECT k, sqlite_json_value(v), sqlite_json_type(v)
    FROM jsonb_each(CASE WHEN jsonb_typeof(doc::jsonb) = 'object' THEN doc::jsonb ELSE '{}' END) AS o(k, v)
$$;

CREATE OR REPLACE FUNCTION json_each(doc text, path text) RETURNS TABLE (key text, value text, type text) LANGUAGE sql IMMUTABLE AS $$
  SELECT * FROM json_each((doc::jsonb #> sqlite_json_path(path))::text)
$$;

CREATE OR REPLACE FUNCTION json_set(doc text, path text, value json) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_set(doc::jsonb, sqlite_json_path(path), coalesce(value::jsonb, 'null'), true)::text
$$;

CREATE OR REPLACE FUNCTION json_set(doc text, path text, value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT jsonb_set(doc::jsonb, sqlite_json_path(path), coalesce(to_jsonb(value), 'null'), true)::text
$$;

CREATE OR REPLACE FUNCTION json_remove(doc text, path text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT (doc::jsonb #- sqlite_json_path(path))::text
$$;

-- Only the form the engine uses: appending to an array ('$[#]').
CREATE OR REPLACE FUNCTION json_insert(doc text, path text, value bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT (doc::jsonb || to_jsonb(value))::text WHERE path = '$[#]'
$$;

CREATE OR REPLACE FUNCTION instr(haystack text, needle text) RETURNS integer LANGUAGE sql IMMUTABLE AS $$
  SELECT strpos(haystack, needle)
$$;

-- Only the form the engine uses: a number padded with zeros ('%02d').
CREATE OR REPLACE FUNCTION printf(format text, value bigint) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT lpad(value::text, substring(format FROM '^%0(\\d+)d$')::int, '0')
$$;

-- date(time, '+60 minutes'): the day of a stored UTC time, shifted (the only modifier form the reports use).
CREATE OR REPLACE FUNCTION date(value text, modifier text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT to_char(CAST(value AS timestamp) + CAST(modifier AS interval), 'YYYY-MM-DD')
$$;

-- The search terms of phones and of names' parts, as db/sqlFunctions.ts makes them on SQLite
-- (the one definition, spelled twice): each phone as written and its bare digits, then, marked
-- (PART_MARK), its digits from each position that leaves at least seven; each name word's endings of
-- three letters or more but the word itself, marked. Words are split as search_words splits them
-- (split into an array: regexp_split_to_table joined to generate_series took 4 ms a name).
CREATE OR REPLACE FUNCTION phone_terms(VARIADIC phones text[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(string_agg(p || ' ' || d || coalesce((
    SELECT string_agg(' ${PART_MARK}' || substr(d, i), '' ORDER BY i) FROM generate_series(1, char_length(d) - 6) AS i
  ), ''), ' '), '')
  FROM unnest(phones) AS p, regexp_replace(p, '\\D', '', 'g') AS d WHERE p <> ''
$$;

CREATE OR REPLACE FUNCTION name_parts(VARIADIC names text[]) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT coalesce(string_agg('${PART_MARK}' || substr(w, i), ' '), '')
  FROM unnest(regexp_split_to_array(array_to_string(names, ' '), '[\\s!-/:-@\\[-\`{-~]+')) AS w, generate_series(2, char_length(w) - 2) AS i
$$;
`;

/**
 * The hub's write lock on the change log and new record ids from sequences
 * (docs/design/postgres-hub.md, "The change log watermark"), then the SQLite
 * schema's triggers that keep data (not search: that is a later
 * phase), as PL/pgSQL: each record's latest revision for sync
 * (record_revisions, migration 7) and a deal's last activity (migration 12).
 * A deal's change is logged at the activity's own write time (its
 * updated_at): on SQLite the trigger asks the engine's clock, which a
 * PostgreSQL trigger cannot reach, and the two are the same instant.
 */
export const ENGINE_TRIGGERS = /* sql */ `
-- Revisions are taken under the hub's write lock, held to the commit, so they commit in order across
-- nodes: taken before the statement's rows get their revisions. postgres/database.ts takes it at BEGIN
-- already; this makes the order the log's own rule, whoever inserts (and wherever a transaction would
-- take the lock later). outpost.unsafe_no_write_lock is set (SET LOCAL) only by twoNodes.test.ts's unsafe run.
CREATE OR REPLACE FUNCTION change_log_write_lock() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF current_setting('outpost.unsafe_no_write_lock', true) IS DISTINCT FROM 'on' THEN
    PERFORM pg_advisory_xact_lock(${HUB_WRITE_LOCK});
  END IF;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER change_log_write_lock BEFORE INSERT ON change_log
  FOR EACH STATEMENT EXECUTE FUNCTION change_log_write_lock();

-- A new record's id, from its table's identity: never one a record ever had (record_revisions keeps
-- deleted records' ids), without reading under a lock. Ids written past the sequence by an explicit
-- insert (a seed, a copy) are stepped over with nextval, which only moves forward, as another node's
-- nextval at the same moment may (a setval could move it back under that node's feet).
CREATE OR REPLACE FUNCTION outpost_new_record_id(record_table text, record_type text) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  sequence text := pg_get_serial_sequence(record_table, 'id');
  id bigint := nextval(sequence);
  highest bigint;
BEGIN
  EXECUTE format('SELECT greatest((SELECT max(id) FROM %I), (SELECT max(resource_id) FROM record_revisions WHERE resource_type = $1))', record_table)
    INTO highest USING record_type;
  WHILE id <= coalesce(highest, 0) LOOP
    id := nextval(sequence);
  END LOOP;
  RETURN id;
END $$;

CREATE OR REPLACE FUNCTION change_log_latest_revision() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO record_revisions (revision, resource_type, resource_id) VALUES (NEW.revision, NEW.resource_type, NEW.resource_id)
    ON CONFLICT (resource_type, resource_id) DO UPDATE SET revision = excluded.revision;
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER change_log_latest_revision AFTER INSERT ON change_log
  FOR EACH ROW EXECUTE FUNCTION change_log_latest_revision();

CREATE OR REPLACE FUNCTION deals_activity() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  deal_ids bigint[];
  at text;
BEGIN
  IF TG_TABLE_NAME = 'calls' THEN
    deal_ids := ARRAY(SELECT CAST(value AS bigint) FROM json_each(NEW.associated_deal_ids));
    at := NEW.made_at;
  ELSE
    IF NEW.resource_type <> 'deal' THEN RETURN NULL; END IF;
    deal_ids := ARRAY[NEW.resource_id];
    at := NEW.created_at;
  END IF;
  UPDATE deals SET last_activity_at = greatest(coalesce(last_activity_at, ''), at) WHERE id = ANY (deal_ids);
  INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at)
    SELECT 'deal', id, 'updated', NEW.creator_id, NEW.updated_at FROM deals WHERE id = ANY (deal_ids);
  RETURN NULL;
END $$;
CREATE OR REPLACE TRIGGER deals_activity_notes AFTER INSERT ON notes FOR EACH ROW EXECUTE FUNCTION deals_activity();
CREATE OR REPLACE TRIGGER deals_activity_tasks AFTER INSERT ON tasks FOR EACH ROW EXECUTE FUNCTION deals_activity();
CREATE OR REPLACE TRIGGER deals_activity_calls AFTER INSERT ON calls FOR EACH ROW EXECUTE FUNCTION deals_activity();
`;
