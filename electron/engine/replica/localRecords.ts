import { MultiRowInsert, valueTuples } from '../db/multiRowInsert.js';
import { compiledFunction } from '../platform/codegen.js';
import { reindexRow } from '../db/searchIndexes.js';
import type { SearchIndex } from '../db/searchIndexSql.js';
import type { EngineContext } from '../context.js';
import { Tagging, TAGGABLE_TYPES, type TaggableType } from '../resources/tags.js';
import { SEQUENCE_PARTS } from '../resources/sequences.js';
import { ENROLLMENT_PARTS } from '../resources/enrollments.js';
import { ACCOUNT_PARTS } from '../resources/account.js';

const isTaggable = (type: string): type is TaggableType => (TAGGABLE_TYPES as readonly string[]).includes(type);

/** Where a synced type lives in the replica's database. */
interface LocalTable {
  table: string;
  /** Its full-text index, keyed by rowid = record id. */
  fts?: SearchIndex['fts'];
  /**
   * Parts of the record kept outside its row (a sequence's steps), or columns its JSON only implies (the
   * account's SMTP URL): written after the row, removed with it.
   */
  parts?: { write(ctx: EngineContext, json: Record<string, unknown>): void; remove(ctx: EngineContext, id: number): void };
  /**
   * Columns unique together besides the id (a custom field's type and name). The hub keeps them unique,
   * but a queue serves each record once, at its latest revision: a field that gave its name away and
   * changed again later comes after the field that took the name. The row still holding it gives way
   * (removed here); its own later state comes further on.
   */
  uniqueKey?: string[];
  /** Only rows with these values hold `uniqueKey` unique (lead sources' names; deal sources may share one). */
  uniqueWhen?: Record<string, unknown>;
  /**
   * How the row holding the key gives way: removed (the default), or, where other rows refer to it (a
   * stage's deals, a template's steps), renamed for the while by its id, so nothing that refers to it changes.
   */
  giveWayBy?: 'removal' | 'renaming';
}

const LOCAL_TABLES: Record<string, LocalTable> = {
  account: { table: 'account', parts: ACCOUNT_PARTS },
  user: { table: 'users' },
  custom_field: { table: 'custom_field_definitions', uniqueKey: ['resource_type', 'name'] },
  contact: { table: 'contacts', fts: 'contacts_fts' },
  tag: { table: 'tags' },
  task: { table: 'tasks', fts: 'tasks_fts' },
  note: { table: 'notes', fts: 'notes_fts' },
  call: { table: 'calls' },
  call_outcome: { table: 'call_outcomes' },
  visit_outcome: { table: 'visit_outcomes' },
  text_message: { table: 'text_messages' },
  visit: { table: 'visits' },
  document: { table: 'documents' },
  lead: { table: 'leads', fts: 'leads_fts' },
  lead_conversion: { table: 'lead_conversions' },
  pipeline: { table: 'pipelines', uniqueKey: ['name'], giveWayBy: 'renaming' },
  stage: { table: 'stages', uniqueKey: ['pipeline_id', 'name'], giveWayBy: 'renaming' },
  deal: { table: 'deals', fts: 'deals_fts' },
  associated_contact: { table: 'associated_contacts' },
  source: { table: 'sources', uniqueKey: ['resource_type', 'name'], uniqueWhen: { resource_type: 'lead' } },
  loss_reason: { table: 'loss_reasons' },
  deal_unqualified_reason: { table: 'deal_unqualified_reasons' },
  lead_unqualified_reason: { table: 'lead_unqualified_reasons' },
  collaboration: { table: 'collaborations' },
  product: { table: 'products' },
  order: { table: 'orders' },
  line_item: { table: 'line_items' },
  email_template: { table: 'email_templates', uniqueKey: ['name'], giveWayBy: 'renaming' },
  sequence: { table: 'sequences', parts: SEQUENCE_PARTS, uniqueKey: ['name'], giveWayBy: 'renaming' },
  sequence_enrollment: { table: 'sequence_enrollments', parts: ENROLLMENT_PARTS },
  // A rate removed and set again comes back with a new id; the old row gives its currency way.
  exchange_rate: { table: 'exchange_rates', uniqueKey: ['currency'] },
  smart_list: { table: 'smart_lists' },
};

/** Whether a record's row holds its table's unique key (see LocalTable.uniqueWhen). */
const holdsKey = (local: LocalTable, json: Record<string, unknown>) =>
  Object.entries(local.uniqueWhen ?? {}).every(([column, value]) => json[column] === value);

/** Resource types that name records of another type (a sales account is an organization contact). */
const ALIASES: Record<string, string> = { sales_account: 'contact' };
const aliasesOf = (type: string) => [type, ...Object.keys(ALIASES).filter((alias) => ALIASES[alias] === type)];

/** Columns elsewhere that hold ids of a type's records: of a fixed type, or named by a type column beside them. */
type Reference = { table: string; column: string } & ({ type: string; list?: boolean } | { typeColumn: string });

const REFERENCES: Reference[] = [
  { table: 'contacts', column: 'contact_id', type: 'contact' },
  { table: 'contacts', column: 'parent_organization_id', type: 'contact' },
  { table: 'calls', column: 'outcome_id', type: 'call_outcome' },
  { table: 'visits', column: 'outcome_id', type: 'visit_outcome' },
  { table: 'taggings', column: 'tag_id', type: 'tag' },
  { table: 'leads', column: 'source_id', type: 'source' },
  { table: 'stages', column: 'pipeline_id', type: 'pipeline' },
  { table: 'deals', column: 'stage_id', type: 'stage' },
  { table: 'deals', column: 'contact_id', type: 'contact' },
  { table: 'deals', column: 'organization_id', type: 'contact' },
  { table: 'deals', column: 'source_id', type: 'source' },
  { table: 'deals', column: 'loss_reason_id', type: 'loss_reason' },
  { table: 'deals', column: 'unqualified_reason_id', type: 'deal_unqualified_reason' },
  { table: 'associated_contacts', column: 'deal_id', type: 'deal' },
  { table: 'associated_contacts', column: 'contact_id', type: 'contact' },
  { table: 'lead_conversions', column: 'lead_id', type: 'lead' },
  { table: 'lead_conversions', column: 'individual_id', type: 'contact' },
  { table: 'lead_conversions', column: 'organization_id', type: 'contact' },
  { table: 'lead_conversions', column: 'deal_id', type: 'deal' },
  { table: 'orders', column: 'deal_id', type: 'deal' },
  { table: 'line_items', column: 'order_id', type: 'order' },
  { table: 'line_items', column: 'product_id', type: 'product' },
  { table: 'sequence_steps', column: 'sequence_id', type: 'sequence' },
  { table: 'sequence_steps', column: 'email_template_id', type: 'email_template' },
  { table: 'sequence_enrollments', column: 'resource_id', typeColumn: 'resource_type' },
  { table: 'enrollment_steps', column: 'task_id', type: 'task' },
  // JSON arrays of ids.
  { table: 'calls', column: 'associated_deal_ids', type: 'deal', list: true },
  { table: 'text_messages', column: 'associated_deal_ids', type: 'deal', list: true },
  { table: 'leads', column: 'unqualified_reason_id', type: 'lead_unqualified_reason' },
  ...['tasks', 'notes', 'calls', 'visits', 'documents', 'text_messages', 'taggings', 'collaborations'].map((table) => ({ table, column: 'resource_id', typeColumn: 'resource_type' })),
];

/** Nested objects of the API stored as prefixed columns (`address.city` → `address_city`), longest prefix first. */
const NESTED = ['billing_address', 'shipping_address', 'address'];

/** A JSON shape's row statement and how to read its parameters' values from a record of that shape. */
interface RowPlan {
  insert: MultiRowInsert;
  values: (json: Record<string, unknown>) => unknown[];
}

/**
 * Rows a page writes in one statement (consecutive records of one shape). A
 * first sync writes a million contacts: one statement for several rows saves
 * the statement's run for each of the others (measured at 100 000 contacts:
 * 8 and 32 rows level, ~15 % below one at a time).
 */
const ROWS_PER_STATEMENT = 16;

interface Column {
  name: string;
  type: string;
  notnull: number;
  dflt_value: unknown;
  pk: number;
}

/**
 * The replica's copy of hub records in its ordinary tables, so its REST
 * interface and search work on them as on a hub. A record
 * is written from the JSON the hub serves: each column takes the field of
 * its name (booleans as 0/1, arrays and objects as JSON, `address.city` into
 * `address_city`); fields without a column (computed ones like `overdue`)
 * are skipped; the tags of contacts, leads and deals go through the taggings table.
 */
export class LocalRecords {
  private readonly columns = new Map<string, Column[]>();
  /** Per table, the plans of the JSON shapes seen so far (their keys in order). */
  private readonly plans = new Map<string, { keys: string[]; plan: RowPlan }[]>();
  private readonly tagging: Tagging;
  /** Inside writePage (rows are then held back to be written together). */
  private inPage = false;
  /** The plan of the shape whose rows a page holds back (consecutive records of one shape); null when none. */
  private pending: RowPlan | null = null;

  constructor(private readonly ctx: EngineContext) {
    this.tagging = new Tagging(ctx);
  }

  static knows(type: string): boolean {
    return Object.hasOwn(LOCAL_TABLES, type);
  }

  /**
   * Runs the writes of a page of pulled records (synchronous, inside its one
   * transaction) as a batch: each tag looked up once, and the rows of plain
   * records (no parts, no unique key besides the id) and their tag sets
   * written several at a time. Everything is written when it returns, and
   * before any other call of this object reads or writes (`writePending`).
   */
  writePage<T>(write: () => T): T {
    return this.tagging.batched(() => {
      this.inPage = true;
      try {
        const result = write();
        this.writePendingRows();
        return result;
      } finally {
        // Rows a failed page still held go with its transaction.
        this.pending?.insert.discard();
        this.inPage = false;
        this.pending = null;
      }
    });
  }

  /** Writes the hub's state of a record (insert or update). Call inside a transaction. */
  apply(type: string, json: Record<string, unknown>): void {
    const local = LOCAL_TABLES[type];
    if (!local) return;
    const plan = this.planFor(local.table, json);
    if (this.inPage && type !== 'tag' && !local.parts && !local.uniqueKey) {
      if (isTaggable(type) && Array.isArray(json.tags)) this.tagging.replace(type, json.id as number, json.tags as string[], 0);
      this.writeLater(plan, plan.values(json));
      return;
    }
    this.writePending();
    this.changingTagsIf(type);
    if (type === 'tag') this.adoptTag(json);
    if (local.uniqueKey && holdsKey(local, json)) this.giveWay(local, local.uniqueKey, json);
    if (isTaggable(type) && Array.isArray(json.tags)) this.tagging.replace(type, json.id as number, json.tags as string[], 0);
    plan.insert.run(plan.values(json));
    local.parts?.write(this.ctx, json);
  }

  /** Writes what a page holds back (writePage); a no-op outside one. */
  private writePending(): void {
    this.writePendingRows();
    this.tagging.writeDeferred();
  }

  /** Keeps a row of a page to write with the next ones of its shape. */
  private writeLater(plan: RowPlan, values: unknown[]): void {
    if (this.pending !== plan) this.writePendingRows();
    this.pending = plan;
    plan.insert.add(values);
  }

  private writePendingRows(): void {
    this.pending?.insert.flush();
    this.pending = null;
  }

  /** Removes a record the hub deleted (or no longer shows this user). Call inside a transaction. */
  remove(type: string, id: number): void {
    const local = LOCAL_TABLES[type];
    if (!local) return;
    this.writePending();
    this.changingTagsIf(type);
    this.ctx.statements.get(`DELETE FROM ${local.table} WHERE id = ?`).run(id);
    local.parts?.remove(this.ctx, id);
    if (isTaggable(type)) this.tagging.removeAll(type, id);
  }

  /**
   * A record created here got its hub id: the row and its search entry
   * move to it, and so does every reference to it. A copy
   * of the same record already pulled under the hub id gives way.
   */
  remap(type: string, from: number, to: number): void {
    const local = LOCAL_TABLES[type];
    if (!local) return;
    this.writePending();
    this.changingTagsIf(type);
    const { db } = this.ctx;
    db.prepare(`DELETE FROM ${local.table} WHERE id = ?`).run(to);
    db.prepare(`UPDATE ${local.table} SET id = ? WHERE id = ?`).run(to, from);
    if (local.fts) {
      // The index keeps no text (migration 32): the entry is made again from the row under its new id.
      db.prepare(`DELETE FROM ${local.fts} WHERE rowid = ?`).run(from);
      reindexRow(db, local.fts, to);
    }
    this.repoint(type, from, to, '');
  }

  /**
   * A record merged into another on the hub (resources/merging.ts): every
   * reference to it here names the survivor, and its row goes. Where the
   * survivor already has the twin of a row (both on one deal), the merged
   * record's row goes (the hub keeps one as well).
   */
  redirect(type: string, from: number, to: number): void {
    this.writePending();
    this.changingTagsIf(type);
    this.repoint(type, from, to, 'OR IGNORE');
    for (const ref of REFERENCES) {
      if ('type' in ref && ref.type === type && !ref.list) this.ctx.db.prepare(`DELETE FROM ${ref.table} WHERE ${ref.column} = ?`).run(from);
      if ('typeColumn' in ref) for (const alias of aliasesOf(type)) this.ctx.db.prepare(`DELETE FROM ${ref.table} WHERE ${ref.typeColumn} = ? AND ${ref.column} = ?`).run(alias, from);
    }
    this.remove(type, from);
  }

  /** Every reference to `from` names `to` (`conflict`: '' or 'OR IGNORE', for rows unique with the reference). */
  private repoint(type: string, from: number, to: number, conflict: '' | 'OR IGNORE'): void {
    const { db } = this.ctx;
    for (const ref of REFERENCES) {
      if ('type' in ref && ref.type === type) {
        db.prepare(ref.list
          ? `UPDATE ${conflict} ${ref.table} SET ${ref.column} = (SELECT json_group_array(CASE WHEN j.value = @from THEN @to ELSE j.value END) FROM json_each(${ref.column}) j)
              WHERE EXISTS (SELECT 1 FROM json_each(${ref.column}) j WHERE j.value = @from)`
          : `UPDATE ${conflict} ${ref.table} SET ${ref.column} = @to WHERE ${ref.column} = @from`).run({ from, to });
      }
      if (!('typeColumn' in ref)) continue;
      for (const alias of aliasesOf(type)) {
        db.prepare(`UPDATE ${conflict} ${ref.table} SET ${ref.column} = ? WHERE ${ref.typeColumn} = ? AND ${ref.column} = ?`).run(to, alias, from);
      }
    }
  }

  exists(type: string, id: number): boolean {
    this.writePending();
    const local = LOCAL_TABLES[type];
    return local !== undefined && this.ctx.statements.get(`SELECT 1 FROM ${local.table} WHERE id = ?`).get(id) !== undefined;
  }

  /**
   * The fields of a change to a record of `type` that hold ids of other
   * records, with the type of those records: the same table of references
   * the id rewrite uses. `resource_id` takes its type from the change's
   * `resource_type`, or from the record as it is here.
   */
  referencesOf(type: string, id: number, data: Record<string, unknown>): Record<string, string> {
    const table = LOCAL_TABLES[type]?.table;
    const fields: Record<string, string> = {};
    for (const ref of REFERENCES) {
      if (ref.table !== table) continue;
      const target = 'type' in ref ? ref.type : ((data[ref.typeColumn] as string | undefined) ?? this.resourceTypeOf(type, id));
      if (target) fields[ref.column] = ALIASES[target] ?? target;
    }
    return fields;
  }

  /** The current local row's `resource_type`, for resolving a change's `resource_id`. */
  private resourceTypeOf(type: string, id: number): string | null {
    const local = LOCAL_TABLES[type];
    if (!local || !this.columnsOf(local.table).some((c) => c.name === 'resource_type')) return null;
    this.writePending();
    return (this.ctx.statements.get(`SELECT resource_type FROM ${local.table} WHERE id = ?`).pluck().get(id) as string | null | undefined) ?? null;
  }

  /** A write to a tag itself (renamed, merged, removed): the tag ids a page kept may no longer hold. */
  private changingTagsIf(type: string): void {
    if (type === 'tag') this.tagging.forgetKeptTagIds();
  }

  /** A tag made here for a name the hub already has under its own id: its taggings move to the hub's tag. */
  private adoptTag(json: Record<string, unknown>): void {
    const { db } = this.ctx;
    const twin = db.prepare('SELECT id FROM tags WHERE resource_type = ? AND name = ? AND id <> ?').pluck().get(json.resource_type, json.name, json.id) as number | undefined;
    if (twin === undefined) return;
    db.prepare('DELETE FROM tags WHERE id = ?').run(twin);
    db.prepare('UPDATE OR IGNORE taggings SET tag_id = ? WHERE tag_id = ?').run(json.id, twin);
    db.prepare('DELETE FROM taggings WHERE tag_id = ?').run(twin);
  }

  /** Removes another row holding the record's unique key (see LocalTable.uniqueKey). */
  private giveWay(local: LocalTable, key: string[], json: Record<string, unknown>): void {
    const holder = `${key.map((c) => `${c} = ?`).join(' AND ')} AND id <> ?`;
    // The holder's own later state (further on in the queue) gives it its real name back.
    const statement = local.giveWayBy === 'renaming'
      ? `UPDATE ${local.table} SET name = name || ' #' || id || ' (renaming)' WHERE ${holder}`
      : `DELETE FROM ${local.table} WHERE ${holder}`;
    this.ctx.statements.get(statement).run(...key.map((c) => json[c]), json.id);
  }

  private columnsOf(table: string): Column[] {
    let columns = this.columns.get(table);
    if (!columns) {
      columns = this.ctx.db.prepare(`PRAGMA table_info(${table})`).all() as Column[];
      this.columns.set(table, columns);
    }
    return columns;
  }

  /**
   * How a record of this JSON shape (its set of fields) becomes a row, worked
   * out once per shape, since a first sync writes hundreds of thousands of
   * records of a few shapes: an INSERT … ON CONFLICT (id) DO UPDATE of the
   * columns the JSON gives (the others keep their value), and for each of them
   * how to read its value. NOT NULL columns the JSON cannot fill (a document's
   * checksum) get a neutral value on insert only.
   */
  private planFor(table: string, json: Record<string, unknown>): RowPlan {
    const known = this.plans.get(table) ?? [];
    // Compared key by key without building a list: this runs once per record of a first sync.
    for (const shape of known) if (hasKeys(json, shape.keys)) return shape.plan;
    const given: string[] = [];
    const fallbacks: Column[] = [];
    const values: ColumnRead[] = [];
    for (const column of this.columnsOf(table)) {
      const read = columnRead(json, column.name);
      if (read) {
        given.push(column.name);
        values.push(read);
      } else if (column.notnull && column.dflt_value === null && !column.pk) fallbacks.push(column);
    }
    for (const column of fallbacks) values.push({ neutral: /INT/i.test(column.type) ? 0 : '' });
    const columns = [...given, ...fallbacks.map((c) => c.name)];
    const update = given.filter((c) => c !== 'id').map((c) => `${c} = excluded.${c}`);
    const sql = (rows: number) => `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${valueTuples(rows, columns.length)}
      ON CONFLICT (id) DO UPDATE SET ${update.join(', ')}`;
    const plan = { insert: new MultiRowInsert(this.ctx.db, sql, columns.length, ROWS_PER_STATEMENT), values: rowReader(values) };
    this.plans.set(table, [...known, { keys: Object.keys(json), plan }]);
    return plan;
  }
}

/** True when the object's own keys are exactly these, in this order. */
function hasKeys(json: Record<string, unknown>, keys: string[]): boolean {
  let i = 0;
  for (const key in json) {
    if (key !== keys[i]) return false;
    i += 1;
  }
  return i === keys.length;
}

/** Where a column's value is in API JSON of one shape: a field, a field of a nested object, or a neutral value. */
type ColumnRead = { field: string; nested?: string } | { neutral: 0 | '' };

/** How to read a column's value from API JSON of this shape; null when the JSON has no field for it. */
function columnRead(json: Record<string, unknown>, column: string): ColumnRead | null {
  if (Object.hasOwn(json, column)) return { field: column };
  const prefix = NESTED.find((p) => column.startsWith(`${p}_`) && Object.hasOwn(json, p));
  return prefix ? { field: prefix, nested: column.slice(prefix.length + 1) } : null;
}

type RowReader = (json: Record<string, unknown>) => unknown[];

/**
 * One function that reads a row's values from a record. A first sync reads
 * forty-odd fields of each of a million records: as one closure per column,
 * each reading a field by a name held in a variable, that took 1.5 s of its
 * main thread; read by fixed names in one function compiled from source, 0.9 s.
 * The source holds only field names of the engine's own schema, each written
 * as a string literal (JSON.stringify), and the neutral values 0 and ''.
 * Where compiling is not allowed (the browser's worker), the closures.
 */
function rowReader(reads: ColumnRead[]): RowReader {
  const compiled = compiledFunction<RowReader>('storable', `return (r) => [${reads.map(readSource).join(', ')}];`);
  if (compiled) return compiled(storable);
  const readers = reads.map(readClosure);
  return (json) => readers.map((read) => read(json));
}

function readSource(read: ColumnRead): string {
  if ('neutral' in read) return JSON.stringify(read.neutral);
  const field = `r[${JSON.stringify(read.field)}]`;
  return read.nested === undefined ? `storable(${field})` : `storable(${field}?.[${JSON.stringify(read.nested)}] ?? null)`;
}

function readClosure(read: ColumnRead): (json: Record<string, unknown>) => unknown {
  if ('neutral' in read) return () => read.neutral;
  const { field, nested } = read;
  if (nested === undefined) return (json) => storable(json[field]);
  return (json) => storable((json[field] as Record<string, unknown> | null | undefined)?.[nested] ?? null);
}

function storable(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value;
}
