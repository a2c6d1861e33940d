import { monotonicFactory } from 'ulid';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { fromBase64, toBase64Url, utf8Bytes, utf8Length, utf8Text } from '../bytes.js';
import type { CustomObjectRow } from './objectRows.js';
import { badRequest, RecordInvalid, recordNotFound } from './problems.js';
import { checkText, isPlainObject, valuePath, type CustomObjectFields, type FieldDefinition } from './fields.js';
import { checkValue, CUSTOM_OBJECT_TARGET_PREFIX, lookupTargetExists, SEARCHED_TYPES, type StoredValue } from './values.js';

/**
 * Records of a custom object (`/api/v2/custom_objects/{key}/records`), as the
 * real service's custom object records: a ULID id, a name, an optional
 * external id unique within the object, and `custom_object_fields` holding a
 * value (or null) for every field of the object.
 *
 * Lists page with cursors (the real service's cursor pagination): a cursor
 * is the sort value and id of a page's first or last record, so a page never
 * skips or repeats records when others are added or removed meanwhile.
 */

export const NAME_MAX = 255;
export const EXTERNAL_ID_MAX = 255;
/** The real service's limit on one record's size; here the JSON of its field values. */
export const RECORD_VALUES_MAX_BYTES = 32 * 1024;
export const PAGE_SIZE_MAX = 100;
export const FILTER_VALUES_MAX = 100;
export const QUERY_MAX = 500;
export const QUERY_WORDS_MAX = 20;

const WRITABLE = ['name', 'external_id', 'custom_object_fields'];
/** Read-only attributes a client may send back from GET (ignored). */
const ECHOED = ['id', 'custom_object_key', 'created_by_user_id', 'updated_by_user_id', 'created_at', 'updated_at', 'url'];

/** Sort orders of lists and searches; `-` in front for descending. Ties are broken by id. */
const SORT_COLUMNS: Record<string, string> = {
  id: 'r.id',
  name: 'r.name COLLATE NOCASE',
  created_at: 'r.created_at',
  updated_at: 'r.updated_at',
};
const DEFAULT_SORT = 'id';
const LIST_PARAMS = ['page[size]', 'page[after]', 'page[before]', 'sort', 'filter[ids]', 'filter[external_ids]'];
const SEARCH_PARAMS = ['page[size]', 'page[after]', 'page[before]', 'sort', 'query'];

/** The CRM's records lookups can name, by the type their delete reports to `ctx.dependents`. */
const CRM_TARGETS: Record<string, string> = { contact: 'sell:contact', deal: 'sell:deal', lead: 'sell:lead' };

interface RecordRow {
  id: string;
  custom_object_id: number;
  name: string;
  external_id: string | null;
  fields_json: string;
  created_by_user_id: number | null;
  updated_by_user_id: number | null;
  created_at: string;
  updated_at: string;
}

type Query = Record<string, unknown>;

interface PageRequest {
  size: number;
  sort: { field: string; descending: boolean; spec: string };
  cursor: { before: boolean; value: string; id: string } | null;
}

/** Where a list's links point: the support base URL and the path listed, with the request's own parameters. */
export interface ListLocation {
  base: string;
  path: string;
  query: Query;
}

export class CustomObjectRecords {
  private readonly newId = monotonicFactory();

  constructor(private readonly ctx: EngineContext, private readonly fields: CustomObjectFields) {
    // A deleted contact, deal or lead leaves every lookup that named it empty, in its delete's transaction.
    ctx.dependents.onDelete((type, id, actorId) => {
      if (CRM_TARGETS[type]) this.clearLookups(CRM_TARGETS[type], String(id), actorId);
    });
    // A contact or lead merged into another: lookups naming it name the survivor (before its deletion clears them).
    ctx.dependents.onMerge((type, fromId, toId, actorId) => {
      if (CRM_TARGETS[type]) this.moveLookups(CRM_TARGETS[type], String(fromId), String(toId), actorId);
    });
  }

  // ------------------------------------------------------------ reading

  json(object: CustomObjectRow, id: string, base: string): { custom_object_record: Record<string, unknown> } {
    return { custom_object_record: recordJson(this.require(object, id), object.key, this.fields.definitions(object.id), base) };
  }

  /** `GET …/records`: every record of the object, or those `filter[ids]` / `filter[external_ids]` name. */
  list(object: CustomObjectRow, where: ListLocation) {
    checkParams(where.query, LIST_PARAMS);
    const conditions: SqlCondition[] = [];
    for (const [param, column] of [['filter[ids]', 'r.id'], ['filter[external_ids]', 'r.external_id']]) {
      const values = listParam(where.query, param);
      if (values) conditions.push({ sql: `${column} IN (${values.map(() => '?').join(', ')})`, params: values });
    }
    return this.page(object, conditions, where);
  }

  /**
   * `GET …/records/search?query=`: records whose name or text, multi-line
   * text or regexp field contains any word of the query (case-insensitive).
   */
  search(object: CustomObjectRow, where: ListLocation) {
    checkParams(where.query, SEARCH_PARAMS);
    const query = stringParam(where.query, 'query');
    if (query === undefined || query.trim() === '') throw badRequest('InvalidParameter', 'query is required: the words to search for.');
    if (query.length > QUERY_MAX) throw badRequest('InvalidParameter', `query is too long (at most ${QUERY_MAX} characters).`);
    const searched = this.fields.definitions(object.id).filter((f) => SEARCHED_TYPES.includes(f.type));
    const haystack = ['r.name', ...searched.map(() => "COALESCE(json_extract(r.fields_json, ?), '')")].join(" || ' ' || ");
    const paths = searched.map((f) => valuePath(f.key));
    const words = [...new Set(query.trim().split(/\s+/))];
    if (words.length > QUERY_WORDS_MAX) throw badRequest('InvalidParameter', `query can have at most ${QUERY_WORDS_MAX} words.`);
    const conditions = [{
      sql: `(${words.map(() => `(${haystack}) LIKE ? ESCAPE '\\'`).join(' OR ')})`,
      params: words.flatMap((word) => [...paths, `%${word.replace(/[\\%_]/g, (c) => `\\${c}`)}%`]),
    }];
    return this.page(object, conditions, where);
  }

  /** `GET …/records/count`, in the real service's shape (its count is refreshed periodically; this one is exact). */
  count(object: CustomObjectRow): { count: { value: number; refreshed_at: string } } {
    const value = this.ctx.statements.get('SELECT COUNT(*) FROM custom_object_records WHERE custom_object_id = ?').pluck().get(object.id) as number;
    return { count: { value, refreshed_at: isoSeconds(this.ctx.clock.now()) } };
  }

  private require(object: CustomObjectRow, id: string): RecordRow {
    const row = this.ctx.statements.get('SELECT * FROM custom_object_records WHERE id = ? AND custom_object_id = ?').get(id, object.id) as RecordRow | undefined;
    if (!row) throw recordNotFound(`Custom object record '${id}' not found in '${object.key}'`);
    return row;
  }

  // ------------------------------------------------------------ writing

  /** Creates a record (agents and admins). Every problem of the request in one 422. */
  create(object: CustomObjectRow, data: Record<string, unknown>, actor: Actor): string {
    const errors = new RecordInvalid();
    const checked = this.checkRecord(object, data, null, errors);
    errors.check();
    const now = isoSeconds(this.ctx.clock.now());
    const id = this.newId(this.ctx.clock.now().getTime());
    this.ctx.statements.get(`INSERT INTO custom_object_records (id, custom_object_id, name, external_id, fields_json,
      created_by_user_id, updated_by_user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
      .run(id, object.id, checked.name, checked.external_id, JSON.stringify(checked.values), actor.userId, actor.userId, now, now);
    return id;
  }

  /** Changes a record: `custom_object_fields` is merged into the stored values, a key sent as null clears its value. */
  update(object: CustomObjectRow, id: string, data: Record<string, unknown>, actor: Actor): void {
    const current = this.require(object, id);
    const errors = new RecordInvalid();
    const checked = this.checkRecord(object, data, current, errors);
    errors.check();
    this.ctx.statements.get(`UPDATE custom_object_records SET name = ?, external_id = ?, fields_json = ?, updated_by_user_id = ?, updated_at = ?
      WHERE id = ?`).run(checked.name, checked.external_id, JSON.stringify(checked.values), actor.userId, isoSeconds(this.ctx.clock.now()), id);
  }

  /** Deletes a record; lookups of any object that named it are cleared in the same transaction. */
  delete(object: CustomObjectRow, id: string, actor: Actor): void {
    this.require(object, id);
    this.ctx.db.transaction(() => {
      this.ctx.statements.get('DELETE FROM custom_object_records WHERE id = ?').run(id);
      this.clearLookups(`${CUSTOM_OBJECT_TARGET_PREFIX}${object.key}`, id, actor.userId);
    })();
  }

  /**
   * Empties every lookup value naming a deleted record (a record's
   * `updated_at` moves: its data changed). Runs in the caller's transaction.
   */
  private clearLookups(target: string, id: string, actorId: number): void {
    const lookups = this.lookupsTo(target);
    const now = isoSeconds(this.ctx.clock.now());
    for (const lookup of lookups) {
      const path = valuePath(lookup.key);
      this.ctx.statements.get(`UPDATE custom_object_records SET fields_json = json_remove(fields_json, ?), updated_at = ?, updated_by_user_id = ?
        WHERE custom_object_id = ? AND json_extract(fields_json, ?) = ?`).run(path, now, actorId, lookup.custom_object_id, path, id);
    }
  }

  /** Points every lookup value naming `fromId` at `toId` instead. Runs in the caller's transaction. */
  private moveLookups(target: string, fromId: string, toId: string, actorId: number): void {
    const now = isoSeconds(this.ctx.clock.now());
    for (const lookup of this.lookupsTo(target)) {
      const path = valuePath(lookup.key);
      this.ctx.statements.get(`UPDATE custom_object_records SET fields_json = json_set(fields_json, ?, ?), updated_at = ?, updated_by_user_id = ?
        WHERE custom_object_id = ? AND json_extract(fields_json, ?) = ?`).run(path, toId, now, actorId, lookup.custom_object_id, path, fromId);
    }
  }

  private lookupsTo(target: string): { custom_object_id: number; key: string }[] {
    return this.ctx.statements.get("SELECT custom_object_id, key FROM custom_object_fields WHERE type = 'lookup' AND relationship_target_type = ?")
      .all(target) as { custom_object_id: number; key: string }[];
  }

  // ------------------------------------------------------------ rules

  private checkRecord(object: CustomObjectRow, data: Record<string, unknown>, current: RecordRow | null, errors: RecordInvalid) {
    for (const name of Object.keys(data)) {
      if (!WRITABLE.includes(name) && !ECHOED.includes(name)) errors.add(name, 'UnknownField', `${name} is not an attribute of a custom object record.`);
    }
    const name = current && data.name === undefined ? current.name : checkText(data.name, 'name', NAME_MAX, errors, true);
    const externalId = data.external_id === undefined && current ? current.external_id : this.checkExternalId(object, data.external_id, current, errors);
    const values = this.checkValues(object, data.custom_object_fields, current, errors);
    if (utf8Length(JSON.stringify(values)) > RECORD_VALUES_MAX_BYTES) {
      errors.add('base', 'LimitExceeded', `The record's field values take more than ${RECORD_VALUES_MAX_BYTES / 1024} KB, the most a record can hold.`);
    }
    return { name: name ?? '', external_id: externalId, values };
  }

  /** Optional; unique within the object. A blank one is no external id. */
  private checkExternalId(object: CustomObjectRow, value: unknown, current: RecordRow | null, errors: RecordInvalid): string | null {
    const externalId = checkText(value, 'external_id', EXTERNAL_ID_MAX, errors, false);
    if (externalId === null) return null;
    const holder = this.ctx.statements.get('SELECT id FROM custom_object_records WHERE custom_object_id = ? AND external_id = ?').pluck()
      .get(object.id, externalId) as string | undefined;
    if (holder !== undefined && holder !== current?.id) {
      errors.add('external_id', 'DuplicateValue', `External id: '${externalId}' is already used by record ${holder} of '${object.key}'`);
    }
    return externalId;
  }

  /** Each sent value checked by its field's type; the result merged into the stored values. */
  private checkValues(object: CustomObjectRow, sent: unknown, current: RecordRow | null, errors: RecordInvalid): Record<string, StoredValue> {
    const values = current ? (JSON.parse(current.fields_json) as Record<string, StoredValue>) : {};
    if (sent === undefined || sent === null) return values;
    if (!isPlainObject(sent)) {
      errors.add('custom_object_fields', 'InvalidValue', 'Custom object fields: must be an object of field keys and values');
      return values;
    }
    const fields = new Map(this.fields.definitions(object.id).map((f) => [f.key, f]));
    for (const [key, value] of Object.entries(sent)) {
      const field = fields.get(key);
      const detail = `custom_object_fields.${key}`;
      if (!field) {
        errors.add(detail, 'UnknownField', `${key} is not a field of '${object.key}'; its fields: ${[...fields.keys()].join(', ') || '(none)'}.`);
        continue;
      }
      const checked = checkValue(field, value);
      if (!checked.ok) errors.add(detail, checked.error, checked.message);
      else if (checked.value === null) delete values[key];
      else if (this.lookupMissing(field, checked.value)) errors.add(detail, 'InvalidValue', `${field.title} (${key}): there is no ${field.relationship_target_type} record with id ${checked.value}.`);
      else values[key] = checked.value;
    }
    return values;
  }

  private lookupMissing(field: FieldDefinition, value: StoredValue): boolean {
    return field.type === 'lookup' && !lookupTargetExists(this.ctx, field.relationship_target_type ?? '', value as string);
  }

  // ------------------------------------------------------------ pages

  private page(object: CustomObjectRow, conditions: SqlCondition[], where: ListLocation) {
    const request = pageRequest(where.query);
    const { field, descending } = request.sort;
    const column = SORT_COLUMNS[field];
    const base: SqlCondition[] = [{ sql: 'r.custom_object_id = ?', params: [object.id] }, ...conditions];
    const backward = request.cursor?.before === true;
    const rows = this.select(base, request.cursor, column, descending === backward, request.size + 1);
    const more = rows.length > request.size;
    const page = rows.slice(0, request.size);
    if (backward) page.reverse();
    const first = page[0];
    const last = page[page.length - 1];
    const sortValue = (row: RecordRow) => String(row[field as keyof RecordRow]);
    const beyond = (row: RecordRow | undefined, before: boolean) => row !== undefined
      && this.select(base, { before, value: sortValue(row), id: row.id }, column, descending === before, 1).length > 0;
    const hasNext = backward ? beyond(last, false) : more;
    const hasPrev = backward ? more : request.cursor !== null && beyond(first, true);
    const afterCursor = last ? encodeCursor(request.sort.spec, sortValue(last), last.id) : null;
    const beforeCursor = first ? encodeCursor(request.sort.spec, sortValue(first), first.id) : null;
    const fields = this.fields.definitions(object.id);
    return {
      custom_object_records: page.map((row) => recordJson(row, object.key, fields, where.base)),
      meta: { has_more: backward ? hasPrev : hasNext, after_cursor: afterCursor, before_cursor: beforeCursor },
      links: {
        prev: hasPrev && beforeCursor ? pageLink(where, 'page[before]', beforeCursor) : null,
        next: hasNext && afterCursor ? pageLink(where, 'page[after]', afterCursor) : null,
      },
    };
  }

  /** Rows from a cursor onward in one direction (`ascending` in the column's terms), at most `limit`. */
  private select(conditions: SqlCondition[], cursor: PageRequest['cursor'], column: string, ascending: boolean, limit: number): RecordRow[] {
    const all = [...conditions];
    if (cursor) {
      const op = ascending ? '>' : '<';
      all.push({ sql: `(${column} ${op} ? OR (${column} = ? AND r.id ${op} ?))`, params: [cursor.value, cursor.value, cursor.id] });
    }
    const direction = ascending ? 'ASC' : 'DESC';
    const sql = `SELECT r.* FROM custom_object_records r WHERE ${all.map((c) => c.sql).join(' AND ')}
      ORDER BY ${column} ${direction}, r.id ${direction} LIMIT ${limit}`;
    return this.ctx.statements.get(sql).all(...all.flatMap((c) => c.params)) as RecordRow[];
  }
}

interface SqlCondition {
  sql: string;
  params: unknown[];
}

// ---------------------------------------------------------------- JSON

function recordJson(row: RecordRow, objectKey: string, fields: FieldDefinition[], base: string): Record<string, unknown> {
  const stored = JSON.parse(row.fields_json) as Record<string, StoredValue>;
  return {
    id: row.id,
    name: row.name,
    external_id: row.external_id,
    custom_object_key: objectKey,
    // Every field of the object, null when unset: clients see the whole schema in each record.
    custom_object_fields: Object.fromEntries(fields.map((f) => [f.key, stored[f.key] ?? null])),
    created_by_user_id: row.created_by_user_id === null ? null : String(row.created_by_user_id),
    updated_by_user_id: row.updated_by_user_id === null ? null : String(row.updated_by_user_id),
    created_at: row.created_at,
    updated_at: row.updated_at,
    url: `${base}/api/v2/custom_objects/${objectKey}/records/${row.id}.json`,
  };
}

// ---------------------------------------------------------------- parameters

function invalidParameter(description: string) {
  return badRequest('InvalidParameter', description);
}

/** Only the parameters an endpoint knows, each given once. */
function checkParams(query: Query, allowed: string[]): void {
  for (const [name, value] of Object.entries(query)) {
    if (!allowed.includes(name)) throw invalidParameter(`Unknown parameter '${name}'; this endpoint takes ${allowed.join(', ')}.`);
    if (typeof value !== 'string') throw invalidParameter(`Parameter '${name}' must be given once.`);
  }
}

function stringParam(query: Query, name: string): string | undefined {
  return query[name] as string | undefined;
}

/** A comma-separated list (`filter[ids]=a,b`), at most FILTER_VALUES_MAX values. */
function listParam(query: Query, name: string): string[] | null {
  const raw = stringParam(query, name);
  if (raw === undefined) return null;
  const values = [...new Set(raw.split(',').map((v) => v.trim()).filter((v) => v !== ''))];
  if (values.length === 0) throw invalidParameter(`${name} must list at least one value, separated by commas.`);
  if (values.length > FILTER_VALUES_MAX) throw invalidParameter(`${name} can list at most ${FILTER_VALUES_MAX} values.`);
  return values;
}

function pageRequest(query: Query): PageRequest {
  const sizeText = stringParam(query, 'page[size]');
  const size = sizeText === undefined ? PAGE_SIZE_MAX : /^\d{1,4}$/.test(sizeText) ? Number(sizeText) : NaN;
  if (!(size >= 1 && size <= PAGE_SIZE_MAX)) throw invalidParameter(`page[size] must be a whole number from 1 to ${PAGE_SIZE_MAX}, given: ${sizeText}.`);
  const spec = stringParam(query, 'sort') ?? DEFAULT_SORT;
  const field = spec.replace(/^-/, '');
  if (!SORT_COLUMNS[field]) {
    throw invalidParameter(`sort must be one of ${Object.keys(SORT_COLUMNS).join(', ')}, with - in front for descending; given: ${spec}.`);
  }
  const after = stringParam(query, 'page[after]');
  const before = stringParam(query, 'page[before]');
  if (after !== undefined && before !== undefined) throw invalidParameter("page[after] and page[before] can't be used together.");
  const token = after ?? before;
  const cursor = token === undefined ? null : { before: before !== undefined, ...decodeCursor(token, spec) };
  return { size, sort: { field, descending: spec.startsWith('-'), spec }, cursor };
}

/** Cursors are opaque to clients: the sort, its value and the id of a page's edge record. */
function encodeCursor(sort: string, value: string, id: string): string {
  return toBase64Url(utf8Bytes(JSON.stringify([sort, value, id])));
}

function decodeCursor(token: string, sort: string): { value: string; id: string } {
  let decoded: unknown;
  try {
    decoded = JSON.parse(utf8Text(fromBase64(token)));
  } catch {
    decoded = null;
  }
  if (!isCursor(decoded)) throw invalidParameter('The page cursor is not one this endpoint gave: use meta.after_cursor or meta.before_cursor of a previous page.');
  const [cursorSort, value, id] = decoded;
  if (cursorSort !== sort) throw invalidParameter(`The page cursor belongs to the sort order '${cursorSort}', not '${sort}': keep the sort while paging.`);
  return { value, id };
}

function isCursor(decoded: unknown): decoded is [string, string, string] {
  return Array.isArray(decoded) && decoded.length === 3 && decoded.every((part) => typeof part === 'string');
}

function pageLink(where: ListLocation, param: 'page[after]' | 'page[before]', cursor: string): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(where.query)) {
    if (name !== 'page[after]' && name !== 'page[before]') params.set(name, value as string);
  }
  params.set(param, cursor);
  return `${where.base}${where.path}?${params.toString()}`;
}
