// The search indexes' definitions and the SQL that fills them, without imports: the
// migrations (32) use them as db/searchIndexes.ts does, and that module imports the database's types.

/**
 * The full-text indexes (FTS5) behind `q`, kept current row by row by their
 * triggers (migrations 2, 3 and 35: searchTriggersSql), and how to build each
 * one for a whole table at once (a bulk load turns the triggers off and calls
 * `rebuildSearchIndexes`). The SQL functions phone_terms and name_parts
 * (db/sqlFunctions.ts; db/postgres/functions.ts) make the terms that find a
 * phone by any run of its last digits and a name by a word's middle.
 *
 * `name_parts` is a column of its own so that the palette's name tiers
 * (`name : …`, recordSearch.ts) still ask the name alone: a part of a word
 * is found by an unqualified query, and ranks below a word's start.
 *
 * Why these terms in the one word index rather than FTS5's trigram tokenizer
 * (docs/benchmarks.md, "Search by a part"): a trigram table would sit beside
 * the word index (the name tiers, the prefix queries and the lists' paging
 * driven by one index need it), so every search would join two tables' matches
 * word by word; it finds nothing under three characters and digits anywhere
 * rather than a number's last ones. The price measured: at a million contacts
 * this index is 2.2× the size and 3.7× the build (the trigram table beside
 * it: 2.7× the size, 2.2× the build), the palette's p95 unchanged.
 */
export const SEARCH_INDEXES = [
  {
    fts: 'contacts_fts', table: 'contacts', columns: 'name, email, phones, name_parts', watched: 'name, email, phone, mobile',
    rows: 'SELECT id, name, email, phone_terms(phone, mobile), name_parts(name) FROM contacts',
  },
  { fts: 'tasks_fts', table: 'tasks', columns: 'content', watched: 'content', rows: 'SELECT id, content FROM tasks' },
  { fts: 'notes_fts', table: 'notes', columns: 'content', watched: 'content', rows: 'SELECT id, content FROM notes' },
  {
    fts: 'leads_fts', table: 'leads', columns: 'name, email, phones, name_parts', watched: 'first_name, last_name, organization_name, email, phone, mobile',
    rows: "SELECT id, concat_ws(' ', first_name, last_name, organization_name), email, phone_terms(phone, mobile), name_parts(first_name, last_name, organization_name) FROM leads",
  },
  { fts: 'deals_fts', table: 'deals', columns: 'name, name_parts', watched: 'name', rows: 'SELECT id, name, name_parts(name) FROM deals' },
] as const;

/**
 * The first letter of the terms that find a part of something (a name
 * word's ending, a phone's run of last digits): a letter nobody types (the
 * Khoisan click U+01C2, a letter to FTS5's tokenizer and to PostgreSQL's
 * parser), so the words a user types, and their prefix queries of one to
 * three letters above all, never read these terms; only the queries made to
 * find a part do (resources/search.ts), by this letter and the typed text.
 */
export const PART_MARK = '\u01c2';

/**
 * The indexes as migration 32 made them, before migration 35 added the
 * name parts and the phones' digit suffixes: a shipped migration keeps
 * doing what it did (databases between the two are migrated by both).
 */
export const SEARCH_INDEXES_32 = [
  { fts: 'contacts_fts', table: 'contacts', columns: 'name, email, phones', rows: 'SELECT id, name, email, phone_terms(phone, mobile) FROM contacts' },
  { fts: 'tasks_fts', table: 'tasks', columns: 'content', rows: 'SELECT id, content FROM tasks' },
  { fts: 'notes_fts', table: 'notes', columns: 'content', rows: 'SELECT id, content FROM notes' },
  {
    fts: 'leads_fts', table: 'leads', columns: 'name, email, phones',
    rows: "SELECT id, concat_ws(' ', first_name, last_name, organization_name), email, phone_terms(phone, mobile) FROM leads",
  },
  { fts: 'deals_fts', table: 'deals', columns: 'name', rows: 'SELECT id, name FROM deals' },
] as const;

/**
 * Lets go of what a build of the search indexes left on the connection that
 * ran it, once committed. FTS5 keeps, per connection and index, a table of the
 * terms waiting to be written; a build (8 MiB at a time, REBUILD_HASH_BYTES)
 * grows it to hundreds of thousands of slots, it never shrinks, and every
 * prefix query scans all of them, empty as they are: the palette's searches
 * took 3× as long on the connection that built the indexes of 15 000 records
 * (0.84 ms against 0.27 natively, 1.25 against 0.52 in WebAssembly). Reloading
 * the schema reconnects the search tables, which starts that table afresh;
 * prepared statements are compiled again as they are next used, and TEMP
 * triggers and SQL functions stay.
 */
export const RECONNECT_SEARCH_INDEXES = 'PRAGMA writable_schema = RESET';

/** The FTS5 options every search index is made with (migrations 32 and 35). */
export const SEARCH_TOKENIZE = `tokenize="unicode61 remove_diacritics 2", prefix='2 3', content='', contentless_delete=1`;

/**
 * FTS5 keeps the terms of the rows it is given in memory and writes them out
 * as one segment when they pass this size (1 MiB by default). For a whole
 * table at once, bigger segments mean far less merging: at 100 000 contacts,
 * tasks and notes the build took about a third less time with 8 MiB.
 */
const REBUILD_HASH_BYTES = 8 * 1024 * 1024;
const DEFAULT_HASH_BYTES = 1024 * 1024;
/**
 * FTS5 merges segments after each write, four at a time by default (0: not
 * at all). For a whole table at once, leaving the segments to FTS5's own
 * "crisis" merge (sixteen at a time, when a level has that many) does the
 * same merging in fewer, bigger steps: a million contacts' index in 5.8–6.6 s
 * against 7.1–8.1 s, with 9 segments against 6 at the end and the same search
 * times (p50 0.2 ms, p95 12–15 ms). The writes after it merge the rest as they go.
 */
const DEFAULT_AUTOMERGE = 4;

export type SearchIndex = (typeof SEARCH_INDEXES)[number];
/** An index as some migration made it: its table and how its rows are filled. */
interface IndexShape { fts: string; columns: string; rows: string }

/** Sets an FTS5 option of the index `table` (`fts`, or `schema.fts`). */
const optionSql = (table: string, index: IndexShape, option: 'hashsize' | 'automerge', value: number) =>
  `INSERT INTO ${table} (${index.fts}, rank) VALUES ('${option}', ${value});`;

/**
 * How to add to the FTS5 index `table` (`fts`, or `schema.fts`) its source
 * table's rows in big segments merged in big steps: the options for it, the
 * insert of the rows (`where`: which of them, over the source table's `id`),
 * and FTS5's defaults set back after. Within one transaction, several inserts
 * fill the same segments as one would.
 */
export const searchFillParts = (index: IndexShape, table: string = index.fts) => ({
  before: [optionSql(table, index, 'hashsize', REBUILD_HASH_BYTES), optionSql(table, index, 'automerge', 0)],
  insert: (where = '') => `INSERT INTO ${table} (rowid, ${index.columns}) ${index.rows}${where};`,
  after: [optionSql(table, index, 'hashsize', DEFAULT_HASH_BYTES), optionSql(table, index, 'automerge', DEFAULT_AUTOMERGE)],
});

/** SQL that adds to the FTS5 index `table` its source table's rows (all, or those from id `firstId` on), as searchFillParts. */
export const fillSearchIndexSql = (index: IndexShape, table: string = index.fts, firstId?: number) => {
  const { before, insert, after } = searchFillParts(index, table);
  return [...before, insert(firstId === undefined ? '' : ` WHERE id >= ${Math.trunc(firstId)}`), ...after].join('\n');
};

/**
 * The triggers that keep one index current row by row, writing the same
 * terms as its bulk fill (the index's `rows`, for the one row), so the two
 * can never differ. A contentless index deletes an entry by its rowid alone.
 */
export function searchTriggersSql(index: SearchIndex): string {
  const { fts, table, columns, rows, watched } = index;
  const insert = `INSERT INTO ${fts} (rowid, ${columns}) ${rows} WHERE id = new.id;`;
  const remove = `DELETE FROM ${fts} WHERE rowid = old.id;`;
  return `
CREATE TRIGGER ${fts}_insert AFTER INSERT ON ${table} BEGIN
  ${insert}
END;
CREATE TRIGGER ${fts}_delete AFTER DELETE ON ${table} BEGIN
  ${remove}
END;
CREATE TRIGGER ${fts}_update AFTER UPDATE OF ${watched} ON ${table} BEGIN
  ${remove}
  ${insert}
END;`;
}
