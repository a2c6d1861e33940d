import { REPORT_NAMES, REPORT_ROW_TYPES } from '../../../shared/resources/report.js';
import { SCOPES } from '../../../shared/oauth.js';
import { DEFAULT_SEARCH_RESULTS, MAX_SEARCH_RESULTS } from '../../../shared/resources/recordSearch.js';
import type { ListDefinition } from '../resources/listing.js';
import { CURRENCIES } from '../../../shared/currencies.js';
import { RATE_PATTERN } from '../../../shared/money.js';
import { USER_LIST } from '../resources/users.js';
import { LIST as DOCUMENT_LIST } from '../resources/documents.js';
import { DOCUMENT_RESOURCE_TYPES } from '../../../shared/resources/document.js';
import { FIELDS as LEAD_CONVERSION_FIELDS } from '../resources/leadConversions.js';
import { DUPLICATE_REASONS, MERGE_SIDES } from '../../../shared/resources/merge.js';
import { ADDRESS_KEYS } from '../../../shared/resources/address.js';
import {
  collectionEnvelope, listParameters, resourceEnvelope, schemaRef, writeBodySchema, writeDataSchema, type JsonSchema,
} from './schemas.js';
import {
  dataBody, emptyAnswer, jsonAnswer, jsonBody, queryParam, textAnswer, type Operation,
} from './operation.js';

/** The converted lead's deal value (an Outpost extension), a decimal as a deal's `value` is. */
const DEAL_VALUE: JsonSchema = { anyOf: [{ type: 'string', pattern: '^\\d+(\\.\\d+)?$' }, { type: 'number' }, { type: 'null' }], description: 'The deal\'s value, an exact decimal ("12500.50"); without it the deal is worth 0.' };

/**
 * The operations that are not plain CRUD of a field table: what each takes
 * and answers, with the engine's own constants (report names, scopes, sync
 * types) and tables where it has them. Taken before the CRUD ones, so an
 * override (`PUT /v2/collaborations/:id`, always 405) wins.
 */
const object = (description?: string, properties: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema =>
  ({ type: 'object', ...(description ? { description } : {}), properties, required });

const one = (type: string, data: JsonSchema = object()) => resourceEnvelope(type, data);
const page = (type: string, data: JsonSchema = object()) => collectionEnvelope(resourceEnvelope(type, data));
const ok = (description: string, schema: JsonSchema) => ({ 200: jsonAnswer(description, schema) });

const USER = object('A user of the account.', {
  id: { type: 'integer' }, name: { type: 'string' }, email: { type: 'string' },
  status: { enum: ['active', 'inactive'] }, role: { enum: ['user', 'admin'] }, confirmed: { type: 'boolean' }, invited: { type: 'boolean' },
  created_at: { type: 'string', format: 'date-time' }, updated_at: { type: 'string', format: 'date-time' },
}, ['id', 'name', 'email', 'status', 'role']);

const ACCOUNT = object('The account (one per hub).', { id: { type: 'integer' }, name: { type: 'string' }, currency: { type: 'string' } }, ['id', 'name']);

const CUSTOM_FIELD = object('A custom field definition.', {
  id: { type: 'integer' }, name: { type: 'string' }, type: { type: 'string' }, resource_type: { type: 'string' },
}, ['id', 'name', 'type']);

const EXCHANGE_RATE = object('How many units of the account\'s currency one unit of `currency` is worth.', {
  id: { type: 'integer' },
  currency: { type: 'string', enum: CURRENCIES.map((c) => c.code), description: 'ISO 4217 code (shared/currencies.ts), never the account\'s own.' },
  rate: { type: 'string', pattern: RATE_PATTERN.source, description: 'A positive decimal, e.g. `"1.087"`: 1 unit of `currency` = `rate` units of the account\'s currency.' },
  set_at: { type: 'string', format: 'date-time', description: 'When the rate was last set.' },
  set_by_id: { type: ['integer', 'null'], description: 'The admin who set it.' },
  created_at: { type: 'string', format: 'date-time' }, updated_at: { type: 'string', format: 'date-time' },
}, ['id', 'currency', 'rate', 'set_at']);

const DUPLICATE_GROUP = object('Records that are likely duplicates of each other.', {
  reason: { enum: [...DUPLICATE_REASONS], description: '`email`: the same email, ignoring case; `phone`: the same phone number (its last nine digits, either of phone and mobile); `name`: in the same organization, close names (ignoring case, accents and punctuation; a spelling variant a letter or two apart, or the same words in another order); outside organizations, the same name ignoring case.' },
  key: { type: 'string', description: 'The value they share, normalized.' },
  ids: { type: 'array', items: { type: 'integer' }, description: 'The records, lowest id first.' },
}, ['reason', 'key', 'ids']);

/** `GET …/duplicates` and `POST …/:id/merge` of contacts or leads (Outpost extensions). */
function mergingOperations(plural: 'contacts' | 'leads', bearer: Operation['security']): Operation[] {
  const type = plural === 'contacts' ? 'contact' : 'lead';
  const tag = plural === 'contacts' ? 'Contacts' : 'Leads';
  const candidate = (name: string, what: string) => queryParam(name, `Instead of every group: the ${plural} a ${type} not yet saved with this ${what} would duplicate.`, { type: 'string' });
  const organization = plural === 'contacts'
    ? queryParam('contact_id', 'With `name`: the organization of the contact not yet saved; its people with a close name are found too.', { type: 'integer' })
    : queryParam('organization_name', 'With `name`: the organization name of the lead not yet saved; leads of that organization name with a close name are found too.', { type: 'string' });
  return [
    {
      method: 'GET', path: `/v2/${plural}/duplicates`, tag, summary: `Find likely duplicate ${plural}`,
      description: `Groups of ${plural} sharing an email, a phone number or a close name in the same organization, a page at a time (an Outpost extension). With \`email\`, \`phone\` or \`name\`: the ${plural} a new ${type} would duplicate, one group per reason.`,
      security: bearer, parameters: [candidate('email', 'email'), candidate('phone', 'phone number'), candidate('name', 'name'), organization, queryParam('page', 'Page number.', { type: 'integer', minimum: 1 }), queryParam('per_page', 'Groups per page (at most 100).', { type: 'integer', minimum: 1, maximum: 100 })],
      responses: ok('A page of groups.', page('duplicate_group', DUPLICATE_GROUP)),
    },
    {
      method: 'POST', path: `/v2/${plural}/:id/merge`, tag, summary: `Merge two ${plural}`,
      description: `Merges \`merge_with_id\` into this ${type}, which survives (an Outpost extension): it keeps its values, fills its blanks from the other (addresses and custom fields key by key) or takes the values \`fields\` chooses, gets both records' tags; every record naming the other now names it; the other is deleted.`,
      security: bearer,
      requestBody: dataBody(object(undefined, {
        merge_with_id: { type: 'integer', description: `The ${type} merged into this one and deleted.` },
        fields: {
          type: 'object',
          additionalProperties: {
            oneOf: [
              { enum: [...MERGE_SIDES] },
              { type: 'object', additionalProperties: false, properties: Object.fromEntries(ADDRESS_KEYS.map((key) => [key, { enum: [...MERGE_SIDES] }])) },
            ],
          },
          description: 'Per field, whose value the survivor keeps: `survivor` or `other`; an address (`address`, `billing_address`, `shipping_address`) also part by part, as an object of sides by part (`{"city": "other"}`).',
        },
      }, ['merge_with_id'])),
      responses: ok(`The surviving ${type}.`, one(type, schemaRef(tag === 'Contacts' ? 'Contact' : 'Lead'))),
    },
  ];
}

const SEARCH_ITEM = object('A record matching the search.', { id: { type: 'integer' }, type: { type: 'string' } });

const CUSTOM_FIELD_RESOURCES = ['contact', 'lead', 'deal'] as const;
const EXPORTS = ['contacts', 'leads', 'deals', 'tasks', 'notes', 'products', 'orders', 'sequences', 'sequence_enrollments'];

const OAUTH_ERROR: JsonSchema = {
  type: 'object', required: ['error'],
  properties: { error: { type: 'string', description: 'An RFC 6749 error code (`invalid_request`, `invalid_client`, `invalid_grant`, …).' }, error_description: { type: 'string' } },
};
/** Every error under /oauth2 is OAuth's (RFC 6749 §5.2), whatever raised it (http/routes/oauth.ts, sendOAuthFailure). */
const oauthFailure = (description: string) => ({
  400: jsonAnswer(`${description} Also a body that is not a well-formed form or JSON object, or a field given twice (\`invalid_request\`).`, OAUTH_ERROR),
  401: jsonAnswer('The client could not be authenticated (`invalid_client`, with `WWW-Authenticate: Basic`).', OAUTH_ERROR),
  413: jsonAnswer('The body is larger than 1 MiB (`invalid_request`).', OAUTH_ERROR),
  415: jsonAnswer('The body is neither `application/x-www-form-urlencoded` nor JSON (`invalid_request`).', OAUTH_ERROR),
  429: jsonAnswer('Too many tries (`slow_down`, with `Retry-After`).', OAUTH_ERROR),
  500: jsonAnswer('A fault of the server\'s (`server_error`); the request id (`X-Request-Id`) finds it in the log.', OAUTH_ERROR),
  503: jsonAnswer('The database or the hub cannot answer right now (`temporarily_unavailable`, with `Retry-After`).', OAUTH_ERROR),
});
/** /health's checks: each part of the hub and whether it answers. */
const healthChecks = object('Each part and how it is.', {
  database: { enum: ['ok', 'unavailable'] },
  hub: { enum: ['ok', 'unreachable'], description: 'A desktop replica\'s hub, as its sync last found it.' },
}, ['database']);
const FORM = 'application/x-www-form-urlencoded';
const formBody = (properties: Record<string, JsonSchema>, required: string[]): JsonSchema => {
  const schema = { type: 'object', properties, required };
  return { required: true, content: { [FORM]: { schema }, 'application/json': { schema } } };
};

const syncItem = (types: readonly string[]): JsonSchema => ({
  type: 'object', required: ['data', 'meta'],
  properties: {
    data: { type: 'object', required: ['id'], description: 'The record as GET answers it; a `deleted` item carries only `id`.' },
    meta: {
      type: 'object', required: ['type', 'sync'],
      properties: {
        type: { enum: [...types] },
        sync: {
          type: 'object', required: ['event_type', 'ack_key', 'revision'],
          properties: { event_type: { enum: ['created', 'updated', 'deleted'] }, ack_key: { type: 'string' }, revision: { type: 'integer' } },
        },
      },
    },
  },
});

/**
 * `GET /v2/lead_conversions`'s query: the list's own paging and filters
 * (`page` at most its `maxPage`, as the service enforces), and `cursor`, the
 * way past that page limit. The generic `filters` entry is left out: the only
 * parameter the list handles itself is `cursor`.
 */
function leadConversionParameters(list: ListDefinition | null): JsonSchema[] {
  const params = listParameters(list).filter((p) => p.name !== 'filters');
  params.push(queryParam('cursor', 'The opaque token in `meta.links.next_page`: the conversions older than the last one seen, '
    + `the way on past page ${list?.maxPage ?? 1}. Not with a \`page\` other than 1, and a token this hub did not issue: \`400 invalid_param\`.`, { type: 'string' }));
  return params;
}

/** `syncTypes`: the types the engine's sync sources serve; `leadConversionList`: the lead conversions' list definition. */
export function otherOperations(syncTypes: readonly string[], leadConversionList: ListDefinition | null): Operation[] {
  const bearer = 'bearer' as const;
  const ops: Operation[] = [
    // Account and users
    { method: 'GET', path: '/v2/accounts/self', tag: 'Account and users', summary: 'Retrieve the account', security: bearer, responses: ok('The account.', one('account', ACCOUNT)) },
    {
      method: 'PUT', path: '/v2/accounts/self', tag: 'Account and users', summary: 'Change the account\'s settings', description: 'Admins only (an Outpost extension).',
      security: bearer, requestBody: dataBody(object()), responses: ok('The account as changed.', one('account', ACCOUNT)),
    },
    { method: 'GET', path: '/v2/users/self', tag: 'Account and users', summary: 'Retrieve the signed-in user', security: bearer, responses: ok('The user.', one('user', USER)) },
    { method: 'GET', path: '/v2/users', tag: 'Account and users', summary: 'List users', security: bearer, parameters: listParameters(USER_LIST), responses: ok('A page of users.', page('user', USER)) },
    { method: 'GET', path: '/v2/users/:id', tag: 'Account and users', summary: 'Retrieve a user', security: bearer, responses: ok('The user.', one('user', USER)) },
    {
      method: 'POST', path: '/v2/users', tag: 'Account and users', summary: 'Add a user', description: 'Admins only (an Outpost extension): `email`, `name`, `role` and a `password`, or an invitation.',
      security: bearer, requestBody: dataBody(object()), responses: ok('The new user.', one('user', USER)),
    },
    {
      method: 'PUT', path: '/v2/users/:id', tag: 'Account and users', summary: 'Change a user', description: 'Admins only (an Outpost extension): role, status (deactivate), name, password.',
      security: bearer, requestBody: dataBody(object()), responses: ok('The user as changed.', one('user', USER)),
    },
    {
      method: 'POST', path: '/v2/users/:id/invitation', tag: 'Account and users', summary: 'Make an invitation link', description: 'Admins only (an Outpost extension): a link the user sets a password with.',
      security: bearer, responses: ok('The link.', one('user_invitation', object(undefined, { invite_url: { type: 'string' }, expires_at: { type: 'string', format: 'date-time' } }, ['invite_url', 'expires_at']))),
    },
    {
      method: 'POST', path: '/v2/accounts/self/test_email', tag: 'Account and users', summary: 'Send a test email', description: 'Admins only: checks the account\'s SMTP settings.',
      security: bearer, responses: ok('Sent.', one('test_email', object(undefined, { sent: { const: true }, to: { type: 'string' }, message_id: { type: 'string' } }, ['sent']))),
    },
    // Custom field definitions, per resource
    ...CUSTOM_FIELD_RESOURCES.flatMap((resource): Operation[] => {
      const base = `/v2/${resource}/custom_fields`;
      const tag = 'Custom fields';
      return [
        { method: 'GET', path: base, tag, summary: `List the ${resource} custom fields`, security: bearer, responses: ok('Every definition (one page).', page('custom_field', CUSTOM_FIELD)) },
        { method: 'GET', path: `${base}/:id`, tag, summary: `Retrieve a ${resource} custom field`, security: bearer, responses: ok('The definition.', one('custom_field', CUSTOM_FIELD)) },
        { method: 'POST', path: base, tag, summary: `Create a ${resource} custom field`, description: 'Admins only.', security: bearer, requestBody: dataBody(object()), responses: ok('The new definition.', one('custom_field', CUSTOM_FIELD)) },
        { method: 'PUT', path: `${base}/:id`, tag, summary: `Change a ${resource} custom field`, description: 'Admins only.', security: bearer, requestBody: dataBody(object()), responses: ok('The definition as changed.', one('custom_field', CUSTOM_FIELD)) },
        { method: 'DELETE', path: `${base}/:id`, tag, summary: `Delete a ${resource} custom field`, description: 'Admins only; the values go with it.', security: bearer, responses: { 204: emptyAnswer('Deleted.') } },
      ];
    }),
    // Exchange rates
    {
      method: 'GET', path: '/v2/exchange_rates', tag: 'Exchange rates', summary: 'List the exchange rates',
      description: 'Every rate the account has (one page), by currency. Totals in several currencies are converted into the account\'s currency with them.',
      security: bearer, responses: ok('Every rate.', page('exchange_rate', EXCHANGE_RATE)),
    },
    { method: 'GET', path: '/v2/exchange_rates/:currency', tag: 'Exchange rates', summary: 'Retrieve a currency\'s exchange rate', security: bearer, responses: ok('The rate (`404` when the currency has none).', one('exchange_rate', EXCHANGE_RATE)) },
    {
      method: 'PUT', path: '/v2/exchange_rates/:currency', tag: 'Exchange rates', summary: 'Set a currency\'s exchange rate',
      description: 'Admins only; creates or replaces the rate and stamps `set_at`. `422` for a currency not in ISO 4217, the account\'s own currency, or a rate that is not a positive decimal.',
      security: bearer, requestBody: dataBody(object(undefined, { rate: { type: ['string', 'number'], description: 'A positive decimal, at most 10 decimals.' } }, ['rate'])),
      responses: ok('The rate as set.', one('exchange_rate', EXCHANGE_RATE)),
    },
    { method: 'DELETE', path: '/v2/exchange_rates/:currency', tag: 'Exchange rates', summary: 'Remove a currency\'s exchange rate', description: 'Admins only. Its amounts are then shown apart from converted totals.', security: bearer, responses: { 204: emptyAnswer('Removed.') } },
    // Collaborations cannot be changed
    {
      method: 'PUT', path: '/v2/collaborations/:id', tag: 'Collaborations', summary: 'Not allowed', deprecated: true,
      description: 'A collaboration cannot be changed: delete it and create another. Always `405 method_not_allowed` with `Allow: GET, DELETE`.',
      security: bearer, responses: {}, moreErrors: [405],
    },
    // Extensions beside the resources
    {
      method: 'GET', path: '/v2/tasks/counts', tag: 'Tasks', summary: 'Count tasks by due-date section', description: 'An Outpost extension for the Tasks screen.',
      security: bearer, parameters: [{ name: 'filters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } }],
      responses: ok('The counts.', one('task_counts')),
    },
    {
      method: 'GET', path: '/v2/deals/summary', tag: 'Deals', summary: 'Deal totals per stage', description: 'An Outpost extension for the Home screen and the deals list\'s total: takes the deals list\'s filters and `smart_list_id` (not `page`, `per_page`, `count` or `sort_by`).',
      security: bearer, parameters: [{ name: 'filters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } }],
      responses: ok('The totals.', one('deal_summary')),
    },
    {
      method: 'POST', path: '/v2/sequence_enrollments/:id/replies', tag: 'Sequences', summary: 'Record a reply', description: 'Ends the enrollment with `replied_to_email` (an Outpost extension).',
      security: bearer, responses: ok('The enrollment.', one('sequence_enrollment', schemaRef('SequenceEnrollment'))),
    },
    ...(['contacts', 'leads'] as const).flatMap((plural) => mergingOperations(plural, bearer)),
    {
      method: 'GET', path: '/v2/lead_conversions', tag: 'Leads', summary: 'List lead conversions', security: bearer,
      description: 'Newest conversion first. By `page`, or past its limit by the `cursor` that `meta.links.next_page` carries whenever more conversions follow.',
      parameters: leadConversionParameters(leadConversionList), responses: ok('A page of conversions.', page('lead_conversion')),
    },
    {
      method: 'POST', path: '/v2/lead_conversions', tag: 'Leads', summary: 'Convert a lead',
      description: 'Makes a contact (and an organization, and a deal when asked) from a lead. `deal_name`, `deal_value` and `deal_currency` (Outpost extensions) set the deal\'s name, value and currency in the same write; they need `create_deal`.',
      security: bearer, requestBody: jsonBody(writeBodySchema(writeDataSchema(LEAD_CONVERSION_FIELDS, 'create', { deal_value: DEAL_VALUE }), 'create')), responses: ok('The conversion.', one('lead_conversion')),
    },
    {
      method: 'GET', path: '/v2/search', tag: 'Search', summary: 'Search records', description: 'The command palette\'s search across resources (an Outpost extension). One page only: no `page`; any other parameter is `400 invalid_param`.',
      security: bearer, parameters: [queryParam('q', 'The text to find.', { type: 'string' }, true), queryParam('per_page', `Results (default ${DEFAULT_SEARCH_RESULTS}, at most ${MAX_SEARCH_RESULTS}).`, { type: 'integer', minimum: 1, maximum: MAX_SEARCH_RESULTS, default: DEFAULT_SEARCH_RESULTS })],
      responses: ok('The best matches.', page('search_result', SEARCH_ITEM)),
    },
    // OAuth applications
    { method: 'GET', path: '/v2/oauth_clients', tag: 'OAuth 2.0', summary: 'List registered applications', description: 'Admins only.', security: bearer, responses: ok('Every application.', page('oauth_client')) },
    { method: 'GET', path: '/v2/oauth_clients/:client_id', tag: 'OAuth 2.0', summary: 'Retrieve an application', description: 'Admins only.', security: bearer, responses: ok('The application.', one('oauth_client')) },
    {
      method: 'POST', path: '/v2/oauth_clients', tag: 'OAuth 2.0', summary: 'Register an application', description: 'Admins only; the answer is the only time `client_secret` is shown.',
      security: bearer, requestBody: dataBody({
        ...object(undefined, {
          name: { type: 'string', maxLength: 255, description: 'Shown on the consent page.' },
          redirect_uri: { type: 'string', description: 'Where the consent page sends the user back.' },
          public: { type: 'boolean', default: false, description: 'A public client (a native or browser app) gets no secret and must use PKCE with the code grant.' },
        }, ['name', 'redirect_uri']),
        additionalProperties: false,
      }),
      responses: ok('The application with its secret.', one('oauth_client', object(undefined, { client_id: { type: 'string' }, client_secret: { type: ['string', 'null'], description: 'null for a public client (PKCE).' } }, ['client_id', 'client_secret']))),
    },
    { method: 'DELETE', path: '/v2/oauth_clients/:client_id', tag: 'OAuth 2.0', summary: 'Remove an application', description: 'Admins only; its tokens stop working.', security: bearer, responses: { 204: emptyAnswer('Removed.') } },
    // Sync
    {
      method: 'GET', path: '/v2/sync/events', tag: 'Synchronization', summary: 'Change stream', description: 'Server-sent events (an Outpost extension): `ready` with the newest revision, then `change` whenever the hub\'s data changes.',
      security: bearer, responses: { 200: textAnswer('An open event stream.', 'text/event-stream') },
    },
    {
      method: 'POST', path: '/v2/sync/start', tag: 'Synchronization', summary: 'Start a sync session', security: bearer, parameters: [{ $ref: '#/components/parameters/deviceUuid' }],
      responses: {
        201: jsonAnswer('A session with the queue to read.', one('sync_session', object(undefined, {
          id: { type: 'string' },
          queues: { type: 'array', items: resourceEnvelope('sync_queue', object(undefined, { name: { const: 'main' }, pages: { type: 'integer' }, total_count: { type: 'integer' } }, ['name', 'pages', 'total_count']), { links: { type: 'object', required: ['self'] } }) },
        }, ['id', 'queues']))),
        204: emptyAnswer('The device already holds the latest state of everything it may see.'),
      },
    },
    {
      method: 'GET', path: '/v2/sync/:session_id/queues/:queue', tag: 'Synchronization', summary: 'Read the next page of a queue', description: 'Up to 1000 items, in the order the records last changed; the queue is `main`.',
      security: bearer, parameters: [{ $ref: '#/components/parameters/deviceUuid' }],
      responses: {
        200: jsonAnswer('The next page.', {
          type: 'object', required: ['items', 'meta'],
          properties: {
            items: { type: 'array', items: syncItem(syncTypes), description: 'Empty only when every record of the page failed (`failed_objects`).' },
            meta: {
              type: 'object', required: ['type', 'count', 'count_left', 'failed_objects', 'links'],
              properties: {
                type: { const: 'collection' }, count: { type: 'integer' }, count_left: { type: 'integer' },
                failed_objects: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, type: { type: 'string' } } } },
                links: { type: 'object' },
              },
            },
          },
        }),
        204: emptyAnswer('The session has nothing more.'),
      },
    },
    {
      method: 'POST', path: '/v2/sync/ack', tag: 'Synchronization', summary: 'Acknowledge applied items', security: bearer, parameters: [{ $ref: '#/components/parameters/deviceUuid' }],
      requestBody: jsonBody({ type: 'object', required: ['data'], properties: { data: { type: 'object', required: ['ack_keys'], properties: { ack_keys: { type: 'array', items: { type: 'string' } } }, additionalProperties: false } } }),
      responses: { 202: emptyAnswer('Accepted; processed in the background.') },
    },
    // Documents
    {
      method: 'GET', path: '/v2/documents', tag: 'Documents', summary: 'List documents', security: bearer,
      description: 'The documents of the records named: `resource_type` and `resource_id` are required (without one: `400 invalid_param`).',
      parameters: [
        // Its only parameters outside the list definition are these two, described here rather than as free-form `filters`.
        ...listParameters(DOCUMENT_LIST).filter((p) => p.name !== 'filters'),
        queryParam('resource_type', `What they are attached to, comma-separated: ${DOCUMENT_RESOURCE_TYPES.map((t) => `\`${t}\``).join(', ')}.`,
          { type: 'string', pattern: `^(${DOCUMENT_RESOURCE_TYPES.join('|')})(,(${DOCUMENT_RESOURCE_TYPES.join('|')}))*$`, examples: [DOCUMENT_RESOURCE_TYPES[0]] }, true),
        queryParam('resource_id', 'Their ids, comma-separated.', { type: 'string', pattern: '^-?\\d+(,-?\\d+)*$', examples: ['1'] }, true),
      ],
      responses: ok('A page of documents.', page('document', schemaRef('Document'))),
    },
    { method: 'GET', path: '/v2/documents/:id', tag: 'Documents', summary: 'Retrieve a document', security: bearer, responses: ok('The document.', one('document', schemaRef('Document'))) },
    {
      method: 'POST', path: '/v2/documents', tag: 'Documents', summary: 'Upload a document', description: 'The body is the file itself; `resource_type`, `resource_id` and `name` in the query.',
      security: bearer, parameters: [queryParam('resource_type', 'What the file is attached to.', { type: 'string' }, true), queryParam('resource_id', 'Its id.', { type: 'integer' }, true), queryParam('name', 'The file name.', { type: 'string' }, true)],
      requestBody: { required: true, content: { 'application/octet-stream': { schema: { type: 'string', contentMediaType: 'application/octet-stream' } } } },
      responses: ok('The new document.', one('document', schemaRef('Document'))),
    },
    {
      method: 'GET', path: '/downloads/documents/:id', tag: 'Documents', summary: 'Download a document', description: 'The `download_url` of a document: signed, valid for a while, no token needed.',
      security: 'public', parameters: [queryParam('signature', 'From download_url.', { type: 'string' }), queryParam('expires', 'From download_url.', { type: 'string' })],
      responses: { 200: { description: 'The file, with the type it was uploaded with.', content: { '*/*': { schema: { type: 'string' } } } } }, moreErrors: [400, 403, 404],
    },
    // Import and export
    ...[['/v2/imports/preview', 'Preview a CSV import'], ['/v2/imports', 'Import contacts or leads from CSV'], ['/v2/contacts/import_vcard/preview', 'Preview a vCard import'], ['/v2/contacts/import_vcard', 'Import contacts from vCard']].map(([path, summary]): Operation => ({
      method: 'POST', path, tag: 'Import and export', summary, security: bearer, requestBody: dataBody(object()), responses: ok('What was (or would be) imported.', one('import')),
    })),
    ...EXPORTS.map((resource): Operation => ({
      method: 'GET', path: `/v2/${resource}/export.csv`, tag: 'Import and export', summary: `Export ${resource.replace(/_/g, ' ')} as CSV`,
      description: 'Every record the list view\'s filters select, with the list\'s own query parameters.', security: bearer,
      parameters: [queryParam('headers', 'Column names: `labels` or `fields`.', { type: 'string' }), { name: 'filters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } }],
      responses: { 200: textAnswer('The CSV file.', 'text/csv') },
    })),
    { method: 'GET', path: '/v2/contacts/export.vcf', tag: 'Import and export', summary: 'Export contacts as vCard', security: bearer, parameters: [{ name: 'filters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } }], responses: { 200: textAnswer('The vCard file.', 'text/vcard') } },
    { method: 'GET', path: '/v2/tasks/export.ics', tag: 'Import and export', summary: 'Export tasks as iCalendar', security: bearer, parameters: [{ name: 'filters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } }], responses: { 200: textAnswer('The iCalendar file.', 'text/calendar') } },
    { method: 'GET', path: '/v2/users/self/calendar_feed', tag: 'Import and export', summary: 'The calendar feed\'s state', security: bearer, responses: ok('Whether a feed exists.', one('calendar_feed')) },
    { method: 'POST', path: '/v2/users/self/calendar_feed', tag: 'Import and export', summary: 'Make a new calendar feed URL', description: 'Replaces any previous one.', security: bearer, responses: { 201: jsonAnswer('The secret URL (shown once).', one('calendar_feed', object(undefined, { url: { type: 'string' }, created_at: { type: 'string' } }, ['url']))) } },
    { method: 'DELETE', path: '/v2/users/self/calendar_feed', tag: 'Import and export', summary: 'Turn the calendar feed off', security: bearer, responses: { 204: emptyAnswer('Off.') } },
    { method: 'GET', path: '/calendar/:secret.ics', tag: 'Import and export', summary: 'A calendar feed', description: 'The user\'s tasks for calendar apps; the secret in the URL is the credential.', security: 'public', responses: { 200: textAnswer('The iCalendar feed.', 'text/calendar') }, moreErrors: [404] },
    // Reports
    ...REPORT_NAMES.flatMap((name): Operation[] => [
      {
        method: 'GET', path: `/v2/reports/${name}`, tag: 'Reports', summary: `The ${name.replace(/_/g, ' ')} report`, description: 'An Outpost extension (docs/api.md, "Reports").', security: bearer,
        parameters: [{ name: 'filters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } }],
        responses: ok('The report\'s rows (one page).', page(REPORT_ROW_TYPES[name])),
      },
      {
        method: 'GET', path: `/v2/reports/${name}/export.csv`, tag: 'Reports', summary: `The ${name.replace(/_/g, ' ')} report as CSV`, security: bearer,
        parameters: [{ name: 'filters', in: 'query', style: 'form', explode: true, schema: { type: 'object', additionalProperties: { type: 'string' } } }],
        responses: { 200: textAnswer('The CSV file.', 'text/csv') },
      },
    ]),
    // OAuth 2.0
    {
      method: 'POST', path: '/oauth2/token', tag: 'OAuth 2.0', summary: 'Get an access token', description: 'Grants: `authorization_code` (with PKCE for public clients), `password`, `refresh_token`.',
      security: 'client',
      requestBody: formBody({
        grant_type: { enum: ['authorization_code', 'password', 'refresh_token'] }, code: { type: 'string' }, redirect_uri: { type: 'string' }, code_verifier: { type: 'string' },
        username: { type: 'string' }, password: { type: 'string' }, refresh_token: { type: 'string' }, scope: { type: 'string' }, client_id: { type: 'string' }, client_secret: { type: 'string' },
      }, ['grant_type']),
      responses: {
        ...ok('The token.', {
          type: 'object', required: ['access_token', 'token_type', 'expires_in', 'scope'],
          properties: { access_token: { type: 'string' }, token_type: { const: 'bearer' }, expires_in: { type: 'integer' }, scope: { type: 'string' }, refresh_token: { type: 'string' } },
        }),
        ...oauthFailure('The request or grant is not valid.'),
      },
    },
    {
      method: 'POST', path: '/oauth2/revoke', tag: 'OAuth 2.0', summary: 'Revoke a token', description: 'RFC 7009: 200 whether or not the token was known.', security: 'client',
      requestBody: formBody({ token: { type: 'string' }, token_type_hint: { type: 'string' }, client_id: { type: 'string' }, client_secret: { type: 'string' } }, ['token']),
      responses: { ...ok('Revoked.', { type: 'object' }), ...oauthFailure('The request is not valid.') },
    },
    { method: 'GET', path: '/oauth2/csrf_token', tag: 'OAuth 2.0', summary: 'Get a CSRF token', security: 'public', responses: ok('A token.', object(undefined, { csrf_token: { type: 'string' } })) },
    {
      method: 'GET', path: '/oauth2/authorize', tag: 'OAuth 2.0', summary: 'The consent page',
      description: 'Where an application sends the user: they sign in and allow it, and are sent back to `redirect_uri` with a code (`response_type=code`) '
        + 'or, for a registered application (not the built-in app), an access token in the URI\'s fragment (`response_type=token`, the implicit grant).',
      security: 'public',
      parameters: [queryParam('response_type', '`code` (authorization code grant) or `token` (implicit grant; the built-in app is `unauthorized_client`).', { enum: ['code', 'token'] }, true), queryParam('client_id', 'The application.', { type: 'string' }, true), queryParam('redirect_uri', 'One it registered.', { type: 'string' }),
        queryParam('scope', `Space-separated: ${SCOPES.join(', ')}.`, { type: 'string' }), queryParam('state', 'Sent back as is.', { type: 'string' }),
        queryParam('code_challenge', 'PKCE (RFC 7636).', { type: 'string' }), queryParam('code_challenge_method', '`S256`.', { type: 'string' })],
      responses: { 200: textAnswer('The consent page.', 'text/html'), 302: emptyAnswer('Back to the application with an error.'), 400: textAnswer('A page saying what is wrong with the request.', 'text/html') },
    },
    {
      method: 'POST', path: '/oauth2/authorize', tag: 'OAuth 2.0', summary: 'Sign in and allow (the consent form)', security: 'public',
      requestBody: { required: true, content: { [FORM]: { schema: { type: 'object' } } } },
      // The form comes back only with an error status (routes/authorize.ts): a stale CSRF token 400, a wrong password 401.
      responses: {
        302: emptyAnswer('Back to the application with a code, an access token in the fragment (implicit grant), or an error (`access_denied` when the user denies).'),
        400: textAnswer('The form again (the page expired or was not sent from this hub), or a page saying what is wrong with the request.', 'text/html'),
        401: textAnswer('The form again: the email or password is wrong.', 'text/html'),
        429: textAnswer('The form again: too many failed sign-ins (`Retry-After`).', 'text/html'),
        503: textAnswer('The form again: the password could not be checked (a desktop replica whose hub is out of reach).', 'text/html'),
      },
    },
    {
      method: 'POST', path: '/oauth2/invitations/lookup', tag: 'OAuth 2.0', summary: 'Who an invitation is for', security: 'public',
      requestBody: formBody({ token: { type: 'string' } }, ['token']),
      responses: { ...ok('The invited user.', object(undefined, { email: { type: 'string' }, name: { type: 'string' }, invited: { type: 'boolean' } }, ['email', 'name'])), ...oauthFailure('The link cannot be used.') },
    },
    {
      method: 'POST', path: '/oauth2/invitations/accept', tag: 'OAuth 2.0', summary: 'Set a password with an invitation', security: 'public',
      requestBody: formBody({ token: { type: 'string' }, password: { type: 'string' } }, ['token', 'password']),
      responses: { ...ok('The user, who can now sign in.', object(undefined, { email: { type: 'string' }, name: { type: 'string' } }, ['email', 'name'])), ...oauthFailure('The link cannot be used, or the password is too short.') },
    },
    // Operations and documentation
    {
      method: 'GET', path: '/health', tag: 'Operations', summary: 'Health check', security: 'public',
      responses: {
        ...ok('The hub answers and its database too; on a desktop replica, `checks.hub` says whether its hub is reachable (offline is not down).', object(undefined, { status: { const: 'ok' }, checks: healthChecks }, ['status', 'checks'])),
        503: jsonAnswer('The database does not answer.', object(undefined, { status: { const: 'unavailable' }, checks: healthChecks, reason: { type: 'string' }, logref: { type: 'string' } }, ['status', 'checks'])),
      },
    },
    { method: 'GET', path: '/metrics', tag: 'Operations', summary: 'Prometheus metrics', description: 'Needs an admin\'s token.', security: bearer, responses: { 200: textAnswer('The metrics, in Prometheus\'s text format.', 'text/plain') } },
    { method: 'GET', path: '/docs/api', tag: 'Documentation', summary: 'The API guide', security: 'public', responses: { 200: textAnswer('docs/api.md.', 'text/markdown'), 404: textAnswer('Not bundled with this build.', 'text/plain') } },
    { method: 'GET', path: '/docs/sync.md', tag: 'Documentation', summary: 'The sync guide', description: 'Beside the API guide, where its links to the sync protocol land.', security: 'public', responses: { 200: textAnswer('docs/sync.md.', 'text/markdown'), 404: textAnswer('Not bundled with this build.', 'text/plain') } },
    { method: 'GET', path: '/docs/import-export.md', tag: 'Documentation', summary: 'The import and export guide', description: 'Beside the API guide, where its links to the rules of each file format land.', security: 'public', responses: { 200: textAnswer('docs/import-export.md.', 'text/markdown'), 404: textAnswer('Not bundled with this build.', 'text/plain') } },
    { method: 'GET', path: '/v2/openapi.json', tag: 'Documentation', summary: 'This document', description: 'Public and read-only, as the real service\'s reference is.', security: 'public', responses: ok('The OpenAPI 3.1 document.', { type: 'object', required: ['openapi'] }), moreErrors: [400] },
    { method: 'GET', path: '/docs/api/reference', tag: 'Documentation', summary: 'This document as a page', security: 'public', responses: { 200: textAnswer('The reference page.', 'text/html') } },
    { method: 'GET', path: '/docs/api/reference.css', tag: 'Documentation', summary: 'The reference page\'s style sheet', security: 'public', responses: { 200: textAnswer('CSS.', 'text/css') } },
  ];
  return ops;
}
