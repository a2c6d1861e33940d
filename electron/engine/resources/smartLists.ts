import type { Actor, EngineContext } from '../context.js';
import { ApiProblem, FieldErrors, forbidden, notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { checkListQuery, runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { smartListVisibleTo } from './savedSelections.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import type { SyncSource } from '../sync/sources.js';
import { NOT_SAVED_PARAMS, SMART_LIST_TYPES, type SmartListType } from '../../../shared/resources/smartList.js';

/** A smart list's fields. `filters` is an object of query parameters, checked against its resource's list. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  owner_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  name: { kind: 'string' },
  resource_type: { kind: 'enum', values: SMART_LIST_TYPES, createOnly: true },
  filters: { kind: 'customFields' },
  sort_by: { kind: 'string' },
  columns: { kind: 'tags' },
  shared: { kind: 'boolean' },
};

const SMART_LIST_JSON = jsonObject({
  id: 's.id', name: 's.name', resource_type: 's.resource_type', filters: 'json(s.filters)', sort_by: 's.sort_by',
  columns: 'json(s.columns)', shared: jsonBool('s.shared'), owner_id: 's.owner_id', created_at: 's.created_at', updated_at: 's.updated_at',
});

/** Smart lists as devices receive them: the user's own and the shared ones, as GET shows them. */
export const SMART_LIST_SYNC: SyncSource = {
  type: 'smart_list', from: 'smart_lists s', idColumn: 's.id', json: SMART_LIST_JSON, visibleTo: smartListVisibleTo('s', '@user'),
};

const WRITABLE = ['name', 'resource_type', 'filters', 'sort_by', 'columns', 'shared', 'owner_id'] as const;

interface SmartListRow {
  id: number;
  name: string;
  resource_type: SmartListType;
  filters: string;
  sort_by: string | null;
  columns: string;
  shared: number;
  owner_id: number;
}

/** The list definition a smart list of `type` is checked against, as `actor` would list it (tasks' sections use their time zone). */
export type ListOfType = (type: SmartListType, actor: Actor) => ListDefinition;

/**
 * Smart lists: a list screen's filters, sort and columns saved under a name,
 * private (the owner's only: others get 404) or shared with the team
 * (everyone reads; only the owner or an admin changes or deletes it, others
 * get 403). The list endpoints of contacts, leads, deals and tasks answer
 * `smart_list_id=N` with exactly what the saved filters select (listing.ts).
 */
export class SmartLists {
  private readonly store: RecordStore;
  private readonly list: ListDefinition;
  private readonly visibleRow;

  constructor(private readonly ctx: EngineContext, private readonly listOf: ListOfType) {
    this.store = new RecordStore(ctx, 'smart_lists', 'smart_list', WRITABLE);
    this.visibleRow = ctx.db.prepare(`SELECT * FROM smart_lists s WHERE s.id = ? AND ${smartListVisibleTo('s', '?')}`);
    this.list = {
      resource: 'smart_list',
      from: 'smart_lists s',
      json: SMART_LIST_JSON,
      idColumn: 's.id',
      filters: {
        resource_type: { kind: 'enum', column: 's.resource_type', values: SMART_LIST_TYPES },
        owner_id: { kind: 'id', column: 's.owner_id' },
        shared: { kind: 'bool', column: 's.shared' },
        name: { kind: 'string', column: 's.name' },
      },
      sorts: { id: 's.id', name: 's.name', created_at: 's.created_at', updated_at: 's.updated_at' },
      defaultOrder: 's.name ASC',
    };
  }

  /** The caller's own lists and the shared ones. */
  listPage(query: RawQuery, actor: Actor): ListPage {
    return runList({ ...this.list, scope: [{ sql: smartListVisibleTo('s', '?'), params: [actor.userId] }] }, query, this.ctx.statements, actor.userId);
  }

  json(id: number, actor: Actor): string {
    this.visible(id, actor);
    return recordJson(this.ctx, 'smart_list', `SELECT ${SMART_LIST_JSON} FROM smart_lists s WHERE s.id = ?`, id);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('smart_list', FIELDS, data);
    if (values.resource_type === undefined && !errors.has('/resource_type')) errors.add('/resource_type', 'missing', `resource_type is required: one of ${SMART_LIST_TYPES.join(', ')}.`);
    if (values.name === undefined && !errors.has('/name')) errors.add('/name', 'missing', 'name is required.');
    const row = this.apply({ filters: '{}', columns: '[]', shared: 0, owner_id: actor.userId }, values, errors, actor);
    return this.store.insert(row, {}, actor.userId);
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.changeable(id, actor);
    const { values, errors } = checkFields('smart_list', FIELDS, data);
    if (values.resource_type !== undefined && values.resource_type !== current.resource_type) {
      errors.add('/resource_type', 'incorrect_value', 'resource_type can be set only when the smart list is created.');
    }
    this.store.update(id, this.apply({ ...current }, values, errors, actor), actor.userId);
  }

  delete(id: number, actor: Actor): void {
    this.changeable(id, actor);
    this.store.remove(id, actor.userId);
  }

  /** The row, if the actor may see it; otherwise 404, as if it did not exist. */
  private visible(id: number, actor: Actor): SmartListRow {
    const row = this.visibleRow.get(id, actor.userId) as SmartListRow | undefined;
    if (!row) throw notFound('smart_list', id);
    return row;
  }

  /** The row, if the actor may change it: their own, or (shared) any for an admin; a shared list of someone else is 403. */
  private changeable(id: number, actor: Actor): SmartListRow {
    const row = this.visible(id, actor);
    if (row.owner_id !== actor.userId && actor.role !== 'admin') {
      throw forbidden('Only the owner of a shared smart list or an administrator can change or delete it.');
    }
    return row;
  }

  /** Checked values onto the row; the filters and sort as its resource's list would take them. One 422 with every problem. */
  private apply(row: Partial<SmartListRow>, values: Record<string, unknown>, errors: FieldErrors, actor: Actor): Partial<SmartListRow> {
    const out = { ...row };
    if (values.name !== undefined) {
      if (isBlank(values.name)) errors.add('/name', 'blank', "name can't be blank.");
      else out.name = (values.name as string).trim();
    }
    if (values.resource_type !== undefined) out.resource_type = values.resource_type as SmartListType;
    if (values.filters !== undefined) out.filters = JSON.stringify(values.filters ?? {});
    if (values.sort_by !== undefined) out.sort_by = isBlank(values.sort_by) ? null : (values.sort_by as string).trim();
    if (values.columns !== undefined) out.columns = JSON.stringify(values.columns ?? []);
    if (values.shared !== undefined) out.shared = values.shared ? 1 : 0;
    if (out.resource_type !== undefined && !errors.has('/resource_type') && !errors.has('/filters')) {
      this.checkQuery(out.resource_type, JSON.parse(out.filters ?? '{}') as Record<string, unknown>, out.sort_by ?? null, errors, actor);
    }
    errors.throwIfAny();
    return out;
  }

  /**
   * The saved filters and sort, checked by the list layer itself: each of
   * its `invalid_param` problems becomes a 422 at `/filters/<name>` (or
   * `/sort_by`). Values must be strings, as in a query.
   */
  private checkQuery(type: SmartListType, filters: Record<string, unknown>, sortBy: string | null, errors: FieldErrors, actor: Actor): void {
    const query: RawQuery = {};
    for (const [name, value] of Object.entries(filters)) {
      const pointer = `/filters/${pointerToken(name)}`;
      if ((NOT_SAVED_PARAMS as readonly string[]).includes(name)) {
        errors.add(pointer, 'unknown', name === 'sort_by' ? 'sort_by is saved as its own field, not among the filters.' : `${name} is not a filter: a smart list does not keep it.`);
      } else if (typeof value !== 'string') {
        errors.add(pointer, 'invalid_type', `filters.${name} must be a string, as it is sent in a query (e.g. "true", "12").`);
      } else {
        query[name] = value;
      }
    }
    if (!errors.empty) return;
    const def = this.listOf(type, actor);
    const alone = { ...def, together: [] };
    for (const [name, value] of Object.entries(query)) {
      const refused = listProblem(() => checkListQuery(alone, { [name]: value }));
      if (refused) errors.add(`/filters/${pointerToken(name)}`, 'incorrect_value', `filters.${name}: ${refused}`);
    }
    if (!errors.empty) return;
    // Together: the parameters that only go in pairs (tasks' resource_type with resource_id), then the sort.
    const together = listProblem(() => checkListQuery(def, query));
    if (together) errors.add(`/filters/${pointerToken(together.field)}`, 'incorrect_value', `filters.${together.field}: ${together}`);
    const sort = sortBy === null ? null : listProblem(() => checkListQuery(def, { sort_by: sortBy }));
    if (sort) errors.add('/sort_by', 'incorrect_value', `sort_by: ${sort}`);
  }
}

/** A list layer's refusal of a query (its invalid_param problem), as the parameter and the reason; null when it takes it. */
function listProblem(check: () => void): { field: string; toString(): string } | null {
  try {
    check();
    return null;
  } catch (error) {
    if (!(error instanceof ApiProblem)) throw error;
    const first = error.errors[0];
    const reason = /\((.*)\)\.$/s.exec(first.message)?.[1] ?? first.message;
    return { field: first.field, toString: () => reason };
  }
}

/** A name as one JSON Pointer token (RFC 6901: `~` and `/` escaped). */
const pointerToken = (name: string) => name.replace(/~/g, '~0').replace(/\//g, '~1');
