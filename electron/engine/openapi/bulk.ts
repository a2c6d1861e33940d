import { MAX_BULK_RECORDS } from '../resources/bulkEdits.js';
import type { FieldTable } from '../resources/fields.js';
import { FIELDS as CONTACT_FIELDS } from '../resources/contacts.js';
import { FIELDS as LEAD_FIELDS } from '../resources/leads.js';
import { FIELDS as DEAL_FIELDS } from '../resources/deals.js';
import { FIELDS as TASK_FIELDS } from '../resources/tasks.js';
import { schemaRef, writeDataSchema, type JsonSchema } from './schemas.js';
import { dataBody, jsonAnswer, type Operation } from './operation.js';

/** The resources with `POST /v2/<plural>/bulk` (http/routes/bulk.ts), with what their update takes beyond the field table. */
const BULK: { plural: string; tag: string; fields: FieldTable; tagged: boolean; own?: Record<string, JsonSchema> }[] = [
  { plural: 'contacts', tag: 'Contacts', fields: CONTACT_FIELDS, tagged: true },
  { plural: 'leads', tag: 'Leads', fields: LEAD_FIELDS, tagged: true },
  { plural: 'deals', tag: 'Deals', fields: DEAL_FIELDS, tagged: true, own: { value: { type: ['string', 'number', 'null'], description: 'The deal\'s value, a decimal.' } } },
  { plural: 'tasks', tag: 'Tasks', fields: TASK_FIELDS, tagged: false },
];

const TAG_NAMES: JsonSchema = { type: 'array', items: { type: 'string' } };

/** One refused record: its id and the error items its own PUT or DELETE would have answered. */
const FAILURE: JsonSchema = {
  type: 'object', required: ['id', 'errors'],
  properties: {
    id: { type: 'integer' },
    errors: {
      type: 'array', minItems: 1,
      items: {
        type: 'object', required: ['error', 'meta'],
        properties: {
          error: schemaRef('Error'),
          meta: { type: 'object', required: ['type', 'links'], properties: { type: { const: 'error' }, links: { type: 'object', properties: { more_info: { type: 'string' } } } } },
        },
      },
    },
  },
};

const RESULT: JsonSchema = {
  type: 'object', required: ['data', 'meta'], additionalProperties: false,
  properties: {
    data: {
      type: 'object', required: ['updated', 'failed'],
      properties: {
        updated: { type: 'array', items: { type: 'integer' }, description: 'The records changed (deleted, for a delete), in the order given or listed.' },
        failed: { type: 'array', items: FAILURE, description: 'The records refused, each left as it was.' },
      },
    },
    meta: { type: 'object', required: ['type'], properties: { type: { const: 'bulk_result' } } },
  },
};

function bulkBody(fields: FieldTable, tagged: boolean, own: Record<string, JsonSchema> = {}): JsonSchema {
  const tagOps: Record<string, JsonSchema> = tagged ? { tags_add: { ...TAG_NAMES, description: 'Tags to add; the record keeps the others.' }, tags_remove: { ...TAG_NAMES, description: 'Tags to take off.' } } : {};
  return dataBody({
    type: 'object',
    additionalProperties: false,
    properties: {
      ids: { type: 'array', items: { type: 'integer' }, minItems: 1, maxItems: MAX_BULK_RECORDS, description: 'The records to change.' },
      smart_list_id: { type: 'integer', description: 'Instead of ids: every record of this smart list, as its list endpoint answers it.' },
      filters: { type: 'object', additionalProperties: { anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] }, description: 'Instead of ids: every record the list endpoint answers for these query parameters (an Outpost extension).' },
      update: writeDataSchema(fields, 'update', { ...own, ...tagOps }),
      delete: { const: true },
    },
  });
}

/** `POST /v2/{contacts|leads|deals|tasks}/bulk`. */
export function bulkOperations(): Operation[] {
  return BULK.map(({ plural, tag, fields, tagged, own }) => ({
    method: 'POST' as const,
    path: `/v2/${plural}/bulk`,
    tag,
    summary: `Change or delete many ${plural}`,
    description: `Give \`ids\` (at most ${MAX_BULK_RECORDS}), \`smart_list_id\` or \`filters\`, and either \`update\` (the fields of a PUT${tagged ? ', plus `tags_add` and `tags_remove`' : ''}) or \`delete: true\`. Each record goes through its own PUT or DELETE (rules, change log); a refused one is listed in \`failed\` with its errors and left as it was.`,
    security: 'bearer' as const,
    requestBody: bulkBody(fields, tagged, own),
    responses: { 200: jsonAnswer('What changed and what was refused.', RESULT) },
  }));
}
