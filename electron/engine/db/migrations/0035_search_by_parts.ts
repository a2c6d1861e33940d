import { fillSearchIndexSql, SEARCH_INDEXES, SEARCH_TOKENIZE, searchTriggersSql } from '../searchIndexSql.js';

/**
 * Migration 35: a name is found by a part of a word, a phone by the last
 * digits however they are typed.
 *
 * The indexes of contacts, leads and deals get a column `name_parts` (each
 * name word's endings, name_parts()), and their phones' terms each run of
 * the last seven digits or more (phone_terms(), db/sqlFunctions.ts). FTS5
 * cannot add a column to a table, so each is made anew and filled from its
 * table in big segments, as a bulk load fills it; its triggers are made anew
 * from the same definition (searchTriggersSql), so a row written later gets
 * the terms the fill gave the rows before it.
 */
const REBUILT = SEARCH_INDEXES.filter((index) => index.columns.includes('name_parts'));

export const sql = REBUILT.map((index) => /* sql */ `
DROP TRIGGER ${index.fts}_insert;
DROP TRIGGER ${index.fts}_delete;
DROP TRIGGER ${index.fts}_update;
DROP TABLE ${index.fts};
CREATE VIRTUAL TABLE ${index.fts} USING fts5(${index.columns}, ${SEARCH_TOKENIZE});
${searchTriggersSql(index)}
${fillSearchIndexSql(index)}
`).join('');
