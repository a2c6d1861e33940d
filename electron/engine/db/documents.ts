import { sha256Hex } from '../platform/crypto.js';
import type { Db } from './database.js';

/** Another table whose rows change a document (tags of a contact, say). */
export interface DocumentDependency {
  table: string;
  event: 'INSERT' | 'UPDATE' | 'DELETE';
  /** SQL selecting the ids of the documents to rebuild; may use NEW/OLD. */
  ids: string;
}

export interface DocumentSpec {
  /** Table holding the records. */
  table: string;
  /** Table holding their documents: `id INTEGER PRIMARY KEY, doc TEXT`. */
  docTable: string;
  /** Alias the JSON expression uses for the table. */
  alias: string;
  /** SQL expression building the record's API JSON. */
  json: string;
  dependencies: DocumentDependency[];
}

/** How a resource reads its records' API JSON, stored or built (`installDocuments`). */
export interface DocumentReads {
  /** Where records' JSON is read by id (the shape of a sync source): a FROM clause, its id column and JSON expression. */
  from: string;
  idColumn: string;
  json: string;
  /** The records' own table as a FROM clause with the spec's alias (counted there: its indexes make a count cheap). */
  records: string;
  /** SQL expression over the spec's alias: the JSON of the record of that row (a list's rows). */
  ofRow: string;
}

/**
 * Materialised API documents: each record's JSON is kept in a documents table,
 * rebuilt by triggers whenever the record or something it shows changes,
 * so reads (one record, list pages, sync queues) serve stored text instead
 * of rebuilding ~45 fields per row. Triggers (not service code) keep them
 * current, so no write path can forget. The triggers are re-created from
 * the code's JSON expression on every open; when that expression changed,
 * every document is rebuilt once.
 *
 * Stored documents pay off on a hub, where many readers share each write.
 * A desktop replica serves one person and loads a whole hub on its first
 * sync, where writing every contact twice (row and a ~1 KB document) was a
 * third of the work and of the file: with `stored` false the table is kept
 * empty and the JSON is built from the row when read (the same expression,
 * so the same JSON).
 */
const installed = new WeakMap<Db, Map<string, DocumentSpec>>();

export function installDocuments(db: Db, spec: DocumentSpec, stored = true): DocumentReads {
  const records = `${spec.table} ${spec.alias}`;
  // SQLite triggers keep the documents; a PostgreSQL hub builds the JSON when read, as a replica does.
  if (!stored || db.dialect !== 'sqlite') {
    db.transaction(() => {
      replaceTriggers(db, spec.table, []);
      db.exec(`DELETE FROM ${spec.docTable}`);
      db.prepare('DELETE FROM document_versions WHERE name = ?').run(spec.table);
    })();
    return { from: records, idColumn: `${spec.alias}.id`, json: spec.json, records, ofRow: spec.json };
  }
  const triggers = triggersOf(spec);
  const version = sha256Hex(triggers.join('\n'));
  db.transaction(() => {
    replaceTriggers(db, spec.table, triggers);
    const stored = db.prepare('SELECT version FROM document_versions WHERE name = ?').pluck().get(spec.table);
    if (stored !== version) {
      rebuildWhere(db, spec, '1 = 1');
      db.prepare('INSERT INTO document_versions (name, version) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET version = excluded.version').run(spec.table, version);
    }
  })();
  if (!installed.has(db)) installed.set(db, new Map());
  installed.get(db)!.set(spec.table, spec);
  // A scalar subquery rather than a join: SQLite reads the document only for rows past a list's OFFSET.
  return { from: `${spec.docTable} d`, idColumn: 'd.id', json: 'd.doc', records, ofRow: `(SELECT doc FROM ${spec.docTable} WHERE id = ${spec.alias}.id)` };
}

/**
 * For bulk loads (seeding, imports): runs `load` without the per-row
 * triggers, then builds the documents of the new rows (id >= firstNewId) in
 * one statement. Call inside the load's transaction.
 */
export function loadWithDeferredDocuments<T>(db: Db, table: string, firstNewId: number, load: () => T): T {
  const spec = installed.get(db)?.get(table);
  if (!spec) throw new Error(`no documents installed for ${table}`);
  replaceTriggers(db, table, []);
  const result = load();
  rebuildWhere(db, spec, `${spec.alias}.id >= ${Number(firstNewId)}`);
  replaceTriggers(db, table, triggersOf(spec));
  return result;
}

/** The statement that rebuilds the documents of the records matching `condition` (over the alias). */
function rebuildSql({ table, docTable, alias, json }: DocumentSpec, condition: string): string {
  // An upsert, not INSERT OR REPLACE: inside a trigger, the outer statement's OR clause
  // (INSERT OR IGNORE INTO taggings, say) would override REPLACE and keep the stale document.
  return `INSERT INTO ${docTable} (id, doc) SELECT ${alias}.id, ${json} FROM ${table} ${alias} WHERE ${condition} ON CONFLICT (id) DO UPDATE SET doc = excluded.doc`;
}

function rebuildWhere(db: Db, spec: DocumentSpec, condition: string): void {
  db.exec(rebuildSql(spec, condition));
}

function replaceTriggers(db: Db, table: string, triggers: string[]): void {
  const existing = db.prepare(`SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'doc\\_${table}\\_%' ESCAPE '\\'`).pluck().all() as string[];
  for (const name of existing) db.exec(`DROP TRIGGER ${name}`);
  for (const trigger of triggers) db.exec(trigger);
}

function triggersOf(spec: DocumentSpec): string[] {
  const { table, docTable, alias, dependencies } = spec;
  const rebuild = (ids: string) => `${rebuildSql(spec, `${alias}.id IN (${ids})`)};`;
  return [
    `CREATE TRIGGER doc_${table}_insert AFTER INSERT ON ${table} BEGIN ${rebuild('NEW.id')} END`,
    `CREATE TRIGGER doc_${table}_update AFTER UPDATE ON ${table} BEGIN ${rebuild('NEW.id')} END`,
    `CREATE TRIGGER doc_${table}_delete AFTER DELETE ON ${table} BEGIN DELETE FROM ${docTable} WHERE id = OLD.id; END`,
    ...dependencies.map((d, i) => `CREATE TRIGGER doc_${table}_dep${i} AFTER ${d.event} ON ${d.table} BEGIN ${rebuild(d.ids)} END`),
  ];
}
