import { fillSearchIndexSql, SEARCH_INDEXES_32 } from '../searchIndexSql.js';

/**
 * Migration 32: the search indexes keep no copy of the text.
 *
 * An FTS5 table keeps, besides its index, a copy of every row's text in a
 * `_content` table, read only by FTS5's auxiliary functions (highlight,
 * snippet) and by a query that selects its columns; the engine uses neither:
 * it asks the index for rowids and reads its own tables. At a million
 * contacts that copy is about 100 MB (a tenth of a replica's file), written
 * again with every change of a name, and a replica's first sync builds and
 * copies it at its end (db/searchIndexes.ts). Contentless tables
 * (`content=''`) keep only the index; `contentless_delete=1` (SQLite 3.43)
 * lets the triggers go on deleting a row's entry by its rowid alone.
 *
 * Each index is made anew and filled from its table in big segments, as a
 * bulk load fills it (the rows are SEARCH_INDEXES', the same the triggers
 * write). The triggers name the tables and stay as they are.
 */
const TOKENIZE = `tokenize="unicode61 remove_diacritics 2", prefix='2 3'`;

export const sql = SEARCH_INDEXES_32.map((index) => /* sql */ `
DROP TABLE ${index.fts};
CREATE VIRTUAL TABLE ${index.fts} USING fts5(${index.columns}, ${TOKENIZE}, content='', contentless_delete=1);
${fillSearchIndexSql(index)}
`).join('');
