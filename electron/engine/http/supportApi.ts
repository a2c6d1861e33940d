import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../engine.js';
import type { ErrorCode } from '../../../shared/errors.js';
import { ApiProblem } from '../problems.js';
import { serverFaultProblem, NUL_MESSAGE, problemHeaders, problemStatus } from './problemReply.js';
import { NUL_REFUSED } from '../db/databaseErrors.js';
import { JSON_TYPE, requestUrl } from './reply.js';
import { supportAuthenticator } from './supportAuth.js';
import { RecordInvalid, SupportProblem, badRequest, invalidEndpoint } from '../customObjects/problems.js';
import { customObjectRoutes } from './routes/customObjects.js';
import { customObjectFieldRoutes } from './routes/customObjectFields.js';
import { customObjectRecordRoutes } from './routes/customObjectRecords.js';

/**
 * The custom-objects interface, served under /api/v2 (the spec's
 * {support_base_url}) in the style of the real service it was taken from:
 * its own authentication (Basic or Bearer, supportAuth.ts), bare JSON
 * answers (no /v2 envelope) and errors as
 * `{"error": Code, "description": text[, "details": {field: [...]}]}`.
 */
export const SUPPORT_PREFIX = '/api/v2';

export interface SupportApiOptions {
  /** Registers the interface's request limit (a server's: http/rateLimits.ts); none when absent. */
  limitRate?: (api: FastifyInstance) => Promise<void>;
  /** Normalised by normalizeSupportBaseUrl; undefined: the request's origin. */
  supportBaseUrl?: string;
  /**
   * Routes registered instead of this engine's own, after authentication
   * (a desktop replica sends every /api/v2 request on to its hub).
   */
  routes?: (api: FastifyInstance) => void;
}

/** Methods a path of this interface may be called with; a path's others are answered 405. */
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * The /api/v2 scope: its own error handler, the rate limit, then
 * authentication of every request (known path or not) before the routes.
 */
export async function supportApi(app: FastifyInstance, engine: Engine, options: SupportApiOptions): Promise<void> {
  await app.register(async (api) => {
    api.decorateRequest('supportBaseUrl', '');
    api.setErrorHandler(sendSupportError);
    await options.limitRate?.(api);
    const authenticator = supportAuthenticator(engine);
    api.addHook('onRequest', async (request) => {
      request.supportBaseUrl = options.supportBaseUrl ?? requestUrl(request).origin;
      request.actor = await authenticator.authenticate(request);
    });
    if (options.routes) options.routes(api);
    else ownRoutes(api, engine);
  });
}

function ownRoutes(api: FastifyInstance, engine: Engine): void {
  const routes = collectRoutes(api);
  customObjectRoutes(api, engine);
  customObjectFieldRoutes(api, engine);
  customObjectRecordRoutes(api, engine);
  refuseOtherMethods(api, routes.stop());
  // Anything else under /api/v2 is answered here, after authentication, so paths cannot be probed anonymously.
  api.all(SUPPORT_PREFIX, unknownEndpoint);
  api.all(`${SUPPORT_PREFIX}/*`, unknownEndpoint);
}

/** Records the methods each path is registered with while the route modules run. */
function collectRoutes(api: FastifyInstance): { stop(): Map<string, Set<string>> } {
  const routes = new Map<string, Set<string>>();
  let collecting = true;
  api.addHook('onRoute', (route) => {
    if (!collecting) return;
    const methods = routes.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) if (method !== 'HEAD') methods.add(method);
    routes.set(route.url, methods);
  });
  return {
    stop: () => {
      collecting = false;
      return routes;
    },
  };
}

/** A known path called with a method it does not have: 405 MethodNotAllowed naming the ones it has. */
function refuseOtherMethods(api: FastifyInstance, routes: Map<string, Set<string>>): void {
  for (const [url, methods] of routes) {
    const others = METHODS.filter((m) => !methods.has(m));
    if (others.length === 0) continue;
    const allowed = METHODS.filter((m) => methods.has(m)).join(', ');
    api.route({
      method: others,
      url,
      handler: async () => {
        throw new SupportProblem(405, { error: 'MethodNotAllowed', description: `This endpoint allows ${allowed}.` }, { Allow: allowed });
      },
    });
  }
}

async function unknownEndpoint(request: FastifyRequest): Promise<never> {
  throw invalidEndpoint(`No endpoint ${request.method} ${request.url.split('?')[0]}`);
}

/** True for paths of this interface (the app's own not-found handler defers to supportNotFound for them). */
export function isSupportPath(url: string): boolean {
  return url === SUPPORT_PREFIX || url.startsWith(`${SUPPORT_PREFIX}/`) || url.startsWith(`${SUPPORT_PREFIX}?`);
}

/**
 * A not-found that reached the app's own handler (a path no route of the
 * scope matched): authenticate first, then 404 InvalidEndpoint, both in this
 * interface's style.
 */
export async function supportNotFound(engine: Engine, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  try {
    await supportAuthenticator(engine).authenticate(request);
    return await unknownEndpoint(request);
  } catch (error) {
    return sendSupportError(error as Error, request, reply);
  }
}

/** `.json` ends the real service's links (`/api/v2/custom_objects/car.json`): the same resource without it. */
export function withoutJsonSuffix(url: string): string {
  if (!isSupportPath(url)) return url;
  return url.replace(/\.json(?=\?|$)/, '');
}

/**
 * `--support-base-url`: an http(s) URL without query, fragment or
 * credentials; returned without a trailing slash. null when it is not one.
 */
export function normalizeSupportBaseUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  const plain = (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '' && !url.search && !url.hash && !url.username && !url.password;
  return plain ? url.toString().replace(/\/+$/, '') : null;
}

// ---- Errors ------------------------------------------------------------------------------------

/** Every error of the scope, in this interface's style; anything unexpected is logged and answered 500. */
export function sendSupportError(error: Error, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const unavailable = serverFaultProblem(error, request.log);
  let known = unavailable ? fromApiProblem(unavailable) : toSupportProblem(error);
  if (!known) {
    request.log.error({ err: error }, 'unhandled error');
    known = new SupportProblem(500, { error: 'InternalError', description: 'Something went wrong on the server; the X-Request-Id header identifies it in the log.' });
  }
  reply.headers(known.headers);
  return reply.code(known.status).type(JSON_TYPE).send(known.body);
}

function toSupportProblem(error: Error): SupportProblem | null {
  if (error instanceof SupportProblem) return error;
  if (error instanceof ApiProblem) return fromApiProblem(error);
  return fromFastifyError(error as FastifyError);
}

/** Codes of the /v2 style (body parsing at the app's level, shared engine helpers) and what they are here. */
const SUPPORT_CODES: Partial<Record<ErrorCode, string>> = {
  invalid_param: 'InvalidParameter', invalid_payload: 'InvalidPayload', invalid_header: 'InvalidPayload',
  unauthorized: 'Unauthorized', forbidden: 'Forbidden', insufficient_scope: 'Forbidden',
  not_found: 'RecordNotFound', incorrect_path: 'InvalidEndpoint', method_not_allowed: 'MethodNotAllowed',
  request_too_large: 'PayloadTooLarge', unsupported_media_type: 'UnsupportedMediaType',
  rate_limit_exceeded: 'TooManyRequests', too_many_sessions: 'TooManyRequests',
  temporarily_unavailable: 'ServiceUnavailable',
};

/** Field problem codes of /v2 and their detail codes here. */
const DETAIL_CODES: Partial<Record<ErrorCode, string>> = {
  missing: 'BlankValue', blank: 'BlankValue', unknown: 'UnknownField', invalid_type: 'InvalidValue',
  incorrect_value: 'InvalidValue', already_exists: 'DuplicateValue',
};

function fromApiProblem(error: ApiProblem): SupportProblem {
  const status = problemStatus(error);
  if (status === 422) {
    const invalid = new RecordInvalid();
    for (const e of error.errors) invalid.add(e.field.replace(/^\//, '').replace(/\//g, '.') || 'base', DETAIL_CODES[e.code] ?? 'InvalidValue', e.message);
    return invalid.problem(problemHeaders(error));
  }
  const first = error.errors[0];
  return new SupportProblem(status, { error: SUPPORT_CODES[first.code] ?? 'InvalidPayload', description: first.message }, problemHeaders(error));
}

/** Fastify's own client errors (body too large, bad content type, …); null for anything else. */
function fromFastifyError(error: FastifyError): SupportProblem | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new SupportProblem(413, { error: 'PayloadTooLarge', description: 'The request body is too large.' });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new SupportProblem(415, { error: 'UnsupportedMediaType', description: 'The Content-Type of the request is not supported: send application/json.' });
    case 'FST_ERR_BAD_URL':
      // The same words as the /v2 interface's answer (app.ts), in this interface's shape.
      return badRequest('InvalidPayload', 'The request path is not a valid URL: each % must start an escape of UTF-8 bytes, such as %20.');
    case NUL_REFUSED:
      return badRequest('InvalidPayload', NUL_MESSAGE);
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) return badRequest('InvalidPayload', error.message);
      return null;
  }
}
