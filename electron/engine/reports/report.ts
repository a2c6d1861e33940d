import type { Actor, EngineContext } from '../context.js';
import type { RawQuery } from '../resources/params.js';
import type { CONVERTED_FIELDS } from '../../../shared/resources/report.js';

/** A row's fields in the account's currency: added to every report's rows in one place (reports.ts). */
export type ConvertedField = (typeof CONVERTED_FIELDS)[keyof typeof CONVERTED_FIELDS];
/** A row as its report computes it, before its money is converted. */
export type RawRow<Row> = Omit<Row, ConvertedField>;

/** One report: the parameters it takes, its rows, and its rows as CSV records (labels for people → cell). */
export interface Report<Row> {
  /** The query parameters it takes; any other is refused (400) before it runs. */
  params: readonly string[];
  rows(ctx: EngineContext, query: RawQuery, actor: Actor): RawRow<Row>[];
  /** One CSV record per row, every record with the same columns in the same order; `columns` names them when there is no row. */
  csv(rows: Row[]): { records: Record<string, string | number | null>[]; columns: string[] };
}

/** `c.owner_id = ?` when the report is one user's, nothing for the whole team. */
export function ownerClause(column: string, ownerId: number | null): { sql: string; params: number[] } {
  return ownerId === null ? { sql: '', params: [] } : { sql: ` AND ${column} = ?`, params: [ownerId] };
}

/** `Value (USD)` columns, one per currency of any row; a row without that currency reads 0.00. */
export function valueColumns(label: string, values: Record<string, string>, currencies: string[]): Record<string, string> {
  return Object.fromEntries(currencies.map((code) => [`${label} (${code})`, values[code] ?? '0.00']));
}
