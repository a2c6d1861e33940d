import type { Engine } from '../engine.js';
import { requiredScope } from '../auth/scopes.js';
import { SCOPES, type Scope } from '../../../shared/oauth.js';
import { crudEntries, crudOperations, crudRecordSchema, listOf } from './resources.js';
import { otherOperations } from './operations.js';
import { bulkOperations } from './bulk.js';
import { customObjectOperations, customObjectSchemas } from './customObjects.js';
import { sharedComponents, type JsonSchema } from './schemas.js';
import type { Operation } from './operation.js';

/** A route as the app registered it (`app.routeList`). */
export interface RouteLike {
  method: string;
  url: string;
}

export interface OpenApiResult {
  document: JsonSchema;
  /** Routes the app registered that the generator has no description for: the generator's test fails on any. */
  undescribed: RouteLike[];
}

const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  read: 'Read the records the user may see.',
  write: 'Create, change and delete them (one\'s own account and profile included).',
  profile: 'See who signed in (`GET /v2/users/self`, `GET /v2/accounts/self`).',
  sync: 'The device sync protocol (`/v2/sync/*`).',
};

const TAGS: { name: string; description: string }[] = [
  { name: 'Account and users', description: 'The account, its users and team administration.' },
  { name: 'Contacts', description: 'People and organizations.' },
  { name: 'Leads', description: 'Prospects not yet qualified, and their conversion.' },
  { name: 'Deals', description: 'Opportunities in a pipeline.' },
  { name: 'Associated contacts', description: 'Contacts of a deal, with their role.' },
  { name: 'Pipelines and stages', description: 'Where deals move.' },
  { name: 'Tasks', description: 'To-dos, optionally about a record.' },
  { name: 'Notes', description: 'Notes on records.' },
  { name: 'Calls', description: 'Logged calls and their outcomes.' },
  { name: 'Visits', description: 'Logged visits and their outcomes.' },
  { name: 'Text messages', description: 'Read-only (imported).' },
  { name: 'Sources and reasons', description: 'Lead and deal sources, loss and unqualified reasons.' },
  { name: 'Tags', description: 'Tags of contacts, leads and deals.' },
  { name: 'Collaborations', description: 'Who else works on a record.' },
  { name: 'Smart lists', description: 'Saved filters, sort and columns of the contacts, leads, deals and tasks lists (`smart_list_id` on those lists).' },
  { name: 'Custom fields', description: 'Custom field definitions of contacts, leads and deals.' },
  { name: 'Exchange rates', description: 'The account\'s exchange rates: admins set them, totals in several currencies are converted with them.' },
  { name: 'Products and orders', description: 'Commerce, on the plans that include it.' },
  { name: 'Sequences', description: 'Email templates, sequences and enrollments.' },
  { name: 'Documents', description: 'Files attached to records.' },
  { name: 'Search', description: 'Across resources.' },
  { name: 'Reports', description: 'Outpost extensions.' },
  { name: 'Import and export', description: 'CSV, vCard, iCalendar and the calendar feed.' },
  { name: 'Synchronization', description: 'The device sync protocol.' },
  { name: 'OAuth 2.0', description: 'Tokens, consent and registered applications.' },
  { name: 'Custom objects (/api/v2)', description: 'A second interface in its own style: bare JSON, its own errors, Basic or Bearer authentication.' },
  { name: 'Operations', description: 'Health and metrics.' },
  { name: 'Documentation', description: 'This reference and the guide.' },
];

const V2_READ_ERRORS = [400, 401, 403, 404, 429, 500, 503];
const V2_WRITE_ERRORS = [...V2_READ_ERRORS, 409, 413, 415, 422];
const SUPPORT_ERRORS = [400, 401, 403, 404, 405, 413, 415, 422, 429, 500];
/** Path parameters holding a `/v2` record id (positive on a hub). */
const RECORD_ID_PARAMS = new Set(['id', 'deal_id', 'order_id', 'contact_id']);

/**
 * The OpenAPI 3.1 document of everything the app registered, generated from
 * the engine's tables (resources/fields.ts via zod, list definitions, error
 * codes, scopes, custom-object limits) and the descriptions in this folder.
 */
export function openApiDocument(engine: Engine, routes: readonly RouteLike[], version: string): OpenApiResult {
  const components = sharedComponents();
  const operations: Operation[] = [...otherOperations(syncTypesOf(engine), listOf(engine.leadConversions)), ...bulkOperations(), ...customObjectOperations()];
  components.responses.SupportError = {
    description: 'An error of the custom-objects interface (`/api/v2`): its own shape and codes.',
    content: { 'application/json': { schema: { $ref: '#/components/schemas/SupportError' } } },
  };
  Object.assign(components.schemas, customObjectSchemas(), {
    Document: { type: 'object', required: ['id'], properties: { id: { type: 'integer' }, name: { type: 'string' }, download_url: { type: 'string' } } },
  });
  const names = new Map<string, string>();
  for (const entry of crudEntries(engine)) {
    const schema = crudRecordSchema(entry);
    const name = componentName(entry.type, entry.base, JSON.stringify(schema), names);
    components.schemas[name] = schema;
    operations.push(...crudOperations(entry, name));
  }

  const byRoute = new Map<string, Operation>();
  for (const op of operations) if (!byRoute.has(`${op.method} ${op.path}`)) byRoute.set(`${op.method} ${op.path}`, op);

  const paths: Record<string, Record<string, JsonSchema>> = {};
  const undescribed: RouteLike[] = [];
  const described = new Set<string>();
  const seen = new Set<string>();
  for (const route of routes) {
    const key = `${route.method} ${route.url}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const op = byRoute.get(key);
    if (op) {
      described.add(key);
      (paths[openApiPath(route.url)] ??= {})[route.method.toLowerCase()] = operationObject(op);
    }
  }
  for (const route of new Map(routes.map((r) => [`${r.method} ${r.url}`, r])).values()) {
    if (!described.has(`${route.method} ${route.url}`) && !notAnOperation(route, described)) undescribed.push(route);
  }

  const document: JsonSchema = {
    openapi: '3.1.0',
    info: {
      title: 'Outpost REST API',
      version,
      summary: 'The hub\'s CRM interface: sales resources under /v2, OAuth 2.0 under /oauth2, device sync, and custom objects under /api/v2.',
      description: 'Generated by the hub from the tables its engine validates with (field tables, list definitions, error codes, scopes); '
        + 'served at `/v2/openapi.json`, readable at `/docs/api/reference`. The guide with every rule and decision: `/docs/api`. '
        + '`HEAD` is answered wherever `GET` is. Under `/api/v2` a known path called with another method answers `405 MethodNotAllowed` with `Allow`.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: '/', description: 'This hub.' }],
    tags: TAGS.filter((tag) => Object.values(paths).some((ops) => Object.values(ops).some((op) => (op.tags as string[])[0] === tag.name))),
    paths,
    components: { ...components, securitySchemes: securitySchemes() },
  };
  return { document, undescribed };
}

/** Routes that are no operation of the API: HEAD beside GET, the web UI's pages, /api/v2's 405 and 404 answers. */
function notAnOperation(route: RouteLike, described: Set<string>): boolean {
  if (route.url === '/api/v2' || route.url === '/api/v2/*') return true;
  if (route.method === 'HEAD' && described.has(`GET ${route.url}`)) return true;
  if (route.url.startsWith('/api/v2/')) return [...described].some((key) => key.endsWith(` ${route.url}`));
  return isWebUi(route);
}

/** The web UI (http/app.ts serveWebUi): GET pages and static files outside the interfaces. */
function isWebUi(route: RouteLike): boolean {
  return (route.method === 'GET' || route.method === 'HEAD') && !/^\/(v2|api|oauth2|downloads|calendar|docs|health|metrics)(\/|$)/.test(route.url);
}

function componentName(type: string, base: string, schemaText: string, names: Map<string, string>): string {
  const pascal = (text: string) => text.split(/[^A-Za-z0-9]+/).filter(Boolean).map((w) => w[0].toUpperCase() + w.slice(1)).join('');
  for (const [text, name] of names) if (text === schemaText && name.startsWith(pascal(type))) return name;
  const taken = new Set(names.values());
  const name = taken.has(pascal(type)) ? `${pascal(type)}_${pascal(base.replace(/^\/v2\//, '').replace(/:\w+/g, ''))}` : pascal(type);
  names.set(schemaText, name);
  return name;
}

export const openApiPath = (url: string) => url.replace(/:(\w+)/g, '{$1}');

function operationObject(op: Operation): JsonSchema {
  const pathParams = [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => ({
    name, in: 'path', required: true,
    schema: op.path.startsWith('/v2/') && RECORD_ID_PARAMS.has(name) ? { type: 'integer' } : { type: 'string' },
  }));
  const write = op.method !== 'GET';
  const params = [...pathParams, ...(op.parameters ?? [])];
  if (op.security === 'bearer' && write && op.path.startsWith('/v2/')) params.push({ $ref: '#/components/parameters/idempotencyKey' });
  const responses: Record<string, JsonSchema> = { ...op.responses };
  for (const status of errorStatuses(op, write)) {
    responses[String(status)] ??= op.security === 'support'
      ? { $ref: '#/components/responses/SupportError' }
      : { $ref: `#/components/responses/Error${status}` };
  }
  return {
    tags: [op.tag],
    summary: op.summary,
    ...(op.description ? { description: op.description } : {}),
    operationId: operationId(op),
    ...(op.deprecated ? { deprecated: true } : {}),
    security: securityOf(op),
    ...(params.length ? { parameters: params } : {}),
    ...(op.requestBody ? { requestBody: op.requestBody } : {}),
    responses,
  };
}

function errorStatuses(op: Operation, write: boolean): number[] {
  const usual = op.security === 'bearer' ? (write ? V2_WRITE_ERRORS : V2_READ_ERRORS) : op.security === 'support' ? SUPPORT_ERRORS : [];
  return [...new Set([...usual, ...(op.moreErrors ?? [])])].sort((a, b) => a - b);
}

function operationId(op: Operation): string {
  const words = op.path.replace(/\{?:(\w+)\}?/g, 'by_$1').split(/[^A-Za-z0-9]+/).filter(Boolean);
  return [op.method.toLowerCase(), ...words].map((w, i) => (i === 0 ? w : w[0].toUpperCase() + w.slice(1))).join('');
}

function securityOf(op: Operation): JsonSchema[] {
  switch (op.security) {
    case 'public': return [];
    case 'client': return [{ clientCredentials: [] }, {}];
    case 'support': return [{ basicAuth: [] }, { bearerToken: [] }, { oauth2: [op.method === 'GET' ? 'read' : 'write'] }];
    case 'bearer': {
      const scope = requiredScope(op.method, op.path.replace(/:(\w+)/g, '{$1}'));
      const scopes: Scope[] = scope === 'profile-or-read' ? ['profile', 'read'] : [scope];
      return scopes.flatMap((s) => [{ bearerToken: [s] }, { oauth2: [s] }]);
    }
  }
}

function securitySchemes(): Record<string, JsonSchema> {
  const scopes = Object.fromEntries(SCOPES.map((s) => [s, SCOPE_DESCRIPTIONS[s]]));
  return {
    bearerToken: { type: 'http', scheme: 'bearer', description: 'An OAuth access token or a personal access token (`outpost tokens create`); the scope each operation needs is listed with it.' },
    oauth2: {
      type: 'oauth2',
      description: 'Register an application (`POST /v2/oauth_clients`); public clients use PKCE with the code grant. The implicit grant is open to registered applications, not the built-in app.',
      flows: {
        authorizationCode: { authorizationUrl: '/oauth2/authorize', tokenUrl: '/oauth2/token', refreshUrl: '/oauth2/token', scopes },
        // response_type=token at /oauth2/authorize, for registered applications (never the built-in app).
        implicit: { authorizationUrl: '/oauth2/authorize', scopes },
        password: { tokenUrl: '/oauth2/token', refreshUrl: '/oauth2/token', scopes },
      },
    },
    basicAuth: { type: 'http', scheme: 'basic', description: '/api/v2 only: a user\'s email and password.' },
    clientCredentials: { type: 'http', scheme: 'basic', description: 'The application\'s client_id and client_secret (or sent in the form).' },
  };
}

function syncTypesOf(engine: Engine): string[] {
  const sources: unknown = Reflect.get(engine.sync, 'sources');
  const types: unknown = sources && typeof sources === 'object' ? Reflect.get(sources, 'types') : undefined;
  return Array.isArray(types) ? types.map(String) : [];
}
