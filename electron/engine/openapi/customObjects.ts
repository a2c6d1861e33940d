import { DESCRIPTION_MAX_LENGTH, KEY_MAX_LENGTH, KEY_PATTERN, TITLE_MAX_LENGTH } from '../customObjects/objects.js';
import { FIELD_DESCRIPTION_MAX, FIELD_KEY, FIELD_LIMIT, FIELD_TITLE_MAX } from '../customObjects/fields.js';
import { EXTERNAL_ID_MAX, NAME_MAX, PAGE_SIZE_MAX } from '../customObjects/records.js';
import { FIELD_TYPES } from '../customObjects/values.js';
import type { JsonSchema } from './schemas.js';
import { emptyAnswer, jsonAnswer, jsonBody, queryParam, type Operation } from './operation.js';

/**
 * The custom-objects interface (/api/v2, http/supportApi.ts): bare JSON
 * wrapped in the resource's name, its own errors, creates 201. Limits and
 * patterns are the engine's constants (customObjects/).
 */
const TAG = 'Custom objects (/api/v2)';
const BASE = '/api/v2/custom_objects';
const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });
const DATE_TIME = { type: 'string', format: 'date-time' };
const wrapped = (name: string, schema: JsonSchema): JsonSchema => ({ type: 'object', required: [name], properties: { [name]: schema }, additionalProperties: false });

export const SUPPORT_ERROR_CODES = [
  'InvalidPayload', 'InvalidParameter', 'Unauthorized', 'Forbidden', 'RecordNotFound', 'InvalidEndpoint', 'MethodNotAllowed',
  'PayloadTooLarge', 'UnsupportedMediaType', 'RecordInvalid', 'TooManyRequests', 'InternalError',
] as const;

export function customObjectSchemas(): Record<string, JsonSchema> {
  const trail = { type: 'string', description: 'A user id, as a string.' };
  return {
    CustomObject: {
      type: 'object', required: ['key', 'title', 'title_pluralized', 'created_at', 'updated_at', 'url'],
      properties: {
        key: { type: 'string', pattern: KEY_PATTERN.source, maxLength: KEY_MAX_LENGTH, description: 'Create-only.' },
        title: { type: 'string', maxLength: TITLE_MAX_LENGTH },
        title_pluralized: { type: 'string', maxLength: TITLE_MAX_LENGTH },
        description: { type: ['string', 'null'], maxLength: DESCRIPTION_MAX_LENGTH },
        raw_title: { type: 'string', readOnly: true }, raw_title_pluralized: { type: 'string', readOnly: true }, raw_description: { type: ['string', 'null'], readOnly: true },
        created_at: { ...DATE_TIME, readOnly: true }, updated_at: { ...DATE_TIME, readOnly: true },
        created_by_user_id: { ...trail, readOnly: true }, updated_by_user_id: { ...trail, readOnly: true },
        url: { type: 'string', readOnly: true },
      },
    },
    CustomObjectField: {
      type: 'object', required: ['key', 'type', 'title'],
      properties: {
        id: { type: 'integer', readOnly: true },
        key: {
          anyOf: [{ type: 'string', pattern: FIELD_KEY.source }, { type: 'string', pattern: '^standard::', readOnly: true }],
          description: 'Create-only: letters, digits and underscores, not only digits. The standard fields\' keys are `standard::<name>`.',
        },
        type: { enum: [...FIELD_TYPES], default: 'text', description: 'Create-only.' },
        title: { type: 'string', maxLength: FIELD_TITLE_MAX },
        description: { type: ['string', 'null'], maxLength: FIELD_DESCRIPTION_MAX },
        active: { type: 'boolean' }, position: { type: 'integer' }, system: { type: 'boolean', readOnly: true },
        custom_field_options: { type: ['array', 'null'], items: { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, raw_name: { type: 'string' }, value: { type: 'string' }, position: { type: 'integer' } } } },
        regexp_for_validation: { type: ['string', 'null'] },
        relationship_target_type: { type: ['string', 'null'], description: 'lookup: `zen:user`, `sell:contact`, `sell:deal`, `sell:lead` or `zen:custom_object:<key>`.' },
        url: { type: 'string', readOnly: true },
        created_at: { ...DATE_TIME, readOnly: true }, updated_at: { ...DATE_TIME, readOnly: true },
      },
    },
    CustomObjectRecord: {
      type: 'object', required: ['id', 'name', 'custom_object_key', 'custom_object_fields', 'created_at', 'updated_at', 'url'],
      properties: {
        id: { type: 'string', description: 'A ULID (26 characters).', readOnly: true },
        name: { type: 'string', maxLength: NAME_MAX },
        external_id: { type: ['string', 'null'], maxLength: EXTERNAL_ID_MAX },
        custom_object_key: { type: 'string', readOnly: true },
        custom_object_fields: { type: 'object', description: 'Every field of the object, by key (`null` when unset); the value\'s type is the field\'s.' },
        created_by_user_id: { ...trail, readOnly: true }, updated_by_user_id: { ...trail, readOnly: true },
        created_at: { ...DATE_TIME, readOnly: true }, updated_at: { ...DATE_TIME, readOnly: true },
        url: { type: 'string', readOnly: true },
      },
    },
    RecordPage: {
      type: 'object', required: ['custom_object_records', 'meta', 'links'],
      properties: {
        custom_object_records: { type: 'array', items: ref('CustomObjectRecord') },
        meta: { type: 'object', required: ['has_more'], properties: { has_more: { type: 'boolean' }, after_cursor: { type: ['string', 'null'] }, before_cursor: { type: ['string', 'null'] } } },
        links: { type: 'object', properties: { prev: { type: ['string', 'null'] }, next: { type: ['string', 'null'] } } },
      },
    },
    SupportError: {
      type: 'object', required: ['error', 'description'],
      properties: {
        error: { enum: [...SUPPORT_ERROR_CODES] },
        description: { type: 'string' },
        details: {
          type: 'object',
          description: 'RecordInvalid: the problems by property (`base` for the request as a whole).',
          additionalProperties: { type: 'array', items: { type: 'object', required: ['error', 'description'], properties: { error: { type: 'string' }, description: { type: 'string' } } } },
        },
      },
    },
  };
}

export function customObjectOperations(): Operation[] {
  const security = 'support' as const;
  const object = ref('CustomObject');
  const field = ref('CustomObjectField');
  const record = ref('CustomObjectRecord');
  const key = '/:custom_object_key';
  const pageParams = [
    queryParam('page[size]', `1–${PAGE_SIZE_MAX}.`, { type: 'integer', minimum: 1, maximum: PAGE_SIZE_MAX, default: PAGE_SIZE_MAX }),
    queryParam('page[after]', 'A `meta.after_cursor`.', { type: 'string' }),
    queryParam('page[before]', 'A `meta.before_cursor`.', { type: 'string' }),
    queryParam('sort', '`id`, `name`, `created_at`, `updated_at`; `-` in front for descending.', { type: 'string', pattern: '^-?(id|name|created_at|updated_at)$' }),
  ];
  const created = (name: string, schema: JsonSchema) => ({ 201: { ...jsonAnswer('Created; `Location` is its `url`.', wrapped(name, schema)), headers: { Location: { schema: { type: 'string' } } } } });
  const ok = (description: string, schema: JsonSchema) => ({ 200: jsonAnswer(description, schema) });
  return [
    { method: 'GET', path: BASE, tag: TAG, summary: 'List custom objects', security, responses: ok('Every object, in creation order.', wrapped('custom_objects', { type: 'array', items: object })) },
    { method: 'POST', path: BASE, tag: TAG, summary: 'Create a custom object', description: 'Admins only; limited by the account\'s plan.', security, requestBody: jsonBody(wrapped('custom_object', object)), responses: created('custom_object', object) },
    { method: 'GET', path: `${BASE}${key}`, tag: TAG, summary: 'Retrieve a custom object', security, responses: ok('The object.', wrapped('custom_object', object)) },
    { method: 'PATCH', path: `${BASE}${key}`, tag: TAG, summary: 'Change a custom object', description: 'Admins only.', security, requestBody: jsonBody(wrapped('custom_object', { type: 'object' })), responses: ok('The object as changed.', wrapped('custom_object', object)) },
    { method: 'DELETE', path: `${BASE}${key}`, tag: TAG, summary: 'Delete a custom object', description: 'Admins only; its fields and records go with it. Refused while a lookup field of another object targets it.', security, responses: { 204: emptyAnswer('Deleted.') } },
    { method: 'GET', path: `${BASE}${key}/fields`, tag: TAG, summary: 'List an object\'s fields', security, responses: ok('The standard fields first, then the others by position.', wrapped('custom_object_fields', { type: 'array', items: field })) },
    { method: 'POST', path: `${BASE}${key}/fields`, tag: TAG, summary: 'Create a field', description: `Admins only; at most ${FIELD_LIMIT} custom fields.`, security, requestBody: jsonBody(wrapped('custom_object_field', field)), responses: created('custom_object_field', field) },
    {
      method: 'PUT', path: `${BASE}${key}/fields/reorder`, tag: TAG, summary: 'Reorder the fields', description: 'Admins only; every custom field id once, in the new order.', security,
      requestBody: jsonBody({ type: 'object', required: ['custom_object_field_ids'], properties: { custom_object_field_ids: { type: 'array', items: { type: ['integer', 'string'] } } } }),
      responses: ok('The fields in their new order.', wrapped('custom_object_fields', { type: 'array', items: field })),
    },
    { method: 'GET', path: `${BASE}${key}/limits/field_limit`, tag: TAG, summary: 'Custom fields used and allowed', security, responses: ok('The count and the limit.', { type: 'object', required: ['count', 'limit'], properties: { count: { type: 'integer' }, limit: { const: FIELD_LIMIT } } }) },
    { method: 'GET', path: `${BASE}${key}/fields/:field`, tag: TAG, summary: 'Retrieve a field', description: '`field`: an id (all digits) or a key.', security, responses: ok('The field.', wrapped('custom_object_field', field)) },
    { method: 'PATCH', path: `${BASE}${key}/fields/:field`, tag: TAG, summary: 'Change a field', description: 'Admins only.', security, requestBody: jsonBody(wrapped('custom_object_field', { type: 'object' })), responses: ok('The field as changed.', wrapped('custom_object_field', field)) },
    { method: 'DELETE', path: `${BASE}${key}/fields/:field`, tag: TAG, summary: 'Delete a field', description: 'Admins only; its values leave every record.', security, responses: { 204: emptyAnswer('Deleted.') } },
    {
      method: 'GET', path: `${BASE}${key}/records`, tag: TAG, summary: 'List records', description: 'Cursor paging.', security,
      parameters: [...pageParams, queryParam('filter[ids]', 'Comma-separated record ids (at most 100).', { type: 'string' }), queryParam('filter[external_ids]', 'Comma-separated external ids (at most 100).', { type: 'string' })],
      responses: ok('A page of records.', ref('RecordPage')),
    },
    {
      method: 'GET', path: `${BASE}${key}/records/search`, tag: TAG, summary: 'Search records', description: 'Records whose name or text values contain any word of `query`.', security,
      parameters: [queryParam('query', 'The words to find.', { type: 'string' }, true), ...pageParams], responses: ok('A page of records.', ref('RecordPage')),
    },
    {
      method: 'GET', path: `${BASE}${key}/records/count`, tag: TAG, summary: 'Count records', security,
      responses: ok('How many records the object has.', wrapped('count', { type: 'object', required: ['value', 'refreshed_at'], properties: { value: { type: 'integer' }, refreshed_at: DATE_TIME } })),
    },
    { method: 'POST', path: `${BASE}${key}/records`, tag: TAG, summary: 'Create a record', security, requestBody: jsonBody(wrapped('custom_object_record', record)), responses: created('custom_object_record', record) },
    { method: 'GET', path: `${BASE}${key}/records/:id`, tag: TAG, summary: 'Retrieve a record', security, responses: ok('The record.', wrapped('custom_object_record', record)) },
    {
      method: 'PATCH', path: `${BASE}${key}/records/:id`, tag: TAG, summary: 'Change a record', description: 'Sent field values are merged into the stored ones; `null` clears one.', security,
      requestBody: jsonBody(wrapped('custom_object_record', { type: 'object' })), responses: ok('The record as changed.', wrapped('custom_object_record', record)),
    },
    { method: 'DELETE', path: `${BASE}${key}/records/:id`, tag: TAG, summary: 'Delete a record', description: 'Lookups naming it are cleared.', security, responses: { 204: emptyAnswer('Deleted.') } },
  ];
}
