import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from '../../../shared/errors.js';
import { ADDRESS_KEYS } from '../../../shared/resources/address.js';
import { schemaFor, type FieldDef, type FieldTable } from '../resources/fields.js';
import type { FilterDef, ListDefinition } from '../resources/listing.js';
import { SMART_LIST_TYPES } from '../../../shared/resources/smartList.js';

/**
 * JSON Schema (2020-12, OpenAPI 3.1's dialect) of the engine's own rules:
 * request fields come from the very zod schemas `checkFields` validates with
 * (z.toJSONSchema of `schemaFor`), answers from the same field tables, lists
 * from the list definitions, errors from shared/errors.ts.
 */
export type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
export const schemaRef = ref;

/** What a write may send for one field: the zod schema `checkFields` parses it with, as JSON Schema. */
export function requestFieldSchema(def: FieldDef): JsonSchema | null {
  const schema = schemaFor(def);
  if (!schema) return null;
  // `unrepresentable: 'any'`: a z.custom check (custom_fields) becomes {}; its shape is said below.
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return { ...json, ...FIELD_NOTES[def.kind], ...(def.kind === 'customFields' ? { anyOf: [{ type: 'object' }, { type: 'null' }] } : {}) };
}

const FIELD_NOTES: Partial<Record<FieldDef['kind'], JsonSchema>> = {
  id: { description: 'A record id (a number, or its digits as a string).' },
  datetime: { description: 'An ISO 8601 date-time with any offset (`Z`, `+00:00`, `+0000`); without one it is read as UTC.', examples: ['2026-03-02T10:00:00Z'] },
  integer: { description: 'An integer (or its digits as a string).' },
  customFields: { description: 'Custom field values by field name; each is checked against its definition (GET /v2/<resource>/custom_fields).' },
  tags: { description: 'Tag names: the whole set replaces the record\'s tags; unknown names are created.' },
};

const nullable = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });
const DATE_TIME: JsonSchema = { type: 'string', format: 'date-time' };

/** How the engine answers one field: the kind's JSON type (answers are normalised: ids are numbers, date-times UTC). */
export function responseFieldSchema(name: string, def: FieldDef): JsonSchema {
  switch (def.kind) {
    case 'readOnly': return readOnlySchema(name);
    case 'string': return nullable({ type: 'string' });
    case 'id': return nullable({ type: 'integer' });
    case 'datetime': return nullable(DATE_TIME);
    case 'integer': return nullable({ type: 'integer' });
    case 'idList': return nullable({ type: 'array', items: { type: 'integer' } });
    case 'boolean': return { type: 'boolean' };
    case 'enum': return def.nullable ? nullable({ type: 'string', enum: [...def.values] }) : { type: 'string', enum: [...def.values] };
    case 'address': return nullable(ref('Address'));
    case 'tags': return { type: 'array', items: { type: 'string' } };
    case 'customFields': return { type: 'object' };
  }
}

/** Read-only fields carry no type in the tables: the naming rules of the interface give it (`id`, `*_id`, `*_at`). */
function readOnlySchema(name: string): JsonSchema {
  const readOnly = { readOnly: true };
  if (name === 'id') return { type: 'integer', ...readOnly };
  if (name.endsWith('_id')) return { ...nullable({ type: 'integer' }), ...readOnly };
  if (name.endsWith('_at')) return { ...nullable(DATE_TIME), ...readOnly };
  return { description: 'Set by the server.', ...readOnly };
}

/** A record as GET answers it: every field of the table is there; records may carry further read-only fields. */
export function recordSchema(table: FieldTable, description?: string, own: Record<string, JsonSchema> = {}): JsonSchema {
  const properties = { ...Object.fromEntries(Object.entries(table).map(([name, def]) => [name, withCreateOnly(responseFieldSchema(name, def), def)])), ...own };
  // Create-only fields may be write-only (an enrollment's sequence_id: its answer carries the sequence instead).
  const required = Object.entries(table).filter(([, def]) => !('createOnly' in def && def.createOnly)).map(([name]) => name);
  return { type: 'object', ...(description ? { description } : {}), properties, required };
}

function withCreateOnly(schema: JsonSchema, def: FieldDef): JsonSchema {
  return 'createOnly' in def && def.createOnly ? { ...schema, description: 'Set when the record is created; not changed by an update.' } : schema;
}

/**
 * The `data` of a create (`mode: 'create'`) or update: the table's writable
 * fields. Read-only fields are accepted and ignored (so a GET answer can be
 * sent back), anything else is `422 unknown`, hence no additional properties.
 */
export function writeDataSchema(table: FieldTable, mode: 'create' | 'update', own: Record<string, JsonSchema> = {}): JsonSchema {
  const properties: Record<string, JsonSchema> = { ...own };
  for (const [name, def] of Object.entries(table)) {
    if (def.kind === 'readOnly') {
      properties[name] = { readOnly: true, description: 'Read-only: accepted and ignored.' };
      continue;
    }
    if (mode === 'update' && 'createOnly' in def && def.createOnly) continue;
    properties[name] = requestFieldSchema(def)!;
  }
  return { type: 'object', properties, additionalProperties: false };
}

/** `{"data": {…}, "meta": {…}}`: the Outpost extensions of a write's `meta` (docs/sync.md, "Edits made offline"). */
export function writeBodySchema(data: JsonSchema, mode: 'create' | 'update'): JsonSchema {
  const meta: Record<string, JsonSchema> = {
    type: { type: 'string', description: 'Ignored, as the real service does.' },
    written_at: { type: 'string', format: 'date-time', description: 'When a syncing device\'s user made the change (only from a token with the `sync` scope and an `X-Service-Device-UUID` header; a time ahead of the hub\'s clock counts as now).' },
  };
  if (mode === 'update') {
    meta.base = { type: 'object', description: 'The values the changed fields had when the edit started, as the API serves them: the hub takes each field only where it still holds that value and answers the others in `meta.conflicts`.' };
  }
  return {
    type: 'object',
    required: ['data'],
    properties: { data, meta: { anyOf: [{ type: 'object', properties: meta }, { type: 'null' }] } },
  };
}

/** `{"data": {…}, "meta": {"type": …}}` */
export function resourceEnvelope(type: string | readonly string[], data: JsonSchema, metaExtra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    required: ['data', 'meta'],
    properties: {
      data,
      meta: { type: 'object', required: ['type'], properties: { type: typeof type === 'string' ? { const: type } : { enum: [...type] }, ...metaExtra } },
    },
    additionalProperties: false,
  };
}

/** An update's answer: `meta.conflicts` lists the fields the hub kept (absent when none). */
export const CONFLICTS_META: Record<string, JsonSchema> = {
  conflicts: {
    type: 'array',
    description: 'Fields whose `meta.base` no longer matched: the hub kept its value (an Outpost extension).',
    items: { type: 'object', required: ['field'], properties: { field: { type: 'string' } } },
  },
  merged_into: {
    type: 'integer',
    description: 'The record the edited one was merged into, which took the edit instead (an Outpost extension; contacts and leads only).',
  },
};

/** `{"items": [<resource envelope>…], "meta": {"type": "collection", "count", "links"}}` */
export function collectionEnvelope(item: JsonSchema): JsonSchema {
  return {
    type: 'object',
    required: ['items', 'meta'],
    properties: { items: { type: 'array', items: item }, meta: ref('CollectionMeta') },
    additionalProperties: false,
  };
}

/** The list query of a resource: paging, sorting and every filter its list definition accepts. */
export function listParameters(def: ListDefinition | null): JsonSchema[] {
  // The limits runList enforces (listing.ts pagingParams): beyond them a list answers `400 invalid_param`.
  const maxPerPage = def?.maxPerPage ?? 100;
  const params: JsonSchema[] = [
    def?.maxPage === undefined
      ? { $ref: '#/components/parameters/page' }
      : { name: 'page', in: 'query', description: `Page number, from 1 (at most ${def.maxPage}).`, schema: { type: 'integer', minimum: 1, maximum: def.maxPage, default: 1 } },
    { name: 'per_page', in: 'query', description: `Records per page (default 25, at most ${maxPerPage}).`, schema: { type: 'integer', minimum: 1, maximum: maxPerPage, default: 25 } },
    { $ref: '#/components/parameters/count' },
  ];
  if (!def) return params;
  const sorts = Object.keys(def.sorts);
  // A list with no sort names refuses every sort_by: it has no such parameter.
  if (sorts.length > 0 || def.extraSort) {
    const sortPattern = `^(${sorts.map(escapeRegExp).join('|')}${def.extraSort ? '|custom_fields:.+' : ''})(:(asc|desc))?$`;
    params.push({
      name: 'sort_by', in: 'query',
      description: `\`<field>\`, \`<field>:asc\` or \`<field>:desc\` (ties broken by id). Fields: ${sorts.map((s) => `\`${s}\``).join(', ')}${def.extraSort ? ', `custom_fields:<name>`' : ''}.${def.descendingByDefault ? ' Without a direction: descending.' : ''}`,
      schema: { type: 'string', pattern: sortPattern },
    });
  }
  params.push({ $ref: '#/components/parameters/ids' }, { $ref: '#/components/parameters/inclusive' });
  if ((SMART_LIST_TYPES as readonly string[]).includes(def.resource)) {
    params.push({
      name: 'smart_list_id', in: 'query',
      description: 'Only the records the smart list\'s saved filters select, together (AND) with this query\'s own filters; its `sort_by` unless the query gives one. '
        + 'A smart list that does not exist or is another user\'s private one: `404 not_found`; one of another resource: `400 invalid_param`.',
      schema: { type: 'integer' },
    });
  }
  for (const [name, filter] of Object.entries(def.filters)) {
    params.push({ name, in: 'query', description: `Records whose \`${name}\` is this value.`, schema: filterSchema(filter) });
  }
  if (def.searchIndex || def.extraFilter) {
    params.push({
      name: 'filters', in: 'query', style: 'form', explode: true,
      description: 'Further filters this list handles itself'
        + `${def.searchIndex ? ' (`q`: full-text search, newest match first unless sort_by is given)' : ''}`
        + `${def.extraFilter ? ' and other resource-specific parameters (e.g. `custom_fields[<name>]=value`)' : ''}; an unknown name is \`400 invalid_param\`.`,
      schema: { type: 'object', additionalProperties: { type: 'string' } },
    });
  }
  return params;
}

function filterSchema(filter: FilterDef): JsonSchema {
  switch (filter.kind) {
    case 'id': return { type: 'integer' };
    case 'bool': return { type: 'boolean' };
    case 'enum': return { type: 'string', enum: [...filter.values] };
    case 'string':
    case 'phone': return { type: 'string' };
  }
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Statuses of the error codes (shared/errors.ts), and the codes answered with each. */
export function codesByStatus(): Map<number, ErrorCode[]> {
  const map = new Map<number, ErrorCode[]>();
  for (const [code, status] of Object.entries(ERROR_CODES) as [ErrorCode, number][]) map.set(status, [...(map.get(status) ?? []), code]);
  return map;
}

/** Components every part of the document refers to. */
export function sharedComponents(): { schemas: Record<string, JsonSchema>; parameters: Record<string, JsonSchema>; responses: Record<string, JsonSchema> } {
  const responses: Record<string, JsonSchema> = {};
  for (const [status, codes] of codesByStatus()) {
    responses[`Error${status}`] = {
      description: `Error: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
      content: { 'application/json': { schema: errorEnvelopeSchema(codes) } },
    };
  }
  return {
    schemas: {
      Address: {
        type: 'object',
        properties: Object.fromEntries(ADDRESS_KEYS.map((k) => [k, nullable({ type: 'string', maxLength: 255 })])),
      },
      CollectionMeta: {
        type: 'object',
        required: ['type', 'count', 'links'],
        properties: {
          type: { const: 'collection' },
          count: { type: 'integer', minimum: 0, description: 'Items in this answer.' },
          total_count: { type: 'integer', minimum: 0, description: 'Every match of the list: only when asked with `count=true` (an Outpost extension).' },
          links: {
            type: 'object', required: ['self'],
            properties: { self: { type: 'string' }, first_page: { type: 'string' }, prev_page: { type: 'string' }, next_page: { type: 'string', description: 'Only when more records exist: stop when it is absent.' } },
          },
        },
      },
      Error: {
        type: 'object',
        required: ['resource', 'field', 'code', 'message', 'details'],
        properties: {
          resource: { type: 'string', description: 'The resource type the error is about, or `request`.' },
          field: { type: 'string', description: 'A JSON Pointer into the request (`/last_name`), or a query parameter or header name.' },
          code: { type: 'string', enum: Object.keys(ERROR_CODES) },
          message: { type: 'string' },
          details: { type: 'string' },
        },
        additionalProperties: false,
      },
    },
    parameters: {
      page: { name: 'page', in: 'query', description: 'Page number, from 1.', schema: { type: 'integer', minimum: 1, default: 1 } },
      count: { name: 'count', in: 'query', description: 'true adds `meta.total_count` (an Outpost extension).', schema: { type: 'boolean' } },
      ids: { name: 'ids', in: 'query', description: 'Exactly these records: `1,2`, or the parameter repeated.', schema: { type: 'string', pattern: '^-?\\d+(,-?\\d+)*$' } },
      inclusive: { name: 'inclusive', in: 'query', description: 'false joins the filters with OR instead of AND.', schema: { type: 'boolean', default: true } },
      idempotencyKey: {
        name: 'Idempotency-Key', in: 'header',
        description: 'The first request with a key runs; a repeat within a day gets its answer (`Idempotent-Replayed: true`).',
        schema: { type: 'string', pattern: '^[\\x21-\\x7e]{1,255}$' },
      },
      deviceUuid: {
        name: 'X-Service-Device-UUID', in: 'header', required: true,
        description: 'The device\'s UUID (`X-Basecrm-Device-UUID` is accepted too).',
        schema: { type: 'string', format: 'uuid' },
      },
    },
    responses,
  };
}

/** The error envelope of the real service, its codes narrowed to those of one status. */
function errorEnvelopeSchema(codes: readonly ErrorCode[]): JsonSchema {
  return {
    type: 'object',
    required: ['errors', 'meta'],
    properties: {
      errors: {
        type: 'array', minItems: 1,
        items: {
          type: 'object', required: ['error', 'meta'],
          properties: {
            error: { allOf: [ref('Error')], properties: { code: { enum: [...codes] } } },
            meta: {
              type: 'object', required: ['type', 'links'],
              properties: { type: { const: 'error' }, links: { type: 'object', required: ['more_info'], properties: { more_info: { type: 'string' } } } },
            },
          },
        },
      },
      meta: {
        type: 'object', required: ['type', 'http_status', 'logref', 'links'],
        properties: { type: { const: 'errors' }, http_status: { type: 'string' }, logref: { type: 'string' }, links: { type: 'object' } },
      },
    },
    additionalProperties: false,
  };
}
