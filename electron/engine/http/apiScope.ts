import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../engine.js';
import type { Replica } from '../replica/replica.js';
import { ApiProblem, problem } from '../problems.js';
import type { ApiError } from '../../../shared/errors.js';
import { serverFaultProblem, NUL_MESSAGE, oauthUnavailableBody, problemHeaders, problemStatus } from './problemReply.js';
import { NUL_REFUSED } from '../db/databaseErrors.js';
import { errorEnvelope } from './envelope.js';
import { authenticate } from './auth.js';
import { JSON_TYPE, requestOrigin as origin } from './reply.js';
import { registerBodyParsers } from './bodyParsers.js';
import { answerAfterCommit } from './writeRouteHooks.js';
import { idempotentWrites } from './idempotency.js';
import { guardCommerce } from './commerce.js';
import { isSupportPath, sendSupportError, supportApi, supportNotFound, type SupportApiOptions } from './supportApi.js';
import { holdWritesWhileLocked, refuseUnreplicableWrites, replicaRoutes, sendHubOnlyRequestsToHub } from './routes/replica.js';
import { noteWritesByDevices, syncRoutes } from './routes/sync.js';
import { supportForwardRoutes } from './routes/supportForward.js';
import { salesRoutes } from './routes/sales.js';
import { bulkRoutes } from './routes/bulk.js';
import { mergingRoutes } from './routes/merging.js';
import { enrollmentRoutes } from './routes/enrollments.js';
import { customFieldRoutes } from './routes/customFields.js';
import { exchangeRateRoutes } from './routes/exchangeRates.js';
import { smartListRoutes } from './routes/smartLists.js';
import { recordSearchRoutes } from './routes/recordSearch.js';
import { oauthClientRoutes } from './routes/oauthClients.js';
import { teamRoutes } from './routes/team.js';
import { documentRoutes, downloadRoutes } from './routes/documents.js';
import { importExportRoutes } from './routes/importExport.js';
import { leadConversionRoutes } from './routes/leadConversions.js';
import { associatedContactRoutes } from './routes/associatedContacts.js';
import { commerceRoutes } from './routes/commerce.js';
import { reportRoutes } from './routes/reports.js';

// The engine's REST interface as the UI reaches it, registered on whatever hosts it: the hub's and the
// desktop's Fastify app (app.ts, which adds what only a server has: rate limits, OAuth, metrics, the web UI),
// and the browser worker's route host (electron/browser/routeHost.ts), which runs the same code without Fastify.

export const BODY_LIMIT = 1024 * 1024;

export interface ApiScopeOptions {
  /** On a replica: its sync, served at /v2/replica/…; writes it cannot replay are refused, or sent to the hub. */
  replica?: Replica;
  /**
   * What a replica does with a write only the hub makes: refuse it (the desktop: the rep makes it on the hub's
   * page), or send it to the hub while the hub can be reached (the hub's page itself, keeping the rep's data).
   */
  hubOnlyWrites?: 'refuse' | 'send';
  /** Routes the desktop shell adds inside the authenticated /v2 scope (its hub connection). */
  shellRoutes?: (api: FastifyInstance) => void;
}

/** A page to answer an unknown path with instead of the JSON 404 (the hub's web UI), or undefined. */
export type PageForUnknownPath = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

/**
 * What every answer of the interface shares, set on the root: the request id and language headers,
 * the body rule, errors and unknown paths in the envelope, and answers held until their commit.
 */
export function apiBasics(app: FastifyInstance, engine: Engine, pageForUnknownPath?: PageForUnknownPath): void {
  app.decorateRequest('actor', null);
  app.addHook('onRequest', async (request, reply) => {
    reply.header('X-Request-Id', request.id).header('Content-Language', 'en');
  });
  registerBodyParsers(app);
  app.setNotFoundHandler(answerUnknownPath(engine, pageForUnknownPath));
  app.setErrorHandler(sendError);
  answerAfterCommit(app, engine.ctx.commits);
}

/**
 * The authenticated /v2 scope, inside its own `register`: the rules in their order (a replica's write
 * gate before authentication, which may write; idempotency; what devices wrote; a replica's refusal of
 * writes it cannot replay; the commerce guard), then the routes.
 */
export async function apiScope(api: FastifyInstance, engine: Engine, options: ApiScopeOptions): Promise<void> {
  if (options.replica) holdWritesWhileLocked(api, options.replica);
  api.addHook('onRequest', authenticate(engine));
  idempotentWrites(api, engine);
  noteWritesByDevices(api, engine);
  if (options.replica && options.hubOnlyWrites === 'send') sendHubOnlyRequestsToHub(api, options.replica);
  else if (engine.ctx.replica) refuseUnreplicableWrites(api);
  guardCommerce(api, engine);
  if (options.replica) replicaRoutes(api, options.replica, engine.ctx);
  options.shellRoutes?.(api);
  salesRoutes(api, engine);
  bulkRoutes(api, engine);
  mergingRoutes(api, engine);
  teamRoutes(api, engine);
  enrollmentRoutes(api, engine);
  leadConversionRoutes(api, engine);
  associatedContactRoutes(api, engine);
  commerceRoutes(api, engine);
  customFieldRoutes(api, engine);
  exchangeRateRoutes(api, engine);
  smartListRoutes(api, engine);
  recordSearchRoutes(api, engine);
  syncRoutes(api, engine);
  oauthClientRoutes(api, engine);
  importExportRoutes(api, engine);
  reportRoutes(api, engine);
  await documentRoutes(api, engine);
}

/**
 * What the UI also reaches outside /v2: the custom-objects interface (/api/v2; a replica sends it on
 * to its hub) and the signed document downloads.
 */
export async function apiOutsideScope(app: FastifyInstance, engine: Engine, options: Pick<SupportApiOptions, 'limitRate' | 'supportBaseUrl'> & { replica?: Replica }): Promise<void> {
  const { replica } = options;
  await supportApi(app, engine, {
    limitRate: options.limitRate,
    supportBaseUrl: options.supportBaseUrl,
    // Custom objects are the hub's only: a replica sends those requests on to it.
    routes: replica ? (api) => supportForwardRoutes(api, replica) : undefined,
  });
  downloadRoutes(app, engine, replica);
}

function answerUnknownPath(engine: Engine, pageFor: PageForUnknownPath | undefined) {
  const bearerAuth = authenticate(engine);
  return async (request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> => {
    // The custom-objects interface answers in its own style, credentials first.
    if (isSupportPath(request.url)) return supportNotFound(engine, request, reply);
    const page = pageFor?.(request, reply);
    if (page) return page;
    // Unknown /v2 paths still need a token first, so routes cannot be probed anonymously.
    if (/^\/v2(\/|$|\?)/.test(request.url)) await bearerAuth(request, reply);
    const message = `Requested path at '${request.url.split('?')[0]}' was not found using the HTTP method '${request.method}'.`;
    const errors: ApiError[] = [{ resource: 'request', field: '', code: 'incorrect_path', message, details: message }];
    return reply.code(404).type(JSON_TYPE).send(errorEnvelope(404, errors, request.id, origin(request)));
  };
}

/** Errors before routing (a URL that is not valid percent-encoding) and before the rules, in the envelope too. */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header('X-Request-Id', request.id).header('Content-Language', 'en');
  return isSupportPath(request.url) ? sendSupportError(error, request, reply) : sendError(error, request, reply);
}

export function sendError(error: FastifyError | ApiProblem, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const known = error instanceof ApiProblem ? error : serverFaultProblem(error, request.log) ?? fromFastifyError(error);
  if (!known) request.log.error({ err: error }, 'unhandled error');
  const failure = known ?? problem('internal_error', 'Something went wrong on the server; the request id identifies it in the log.');
  const status = problemStatus(failure);
  reply.headers(problemHeaders(failure));
  // The OAuth endpoints answer in OAuth's shape (routes/oauth.ts), a database that cannot answer too.
  if (status === 503 && request.url.startsWith('/oauth2/')) return reply.code(status).type(JSON_TYPE).send(oauthUnavailableBody(failure));
  return reply.code(status).type(JSON_TYPE).send(errorEnvelope(status, failure.errors, request.id, origin(request)));
}

/** Fastify's own client errors (body too large, bad content type, …) in our envelope. */
function fromFastifyError(error: FastifyError): ApiProblem | null {
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return problem('request_too_large', `The request body is larger than ${BODY_LIMIT} bytes.`);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return problem('unsupported_media_type', 'The Content-Type of the request is not supported: send application/json.', 'Content-Type');
    case 'FST_ERR_BAD_URL':
      return problem('malformed_request', 'The request path is not a valid URL: each % must start an escape of UTF-8 bytes, such as %20.');
    case NUL_REFUSED:
      return problem('malformed_request', NUL_MESSAGE);
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return problem('invalid_payload', error.message);
    default:
      if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
        return problem('invalid_payload', error.message);
      }
      return null;
  }
}
