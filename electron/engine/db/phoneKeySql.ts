// The phone key's SQL, without imports: migration 33 indexes it (on both
// databases), resources/duplicates.ts groups and looks records up by it, and
// the phone filters of the lists find numbers through it (resources/listing.ts).
// A query uses an expression index only when it spells the indexed expression:
// changing the key means a new migration that builds its indexes again.

/**
 * A phone number's digits without the usual separators, as SQL. Spelled with
 * REPLACE so it runs alike on SQLite and PostgreSQL.
 */
export const phoneDigitsSql = (column: string) => ['+', ' ', '-', '(', ')', '.', '/'].reduce((sql, sign) => `replace(${sql}, '${sign}', '')`, column);

/**
 * The phone key: the last nine digits, so "+1 555 123 4567" and "(555) 123-4567"
 * meet whatever prefix (country code, trunk 0) each was typed with. SQLite's
 * substr counts a negative start from the end and gives a shorter text whole;
 * on PostgreSQL, whose substr does not, the statement translator writes it
 * `right(…, 9)` (db/postgres/dialect.ts), as its indexes are written.
 */
export const phoneKeySql = (column: string) => `substr(${phoneDigitsSql(column)}, -9)`;

/** The tables and columns whose phone keys are indexed, as `<table>_<column>_key`. */
const KEYED = ['contacts', 'leads'].flatMap((table) => ['phone', 'mobile'].map((column) => ({ table, column })));

/** The phone key indexes, in SQLite's spelling or PostgreSQL's. */
export function phoneKeyIndexesSql(dialect: 'sqlite' | 'postgres'): string {
  const key = (column: string) => (dialect === 'sqlite' ? phoneKeySql(column) : `right(${phoneDigitsSql(column)}, 9)`);
  return KEYED.map(({ table, column }) => `CREATE INDEX ${table}_${column}_key ON ${table} (${key(column)});`).join('\n');
}

/** Drops the phone key indexes and the plain phone indexes they replace (migration 33). */
export const phoneIndexesReplacedSql = [
  ...KEYED.map(({ table, column }) => `DROP INDEX ${table}_${column}_key;`),
  'DROP INDEX contacts_phone;',
  'DROP INDEX contacts_mobile;',
].join('\n');
