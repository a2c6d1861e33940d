import type { Actor, EngineContext } from '../context.js';
import type { ApiError } from '../../../shared/errors.js';
import { ApiProblem, FieldErrors } from '../problems.js';
import { applyDelete, applyUpdate } from '../sync/localWrites.js';
import { checkFields, type FieldTable } from './fields.js';
import type { RawQuery } from './params.js';

/** The most records one bulk call names or selects (the interface's limit). */
export const MAX_BULK_RECORDS = 10_000;

/**
 * How many records share one transaction: each chunk is one group commit
 * (one WAL write for hundreds of records), and between chunks the event loop
 * turns, so other requests are served during a 10 000-record call.
 */
export const BULK_CHUNK = 500;

/** What a bulk edit needs of a resource: its single-record writes, its field table and its list. */
export interface BulkResource {
  type: string;
  /** The collection path (`/v2/contacts`): a replica queues each record's change under it. */
  collection: string;
  fields: FieldTable;
  /** Writable names the field table leaves to the service (a deal's `value`). */
  extraFields?: readonly string[];
  /** Whether the records carry tags (`tags_add` / `tags_remove` apply). */
  tagged: boolean;
  service: {
    json(id: number, actor: Actor): string;
    update(id: number, data: Record<string, unknown>, actor: Actor): void;
    delete(id: number, actor: Actor): void;
    idsMatching(query: RawQuery, actor: Actor): number[];
  };
}

/** Which records: named, or selected as a list query (a smart list, or the list's own filters). */
export type BulkTarget = { ids: number[] } | { query: RawQuery };

export type BulkChange =
  | { kind: 'update'; data: Record<string, unknown>; tagsAdd: string[]; tagsRemove: string[] }
  | { kind: 'delete' };

export interface BulkRequest {
  target: BulkTarget;
  change: BulkChange;
}

export interface BulkFailure {
  id: number;
  errors: ApiError[];
}

export interface BulkOutcome {
  updated: number[];
  failed: BulkFailure[];
}

const REQUEST_KEYS = ['ids', 'smart_list_id', 'filters', 'update', 'delete'];
const TARGET_KEYS = ['ids', 'smart_list_id', 'filters'];
const TAG_OPS: FieldTable = { tags_add: { kind: 'tags' }, tags_remove: { kind: 'tags' } };

/**
 * Reads a bulk call's `data`; throws one 422 naming every problem of its
 * shape (which records, which change), so nothing is written for a call that
 * could not mean anything. The update's fields are checked for type here
 * too, against the same field table a PUT uses: a wrong type would fail on
 * every record alike. Rules that depend on the record stay per record.
 */
export function parseBulkRequest(resource: BulkResource, data: Record<string, unknown>): BulkRequest {
  const errors = new FieldErrors(resource.type);
  for (const key of Object.keys(data)) {
    if (!REQUEST_KEYS.includes(key)) errors.add(`/${key}`, 'unknown', `${key} is not a parameter of a bulk edit: give ids, smart_list_id or filters, and update or delete.`);
  }
  const target = targetOf(data, errors);
  const change = changeOf(resource, data, errors);
  errors.throwIfAny();
  return { target: target!, change: change! };
}

function targetOf(data: Record<string, unknown>, errors: FieldErrors): BulkTarget | undefined {
  const given = TARGET_KEYS.filter((key) => data[key] !== undefined);
  if (given.length !== 1) {
    const message = given.length === 0
      ? 'Name the records: ids, smart_list_id or filters.'
      : `Give only one of ids, smart_list_id and filters, not ${given.join(' and ')}.`;
    errors.add('/ids', given.length === 0 ? 'missing' : 'incorrect_value', message);
    return undefined;
  }
  if (data.ids !== undefined) return idsOf(data.ids, errors);
  if (data.smart_list_id !== undefined) return smartListOf(data.smart_list_id, errors);
  return filtersOf(data.filters, errors);
}

function idsOf(value: unknown, errors: FieldErrors): BulkTarget | undefined {
  if (!Array.isArray(value) || !value.every((id) => Number.isSafeInteger(id) && (id as number) !== 0)) {
    errors.add('/ids', 'invalid_type', 'ids must be an array of record ids.');
    return undefined;
  }
  const ids = [...new Set(value as number[])];
  if (ids.length === 0) errors.add('/ids', 'blank', "ids can't be empty.");
  else if (ids.length > MAX_BULK_RECORDS) errors.add('/ids', 'incorrect_value', `A bulk edit takes at most ${MAX_BULK_RECORDS} records; ${ids.length} were given.`);
  return { ids };
}

function smartListOf(value: unknown, errors: FieldErrors): BulkTarget | undefined {
  if (!Number.isSafeInteger(value) || (value as number) <= 0) {
    errors.add('/smart_list_id', 'invalid_type', 'smart_list_id must be the id of a smart list.');
    return undefined;
  }
  return { query: { smart_list_id: String(value) } };
}

/** `filters`: the list endpoint's own query parameters, as an object of strings (an Outpost extension). */
function filtersOf(value: unknown, errors: FieldErrors): BulkTarget | undefined {
  const isText = (v: unknown) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean';
  if (typeof value !== 'object' || value === null || Array.isArray(value)
    || !Object.values(value).every((v) => isText(v) || (Array.isArray(v) && v.every(isText)))) {
    errors.add('/filters', 'invalid_type', "filters must be an object of the list's query parameters, such as {\"owner_id\": \"5\"}.");
    return undefined;
  }
  const query: RawQuery = {};
  for (const [name, v] of Object.entries(value)) query[name] = Array.isArray(v) ? v.map(String) : String(v);
  return { query };
}

function changeOf(resource: BulkResource, data: Record<string, unknown>, errors: FieldErrors): BulkChange | undefined {
  if ((data.update === undefined) === (data.delete === undefined)) {
    errors.add('/update', data.update === undefined ? 'missing' : 'incorrect_value', 'Give either update (the fields to set) or delete: true.');
    return undefined;
  }
  if (data.delete !== undefined) {
    if (data.delete !== true) errors.add('/delete', 'incorrect_value', 'delete must be true (or left out, with update instead).');
    return { kind: 'delete' };
  }
  return updateOf(resource, data.update, errors);
}

function updateOf(resource: BulkResource, value: unknown, errors: FieldErrors): BulkChange | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    errors.add('/update', 'invalid_type', 'update must be an object of the fields to set.');
    return undefined;
  }
  const { tags_add: tagsAdd, tags_remove: tagsRemove, ...fields } = value as Record<string, unknown>;
  if (Object.keys(value).length === 0) errors.add('/update', 'blank', "update can't be empty: name the fields to set.");
  const tagOps = Object.fromEntries(Object.entries({ tags_add: tagsAdd, tags_remove: tagsRemove }).filter(([, v]) => v !== undefined));
  if (!resource.tagged) {
    for (const op of Object.keys(tagOps)) errors.add(`/update/${op}`, 'unknown', `${op} is not an attribute of ${resource.type}.`);
  } else {
    reportUnder('/update', checkFields(resource.type, TAG_OPS, tagOps).errors, errors);
    if (fields.tags !== undefined && Object.keys(tagOps).length > 0) {
      errors.add('/update/tags', 'incorrect_value', 'Set tags, or add and remove some with tags_add and tags_remove, not both.');
    }
  }
  const own = Object.fromEntries(Object.entries(fields).filter(([name]) => !resource.extraFields?.includes(name)));
  reportUnder('/update', checkFields(resource.type, resource.fields, own).errors, errors);
  return { kind: 'update', data: fields, tagsAdd: asNames(tagsAdd), tagsRemove: asNames(tagsRemove) };
}

/** Moves a field check's errors under a prefix of the bulk call's pointer (`/last_name` → `/update/last_name`). */
function reportUnder(prefix: string, checked: FieldErrors, into: FieldErrors): void {
  try {
    checked.throwIfAny();
  } catch (err) {
    for (const e of (err as ApiProblem).errors) into.add(`${prefix}${e.field}`, e.code, e.message);
  }
}

const asNames = (value: unknown): string[] => (Array.isArray(value) ? value.map((name) => String(name).trim()) : []);

/** The ids a bulk call names or selects, at most MAX_BULK_RECORDS (a list query beyond it is refused, not cut). */
export function targetIds(resource: BulkResource, target: BulkTarget, actor: Actor): number[] {
  if ('ids' in target) return target.ids;
  const ids = resource.service.idsMatching(target.query, actor);
  if (ids.length > MAX_BULK_RECORDS) {
    const errors = new FieldErrors(resource.type);
    errors.add('/ids', 'incorrect_value', `A bulk edit takes at most ${MAX_BULK_RECORDS} records; the list selects ${ids.length}: narrow it.`);
    errors.throwIfAny();
  }
  return ids;
}

/**
 * Applies the change to each record through the resource's own write, the
 * one a PUT or DELETE takes (rules, change log, field history; on a replica
 * the outbox), each in its own savepoint: a record that is refused rolls back
 * alone and is reported with the errors a single request would have answered.
 * Call inside a transaction (a chunk's group commit).
 */
export function applyBulk(ctx: EngineContext, resource: BulkResource, change: BulkChange, ids: readonly number[], actor: Actor): BulkOutcome {
  const outcome: BulkOutcome = { updated: [], failed: [] };
  const { type, collection, service } = resource;
  const remove = (id: number, by: Actor) => service.delete(id, by);
  const records = { json: (id: number, by: Actor) => service.json(id, by), update: (id: number, data: Record<string, unknown>, by: Actor) => service.update(id, data, by) };
  for (const id of ids) {
    try {
      ctx.db.transaction(() => {
        if (change.kind === 'delete') applyDelete(ctx, remove, { type, collection, id, actor });
        else applyUpdate(ctx, records, { type, collection, id, data: recordUpdate(service, change, id, actor), actor });
      })();
      outcome.updated.push(id);
    } catch (err) {
      if (!(err instanceof ApiProblem)) throw err;
      outcome.failed.push({ id, errors: err.errors });
    }
  }
  return outcome;
}

/** The update one record gets: the fields, and its tags with `tags_add` joined and `tags_remove` taken out. */
function recordUpdate(service: BulkResource['service'], change: Extract<BulkChange, { kind: 'update' }>, id: number, actor: Actor): Record<string, unknown> {
  if (change.tagsAdd.length === 0 && change.tagsRemove.length === 0) return change.data;
  const current = (JSON.parse(service.json(id, actor)) as { tags?: string[] }).tags ?? [];
  const removed = new Set(change.tagsRemove);
  const tags = [...new Set([...current, ...change.tagsAdd])].filter((name) => !removed.has(name));
  return { ...change.data, tags };
}
