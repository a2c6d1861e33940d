import type { Engine } from '../engine.js';
import { PLANS, PLAN_LIMITS } from '../../../shared/resources/account.js';
import type { FieldTable } from '../resources/fields.js';
import type { ListDefinition } from '../resources/listing.js';
import { FIELDS as CONTACT_FIELDS } from '../resources/contacts.js';
import { FIELDS as LEAD_FIELDS } from '../resources/leads.js';
import { FIELDS as DEAL_FIELDS } from '../resources/deals.js';
import { FIELDS as PIPELINE_FIELDS } from '../resources/pipelines.js';
import { FIELDS as STAGE_FIELDS } from '../resources/stages.js';
import { FIELDS as TASK_FIELDS } from '../resources/tasks.js';
import { FIELDS as NOTE_FIELDS } from '../resources/notes.js';
import { FIELDS as CALL_FIELDS } from '../resources/calls.js';
import { FIELDS as EMAIL_TEMPLATE_FIELDS } from '../resources/emailTemplates.js';
import { FIELDS as SEQUENCE_FIELDS } from '../resources/sequences.js';
import { FIELDS as TAG_FIELDS } from '../resources/tags.js';
import { FIELDS as COLLABORATION_FIELDS } from '../resources/collaborations.js';
import { FIELDS as TEXT_MESSAGE_FIELDS, LIST as TEXT_MESSAGE_LIST } from '../resources/textMessages.js';
import { FIELDS as VISIT_FIELDS, LIST as VISIT_LIST } from '../resources/visits.js';
import { FIELDS as ENROLLMENT_FIELDS } from '../resources/enrollments.js';
import { FIELDS as ASSOCIATED_CONTACT_FIELDS, FLAT_FIELDS as FLAT_ASSOCIATED_CONTACT_FIELDS, FLAT_LIST as FLAT_ASSOCIATED_CONTACT_LIST } from '../resources/associatedContacts.js';
import { FIELDS as PRODUCT_FIELDS } from '../resources/products.js';
import { FIELDS as ORDER_FIELDS } from '../resources/orders.js';
import { FIELDS as LINE_ITEM_FIELDS, FLAT_FIELDS as FLAT_LINE_ITEM_FIELDS } from '../resources/lineItems.js';
import { FIELDS as SMART_LIST_FIELDS } from '../resources/smartLists.js';
import {
  CONFLICTS_META, collectionEnvelope, listParameters, recordSchema, resourceEnvelope, schemaRef, writeBodySchema, writeDataSchema, type JsonSchema,
} from './schemas.js';
import { emptyAnswer, jsonAnswer, jsonBody, type Operation } from './operation.js';

/**
 * The resources registered with the regular REST shape (http/crud.ts
 * registerCrud, and the nested forms of the same records): their field
 * tables and list definitions. An entry offers every operation; the document
 * keeps those the app registered, so a resource's real methods decide.
 */
interface CrudEntry {
  base: string;
  /** `meta.type` of its records. */
  type: string;
  tag: string;
  /** The table `checkFields` validates its writes with. */
  fields: FieldTable;
  /** Its list definition (filters, sorts), or null where the list is built inline. */
  list: ListDefinition | null;
  /** The record path's parameter (`id`, `contact_id`). */
  idName?: string;
  /** Said about the resource in every operation. */
  note?: string;
  /** Fields the resource checks itself, outside its table (decimals: resources/decimal.ts). */
  own?: Record<string, JsonSchema>;
}

const DECIMAL: JsonSchema = { anyOf: [{ type: 'string', pattern: '^-?\\d+(\\.\\d+)?$' }, { type: 'number' }, { type: 'null' }], description: 'A decimal, exact: a string such as "1599.99" (a number is taken too); answered as a string.' };
const PRICES: JsonSchema = {
  type: 'array', description: 'The whole set of prices, one per currency.',
  items: { type: 'object', required: ['amount', 'currency'], properties: { amount: DECIMAL, currency: { type: 'string', pattern: '^[A-Z]{3}$' } } },
};

/** A private list definition of a resource service (they are the services' own; read, never changed). */
export function listOf(service: object, name = 'list'): ListDefinition | null {
  const value: unknown = Reflect.get(service, name);
  const def = name === 'lists' && value && typeof value === 'object' ? (value as Record<string, unknown>).admin : value;
  return isListDefinition(def) ? def : null;
}

function isListDefinition(value: unknown): value is ListDefinition {
  return typeof value === 'object' && value !== null && 'filters' in value && 'sorts' in value && 'resource' in value;
}

function fieldsOf(service: object): FieldTable {
  return Reflect.get(service, 'fields') as FieldTable;
}

const ADMIN_WRITES = 'Everyone reads; only admins create, change and delete (others: `403 forbidden`).';
const AUTHOR_WRITES = 'Only the user who recorded it (`creator_id`) or an admin changes or deletes it (others: `403 forbidden`).';
/** What http/commerce.ts answers (Accounts.checkCommerce): `403 forbidden` on a plan without commerce, and to writes while changes are off. */
const COMMERCE = `Only on a plan with commerce (${PLANS.filter((p) => PLAN_LIMITS[p].commerce).map((p) => `\`${p}\``).join(' or ')}); on another plan every request is \`403 forbidden\`. `
  + 'While an admin has turned changes off (`commerce_changes: disabled`, `PUT /v2/accounts/self`) they are read-only: a change is `403 forbidden`.';

export function crudEntries(engine: Engine): CrudEntry[] {
  const named = (base: string, service: object & { kind: { type: string } }, tag: string, note = ADMIN_WRITES): CrudEntry =>
    ({ base, type: service.kind.type, tag, fields: fieldsOf(service), list: listOf(service), note });
  return [
    { base: '/v2/contacts', type: 'contact', tag: 'Contacts', fields: CONTACT_FIELDS, list: listOf(engine.contacts) },
    { base: '/v2/leads', type: 'lead', tag: 'Leads', fields: LEAD_FIELDS, list: listOf(engine.leads) },
    { base: '/v2/deals', type: 'deal', tag: 'Deals', fields: DEAL_FIELDS, list: listOf(engine.deals), own: { value: DECIMAL } },
    { base: '/v2/pipelines', type: 'pipeline', tag: 'Pipelines and stages', fields: PIPELINE_FIELDS, list: listOf(engine.pipelines), note: ADMIN_WRITES },
    { base: '/v2/stages', type: 'stage', tag: 'Pipelines and stages', fields: STAGE_FIELDS, list: listOf(engine.stages), note: ADMIN_WRITES },
    { base: '/v2/tasks', type: 'task', tag: 'Tasks', fields: TASK_FIELDS, list: listOf(engine.tasks) },
    { base: '/v2/notes', type: 'note', tag: 'Notes', fields: NOTE_FIELDS, list: listOf(engine.notes), note: AUTHOR_WRITES },
    { base: '/v2/calls', type: 'call', tag: 'Calls', fields: CALL_FIELDS, list: listOf(engine.calls), note: AUTHOR_WRITES },
    named('/v2/call_outcomes', engine.callOutcomes, 'Calls'),
    named('/v2/visit_outcomes', engine.visitOutcomes, 'Visits'),
    named('/v2/loss_reasons', engine.lossReasons, 'Sources and reasons'),
    named('/v2/deal_unqualified_reasons', engine.dealUnqualifiedReasons, 'Sources and reasons'),
    named('/v2/lead_unqualified_reasons', engine.leadUnqualifiedReasons, 'Sources and reasons'),
    named('/v2/lead_sources', engine.leadSources, 'Sources and reasons', 'Agents and admins manage sources.'),
    named('/v2/deal_sources', engine.dealSources, 'Sources and reasons', 'Agents and admins manage sources.'),
    named('/v2/sources', engine.sources, 'Sources and reasons', 'Lead and deal sources together (an Outpost extension).'),
    { base: '/v2/email_templates', type: 'email_template', tag: 'Sequences', fields: EMAIL_TEMPLATE_FIELDS, list: listOf(engine.emailTemplates), note: ADMIN_WRITES },
    { base: '/v2/sequences', type: 'sequence', tag: 'Sequences', fields: SEQUENCE_FIELDS, list: listOf(engine.sequences), note: ADMIN_WRITES },
    { base: '/v2/sequence_enrollments', type: 'sequence_enrollment', tag: 'Sequences', fields: ENROLLMENT_FIELDS, list: listOf(engine.enrollments) },
    { base: '/v2/tags', type: 'tag', tag: 'Tags', fields: TAG_FIELDS, list: listOf(engine.tags) },
    {
      base: '/v2/smart_lists', type: 'smart_list', tag: 'Smart lists', fields: SMART_LIST_FIELDS, list: listOf(engine.smartLists),
      note: 'A list screen\'s filters (the list endpoint\'s own query parameters, values as strings), sort and columns saved under a name. '
        + 'The caller sees their own lists and the shared ones (another user\'s private list is `404`); a shared list is changed or deleted only by its owner or an admin (`403`). '
        + '`filters` and `sort_by` are checked as the list would check them: `422` with the field `/filters/<name>` or `/sort_by`.',
    },
    { base: '/v2/collaborations', type: 'collaboration', tag: 'Collaborations', fields: COLLABORATION_FIELDS, list: listOf(engine.collaborations) },
    { base: '/v2/text_messages', type: 'text_message', tag: 'Text messages', fields: TEXT_MESSAGE_FIELDS, list: TEXT_MESSAGE_LIST },
    { base: '/v2/visits', type: 'visit', tag: 'Visits', fields: VISIT_FIELDS, list: VISIT_LIST, note: `Recording, changing and deleting visits are Outpost extensions. ${AUTHOR_WRITES}` },
    {
      base: '/v2/deals/:deal_id/associated_contacts', type: 'associated_contact', tag: 'Associated contacts', fields: ASSOCIATED_CONTACT_FIELDS,
      list: null, idName: 'contact_id', note: 'The contacts of one deal, as the real service nests them.',
    },
    { base: '/v2/associated_contacts', type: 'associated_contact', tag: 'Associated contacts', fields: FLAT_ASSOCIATED_CONTACT_FIELDS, list: FLAT_ASSOCIATED_CONTACT_LIST, note: 'Associations addressed by their own id (an Outpost extension).' },
    {
      base: '/v2/products', type: 'product', tag: 'Products and orders', fields: PRODUCT_FIELDS, list: listOf(engine.products, 'lists'), note: COMMERCE,
      own: { prices: PRICES, cost: DECIMAL, max_discount: DECIMAL, max_markup: DECIMAL },
    },
    { base: '/v2/orders', type: 'order', tag: 'Products and orders', fields: ORDER_FIELDS, list: listOf(engine.orders), note: COMMERCE, own: { discount: DECIMAL } },
    { base: '/v2/orders/:order_id/line_items', type: 'line_item', tag: 'Products and orders', fields: LINE_ITEM_FIELDS, list: listOf(engine.lineItems), note: COMMERCE, own: { variation: DECIMAL } },
    {
      base: '/v2/line_items', type: 'line_item', tag: 'Products and orders', fields: FLAT_LINE_ITEM_FIELDS, list: listOf(engine.lineItems),
      note: `Line items addressed by their own id (an Outpost extension). ${COMMERCE}`, own: { variation: DECIMAL },
    },
  ];
}

/** Every operation a CRUD resource can have, with its schemas (components named by `meta.type`). */
export function crudOperations(entry: CrudEntry, schemaName: string): Operation[] {
  const { base, type, tag, note } = entry;
  const idPath = `${base}/:${entry.idName ?? 'id'}`;
  const record = schemaRef(schemaName);
  const one = resourceEnvelope(type, record);
  const description = note;
  const ops: Operation[] = [
    {
      method: 'GET', path: base, tag, summary: `List ${plural(type)}`, description, security: 'bearer',
      parameters: listParameters(entry.list),
      responses: { 200: jsonAnswer(`A page of ${plural(type)}.`, collectionEnvelope(one)) },
    },
    { method: 'GET', path: idPath, tag, summary: `Retrieve a ${label(type)}`, description, security: 'bearer', responses: { 200: jsonAnswer(`The ${label(type)}.`, one) } },
    {
      method: 'POST', path: base, tag, summary: `Create a ${label(type)}`, description, security: 'bearer',
      requestBody: jsonBody(writeBodySchema(writeDataSchema(entry.fields, 'create', entry.own), 'create')),
      responses: { 200: jsonAnswer(`The new ${label(type)} (200, as the real service answers creates).`, one) },
    },
    {
      method: 'PUT', path: idPath, tag, summary: `Update a ${label(type)}`, description, security: 'bearer',
      requestBody: jsonBody(writeBodySchema(writeDataSchema(entry.fields, 'update', entry.own), 'update')),
      responses: { 200: jsonAnswer(`The ${label(type)} as changed.`, resourceEnvelope(type, record, CONFLICTS_META)) },
    },
    { method: 'DELETE', path: idPath, tag, summary: `Delete a ${label(type)}`, description, security: 'bearer', responses: { 204: emptyAnswer('Deleted.') } },
  ];
  return ops;
}

/** The component schema of a resource's records. */
export function crudRecordSchema(entry: CrudEntry): JsonSchema {
  return recordSchema(entry.fields, `A ${label(entry.type)} as the API answers it.`, entry.own);
}

export const label = (type: string) => type.replace(/_/g, ' ');
const plural = (type: string) => `${label(type)}s`.replace(/ys$/, 'ies');
