import { newRecordId, type Actor, type EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type Clause, type FilterDef, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonObject } from '../db/sqlJson.js';
import type { SyncSource } from '../sync/sources.js';

/** A column of another table that holds ids of a list's entries (a call's `outcome_id`). */
export interface ListUse {
  table: string;
  column: string;
  /** The resource type of the referring records, logged as updated when an entry they name is deleted. */
  type: string;
}

/**
 * One of the account's small named lists: outcomes, reasons, sources. Each
 * entry is a name, and records refer to entries by id.
 */
export interface NamedListKind {
  /** `meta.type` of an entry: `call_outcome`, `loss_reason`, `source`. */
  type: string;
  table: string;
  usedBy: readonly ListUse[];
  /**
   * Lists whose entries are for one kind of record (sources: for leads or for
   * deals, in one table): the kinds an endpoint serves, the first being the
   * default for new entries.
   */
  kinds?: readonly string[];
  /**
   * Kinds whose names are unique among entries of the kind: only lead sources,
   * as the spec demands. Other entries may share a name, as in the real
   * service (whose Ruby client's tests name loss reasons by the second).
   */
  uniqueKinds?: readonly string[];
}

export const CALL_OUTCOMES: NamedListKind = { type: 'call_outcome', table: 'call_outcomes', usedBy: [{ table: 'calls', column: 'outcome_id', type: 'call' }] };
export const VISIT_OUTCOMES: NamedListKind = { type: 'visit_outcome', table: 'visit_outcomes', usedBy: [{ table: 'visits', column: 'outcome_id', type: 'visit' }] };
export const LOSS_REASONS: NamedListKind = { type: 'loss_reason', table: 'loss_reasons', usedBy: [{ table: 'deals', column: 'loss_reason_id', type: 'deal' }] };
export const DEAL_UNQUALIFIED_REASONS: NamedListKind = {
  type: 'deal_unqualified_reason', table: 'deal_unqualified_reasons', usedBy: [{ table: 'deals', column: 'unqualified_reason_id', type: 'deal' }],
};
export const LEAD_UNQUALIFIED_REASONS: NamedListKind = {
  type: 'lead_unqualified_reason', table: 'lead_unqualified_reasons', usedBy: [{ table: 'leads', column: 'unqualified_reason_id', type: 'lead' }],
};
const SOURCES = {
  type: 'source', table: 'sources', uniqueKinds: ['lead'],
  usedBy: [{ table: 'leads', column: 'source_id', type: 'lead' }, { table: 'deals', column: 'source_id', type: 'deal' }],
} as const satisfies Omit<NamedListKind, 'kinds'>;
/** `/v2/lead_sources`, `/v2/deal_sources`, and the older `/v2/sources` that shows both (new ones default to deal sources, as sources were before lead sources existed). */
export const LEAD_SOURCES: NamedListKind = { ...SOURCES, kinds: ['lead'] };
export const DEAL_SOURCES: NamedListKind = { ...SOURCES, kinds: ['deal'] };
export const ALL_SOURCES: NamedListKind = { ...SOURCES, kinds: ['deal', 'lead'] };

const entryJson = (kind: NamedListKind) => jsonObject({
  id: 'o.id', creator_id: 'o.creator_id', name: 'o.name', ...(kind.kinds ? { resource_type: 'o.resource_type' } : {}),
  created_at: 'o.created_at', updated_at: 'o.updated_at',
});

/** The entries of a list as devices receive them (sync/): one source per table, every kind. */
export function namedListSync(kind: NamedListKind): SyncSource {
  return { type: kind.type, from: `${kind.table} o`, idColumn: 'o.id', json: entryJson(kind) };
}

interface Entry {
  id: number;
  name: string;
  resource_type?: string;
}

/**
 * A named list as a REST resource: everyone reads (sorted by id unless
 * `sort_by` says otherwise, `name` an exact filter); writes are the routes'
 * to allow. Deleting an entry keeps the records that named it, without it.
 */
export class NamedList {
  private readonly list: ListDefinition;
  private readonly fields: FieldTable;
  private readonly entryJson: string;
  /** SQL condition limiting the table to the kinds this endpoint serves. */
  private readonly scope: Clause;

  constructor(private readonly ctx: EngineContext, readonly kind: NamedListKind) {
    this.entryJson = entryJson(kind);
    this.scope = kind.kinds
      ? { sql: `o.resource_type IN (${kind.kinds.map(() => '?').join(', ')})`, params: [...kind.kinds] }
      : { sql: '1 = 1', params: [] };
    const filters: Record<string, FilterDef> = { name: { kind: 'string', column: 'o.name' }, creator_id: { kind: 'id', column: 'o.creator_id' } };
    if (kind.kinds && kind.kinds.length > 1) filters.resource_type = { kind: 'enum', column: 'o.resource_type', values: kind.kinds };
    this.list = {
      resource: kind.type, from: `${kind.table} o`, json: this.entryJson, idColumn: 'o.id', filters,
      sorts: { id: 'o.id', name: 'o.name', created_at: 'o.created_at', updated_at: 'o.updated_at' },
      defaultOrder: 'o.id ASC', scope: [this.scope],
    };
    this.fields = {
      id: { kind: 'readOnly' }, creator_id: { kind: 'readOnly' }, created_at: { kind: 'readOnly' }, updated_at: { kind: 'readOnly' },
      name: { kind: 'string' },
      ...(kind.kinds ? { resource_type: { kind: 'enum', values: kind.kinds } } : {}),
    };
  }

  get syncSource(): SyncSource {
    return namedListSync(this.kind);
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  json(id: number): string {
    const json = this.ctx.statements.get(`SELECT ${this.entryJson} FROM ${this.kind.table} o WHERE o.id = ? AND ${this.scope.sql}`).pluck().get(id, ...this.scope.params) as string | undefined;
    if (json === undefined) throw notFound(this.kind.type, id);
    return json;
  }

  /** Whether an entry exists, of the given kind when the list has kinds (a lead's source must be a lead source). */
  exists(id: number, ofKind?: string): boolean {
    const entry = this.find(id);
    return entry !== undefined && (ofKind === undefined || entry.resource_type === ofKind);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const entry = this.check(data, { name: undefined, resource_type: this.kind.kinds?.[0] });
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      const id = newRecordId(this.ctx, this.kind.table, this.kind.type);
      const kindColumn = this.kind.kinds ? ', resource_type' : '';
      this.ctx.statements.get(`INSERT INTO ${this.kind.table} (id, creator_id, name${kindColumn}, created_at, updated_at) VALUES (?, ?, ?${kindColumn ? ', ?' : ''}, ?, ?)`)
        .run(id, actor.userId, entry.name, ...(this.kind.kinds ? [entry.resource_type] : []), now, now);
      this.ctx.changes.record(this.kind.type, id, 'created', actor.userId);
      return id;
    })();
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.find(id);
    if (!current || !this.inScope(current)) throw notFound(this.kind.type, id);
    const entry = this.check(data, current, id);
    this.ctx.db.transaction(() => {
      const kindColumn = this.kind.kinds ? ', resource_type = @resource_type' : '';
      this.ctx.statements.get(`UPDATE ${this.kind.table} SET name = @name${kindColumn}, updated_at = @now WHERE id = @id`)
        .run({ ...entry, id, now: isoSeconds(this.ctx.clock.now()) });
      this.ctx.changes.record(this.kind.type, id, 'updated', actor.userId);
    })();
  }

  /** Records that named this entry keep existing, without it (each logged as updated). */
  delete(id: number, actor: Actor): void {
    const current = this.find(id);
    if (!current || !this.inScope(current)) throw notFound(this.kind.type, id);
    const now = isoSeconds(this.ctx.clock.now());
    this.ctx.db.transaction(() => {
      for (const use of this.uses()) {
        const records = this.ctx.statements.get(`SELECT id FROM ${use.table} WHERE ${use.column} = ?`).pluck().all(id) as number[];
        this.ctx.statements.get(`UPDATE ${use.table} SET ${use.column} = NULL, updated_at = ? WHERE ${use.column} = ?`).run(now, id);
        for (const record of records) this.ctx.changes.record(use.type, record, 'updated', actor.userId);
      }
      this.ctx.statements.get(`DELETE FROM ${this.kind.table} WHERE id = ?`).run(id);
      this.ctx.changes.record(this.kind.type, id, 'deleted', actor.userId);
    })();
  }

  private find(id: number): Entry | undefined {
    return this.ctx.statements.get(`SELECT * FROM ${this.kind.table} WHERE id = ?`).get(id) as Entry | undefined;
  }

  private inScope(entry: Entry): boolean {
    return !this.kind.kinds || this.kind.kinds.includes(entry.resource_type!);
  }

  /** The referring columns whose tables exist (a list may be created before the records that use it). */
  private uses(): ListUse[] {
    const exists = this.ctx.statements.get("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?");
    return this.kind.usedBy.filter((use) => exists.get(use.table) !== undefined);
  }

  /** The entry after a create or update: a non-blank name (unique among its kind's if the kind demands it); an entry in use keeps its kind. */
  private check(data: Record<string, unknown>, current: Partial<Entry>, id = 0): Entry {
    const { values, errors } = checkFields(this.kind.type, this.fields, data);
    const entry = { ...current, ...values } as Entry;
    if (!errors.has('/name')) {
      if (values.name === undefined && current.name === undefined) errors.add('/name', 'missing', 'name is required.');
      else if (values.name !== undefined && isBlank(values.name)) errors.add('/name', 'blank', "name can't be blank.");
    }
    if (errors.empty) {
      entry.name = entry.name.trim();
      if (this.nameTaken(entry, id)) errors.add('/name', 'already_exists', `A ${entry.resource_type} ${this.kind.type.replaceAll('_', ' ')} named ${entry.name} already exists.`);
      if (id !== 0 && current.resource_type !== entry.resource_type && this.inUse(id)) {
        errors.add('/resource_type', 'incorrect_value', `This source is used by ${current.resource_type}s; its resource_type cannot change.`);
      }
    }
    errors.throwIfAny();
    return entry;
  }

  /** Whether another entry of a kind with unique names has this entry's name. */
  private nameTaken(entry: Entry, id: number): boolean {
    if (entry.resource_type === undefined || !this.kind.uniqueKinds?.includes(entry.resource_type)) return false;
    return this.ctx.statements.get(`SELECT 1 FROM ${this.kind.table} WHERE name = ? AND resource_type = ? AND id != ?`)
      .get(entry.name, entry.resource_type, id) !== undefined;
  }

  private inUse(id: number): boolean {
    return this.uses().some((use) => this.ctx.statements.get(`SELECT 1 FROM ${use.table} WHERE ${use.column} = ? LIMIT 1`).get(id) !== undefined);
  }
}
