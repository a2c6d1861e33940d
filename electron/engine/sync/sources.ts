import type { Db, Statement } from '../db/database.js';

/**
 * How the records of one resource type are served to devices. Each resource
 * module declares its own (the same JSON its API answers with, and the same
 * visibility rule), so a device's copy is exactly what a GET would return.
 */
export interface SyncSource {
  /** `meta.type` of its items; also the change log's resource type. */
  type: string;
  /** FROM clause with the alias the JSON expression uses (`notes n`). */
  from: string;
  /** The record id over that alias (`n.id`). */
  idColumn: string;
  /** SQL expression building the record's API JSON. */
  json: string;
  /** SQL condition over the alias: the user bound as `@user` may see the record. Omitted: every user may. */
  visibleTo?: string;
  /**
   * Where the records are counted (a FROM clause with the same alias), when `from` reads something else: a
   * SQLite hub serves contacts from their stored documents (db/documents.ts), a table of ~1 KB rows with
   * no index to count on (360 ms at a million, against 25 ms over one of the contacts table's indexes).
   */
  records?: string;
  /** Finishes a record's JSON when it is served (documents sign a fresh download link). */
  decorate?: (json: string, origin: string) => string;
}

/** The sources of every type a device can read. */
export class SyncSources {
  private readonly sources = new Map<string, { source: SyncSource; fetch: Statement }>();

  constructor(db: Db, sources: SyncSource[]) {
    for (const source of sources) {
      const sql = `SELECT ${source.idColumn}, ${source.json} FROM ${source.from}
        WHERE ${source.idColumn} IN (SELECT CAST(value AS INTEGER) FROM json_each(@ids)) AND (${visibility(source)})`;
      this.sources.set(source.type, { source, fetch: db.prepare(sql).raw() });
    }
  }

  get types(): string[] {
    return [...this.sources.keys()];
  }

  /** The sources themselves (a test runs their JSON on another SQLite: test/engine/sqliteJson.test.ts). */
  list(): SyncSource[] {
    return [...this.sources.values()].map(({ source }) => source);
  }

  /**
   * SQL over a `record_revisions` alias: the record exists and `@user` may see
   * it. Types without a source count as visible, so they are not skipped in
   * silence but reported as failed objects.
   */
  visibleSql(alias: string): string {
    const cases = [...this.sources.values()].map(({ source }) =>
      `WHEN '${source.type}' THEN EXISTS (SELECT 1 FROM ${source.from} WHERE ${source.idColumn} = ${alias}.resource_id AND (${visibility(source)}))`,
    );
    return `(CASE ${alias}.resource_type ${cases.join(' ')} ELSE 1 = 1 END)`;
  }

  /** The types that have a source, as a SQL list (`'contact', 'task'`). */
  typesSql(): string {
    return this.types.map((type) => `'${type}'`).join(', ');
  }

  /**
   * SQL: how many records of the types with a source `@user` may see, as
   * the tables hold them now; one count per table, with no look-up per record.
   */
  visibleCountSql(): string {
    // Without a WHERE where every user may see all: SQLite then counts the table's smallest index instead of
    // reading its rows (a full read with `WHERE 1 = 1`).
    const where = (source: SyncSource) => (source.visibleTo === undefined ? '' : ` WHERE ${source.visibleTo}`);
    return [...this.sources.values()].map(({ source }) => `(SELECT COUNT(*) FROM ${source.records ?? source.from}${where(source)})`).join(' + ');
  }

  /** The JSON of the records among `ids` that the user may see, by id; null when the type has no source. */
  fetch(type: string, ids: number[], userId: number, origin: string): Map<number, string> | null {
    const entry = this.sources.get(type);
    if (!entry) return null;
    const rows = entry.fetch.all({ ids: JSON.stringify(ids), user: userId }) as [number, string][];
    const decorate = entry.source.decorate;
    return new Map(rows.map(([id, json]) => [id, decorate ? decorate(json, origin) : json]));
  }
}

function visibility(source: SyncSource): string {
  return source.visibleTo ?? '1 = 1';
}
