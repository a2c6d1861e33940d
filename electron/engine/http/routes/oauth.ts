import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { ApiProblem } from '../../problems.js';
import { serverFaultProblem, NUL_MESSAGE, problemHeaders, problemStatus } from '../problemReply.js';
import { NUL_REFUSED } from '../../db/databaseErrors.js';
import { JSON_TYPE } from '../reply.js';
import { parseScope } from '../../auth/scopes.js';
import type { OAuthClient } from '../../auth/clients.js';
import { redeemCode } from '../../auth/authorizationCodes.js';
import { DEFAULT_SCOPE, type Scope } from '../../../../shared/oauth.js';

/** An OAuth error answer as RFC 6749 §5.2 shapes it (the spec leaves these unshown). */
export class OAuthError extends Error {
  constructor(readonly status: number, readonly error: string, description: string, readonly headers: Record<string, string> = {}) {
    super(description);
  }
}

export type Form = Record<string, string | undefined>;

/**
 * The authorization server's token, revocation and CSRF endpoints (the
 * authorization endpoint is in authorize.ts). Bodies are form-encoded
 * (JSON is accepted too); answers are JSON, never cached.
 */
export function oauthRoutes(app: FastifyInstance, engine: Engine): void {
  app.post('/oauth2/token', async (request, reply) =>
    answer(reply, async () => {
      const form = formOf(request);
      const client = authenticateClient(engine, request, form);
      switch (form.grant_type) {
        case 'authorization_code':
          return authorizationCodeGrant(engine, client, form);
        case 'password':
          return passwordGrant(engine, client, form, request.ip);
        case 'refresh_token':
          return refreshGrant(engine, client, form);
        case undefined:
        case '':
          throw new OAuthError(400, 'invalid_request', 'grant_type is required.');
        default:
          throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${form.grant_type} is not supported: use authorization_code, password or refresh_token.`);
      }
    }),
  );

  // RFC 7009: answers 200 whether or not the token was known. token_type_hint is accepted; both kinds are looked up anyway.
  app.post('/oauth2/revoke', async (request, reply) =>
    answer(reply, async () => {
      const form = formOf(request);
      const client = authenticateClient(engine, request, form);
      if (!form.token) throw new OAuthError(400, 'invalid_request', 'token is required.');
      engine.tokens.revoke(form.token, client.client_id);
      return {};
    }),
  );

  // The spec's CSRF token endpoint (no authentication); its path is not shown there: Outpost's is this one.
  app.get('/oauth2/csrf_token', async (_request, reply) => answer(reply, async () => engine.csrf.issue()));
}

async function answer(reply: FastifyReply, run: () => Promise<object>): Promise<FastifyReply> {
  const body = await run();
  return noStore(reply).code(200).send(body);
}

/** Token answers, and their errors, are never cached (RFC 6749 §5.1). */
function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
}

/**
 * The error handler of everything under /oauth2 (app.ts sets it on their
 * scope): every failure, wherever it arises (the body's parsing and its
 * Content-Type, its size, a rate limit, client authentication, the grant, the
 * database, a bug), answers in OAuth's shape (RFC 6749 §5.2, RFC 7009 §2.2):
 * `{"error", "error_description"}` as JSON, never cached, 401 with
 * WWW-Authenticate for a client that failed to authenticate. HTTP's own
 * refusals keep their status (413, 415, 429) with `invalid_request`; the
 * database that cannot answer is 503 `temporarily_unavailable` with
 * Retry-After; anything unforeseen a logged 500 `server_error`, its cause in
 * the log only.
 */
export function sendOAuthFailure(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const failure = oauthErrorOf(error, request);
  if (failure.status === 401) reply.header('WWW-Authenticate', 'Basic realm="outpost"');
  reply.headers(failure.headers);
  return noStore(reply).code(failure.status).type(JSON_TYPE).send({ error: failure.error, error_description: failure.message });
}

function oauthErrorOf(error: unknown, request: FastifyRequest): OAuthError {
  if (error instanceof OAuthError) return error;
  const known = error instanceof ApiProblem ? error : serverFaultProblem(error, request.log);
  if (known) {
    const status = problemStatus(known);
    const description = known.errors.map((e) => e.message).join(' ');
    if (status === 503) return new OAuthError(503, 'temporarily_unavailable', description, problemHeaders(known));
    if (status >= 500) return serverError(error, request);
    // A body that is not a form or JSON: say what OAuth takes (the /v2 message names JSON alone).
    if (status === 415) return new OAuthError(415, 'invalid_request', unsupportedType(request));
    return new OAuthError(status === 413 || status === 429 ? status : 400, 'invalid_request', description, problemHeaders(known));
  }
  const fastify = error as Partial<FastifyError>;
  switch (fastify.code) {
    case NUL_REFUSED:
      return new OAuthError(400, 'invalid_request', NUL_MESSAGE);
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new OAuthError(413, 'invalid_request', 'The request body is too large.');
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new OAuthError(415, 'invalid_request', unsupportedType(request));
  }
  if (fastify.statusCode !== undefined && fastify.statusCode >= 400 && fastify.statusCode < 500) {
    return new OAuthError(fastify.statusCode === 429 ? 429 : 400, 'invalid_request', fastify.message ?? 'The request is not valid.');
  }
  return serverError(error, request);
}

function serverError(error: unknown, request: FastifyRequest): OAuthError {
  request.log.error({ err: error }, 'unhandled error');
  return new OAuthError(500, 'server_error', 'Something went wrong on the server; the request id (X-Request-Id) identifies it in the log.');
}

function unsupportedType(request: FastifyRequest): string {
  return `Content-Type ${request.headers['content-type'] ?? '(none)'} is not supported: send application/x-www-form-urlencoded (or application/json).`;
}

/** The request's form (or JSON object) as single string values; a repeated field is an invalid_request (RFC 6749 §3.1). */
export function formOf(request: FastifyRequest, source: unknown = request.body): Form {
  if (source === undefined || source === null) return {};
  if (typeof source !== 'object' || Array.isArray(source)) throw new OAuthError(400, 'invalid_request', 'The request body must be form-encoded.');
  const form: Form = {};
  for (const [key, value] of Object.entries(source)) {
    if (Array.isArray(value)) throw new OAuthError(400, 'invalid_request', `${key} is given more than once.`);
    const text = value === undefined || value === null ? undefined : String(value);
    // As in a JSON body (bodyParsers.ts): no name or value holds NUL, on either database.
    if (key.includes('\0') || text?.includes('\0')) throw new OAuthError(400, 'invalid_request', `${key.replaceAll('\0', '%00')} holds the NUL character (%00), which no field may hold.`);
    form[key] = text;
  }
  return form;
}

/** Basic credentials, or client_id/client_secret in the body; both may be sent but must agree. */
function authenticateClient(engine: Engine, request: FastifyRequest, form: Form): OAuthClient {
  let id = form.client_id;
  let secret = form.client_secret;
  const header = request.headers.authorization;
  if (header) {
    const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
    const decoded = match ? Buffer.from(match[1], 'base64').toString('utf8') : '';
    const colon = decoded.indexOf(':');
    if (colon < 0) throw new OAuthError(401, 'invalid_client', 'The Authorization header must be Basic base64(client_id:client_secret).');
    const [basicId, basicSecret] = [safeDecode(decoded.slice(0, colon)), safeDecode(decoded.slice(colon + 1))];
    if (`${basicId}${basicSecret}`.includes('\0')) throw new OAuthError(401, 'invalid_client', 'The client credentials hold the NUL character, which none may hold.');
    if ((id !== undefined && id !== basicId) || (secret !== undefined && secret !== basicSecret)) {
      throw new OAuthError(401, 'invalid_client', 'The client credentials in the header and in the body do not match.');
    }
    id = basicId;
    secret = basicSecret;
  }
  const client = id ? engine.clients.authenticate(id, secret ?? '') : null;
  if (!client) throw new OAuthError(401, 'invalid_client', 'Client authentication failed.');
  return client;
}

/** RFC 6749 §2.3.1 form-encodes the credentials inside Basic; a stray % is taken literally. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

function requestedScope(form: Form, fallback: string = DEFAULT_SCOPE): Scope[] {
  const scope = parseScope(form.scope ?? fallback);
  if (!scope) throw new OAuthError(400, 'invalid_scope', 'scope must be a space-delimited list of read, write, profile, sync.');
  return scope;
}

function authorizationCodeGrant(engine: Engine, client: OAuthClient, form: Form) {
  if (!form.code) throw new OAuthError(400, 'invalid_request', 'code is required.');
  const redeemed = redeemCode(engine.ctx, form.code, client.client_id, form.redirect_uri, form.code_verifier);
  if (!redeemed.ok) {
    if (redeemed.replayed !== undefined) engine.tokens.revokeIssuedFromCode(redeemed.replayed);
    throw new OAuthError(400, 'invalid_grant', redeemed.reason);
  }
  return engine.tokens.issue(redeemed.userId, client.client_id, redeemed.scope, { withRefreshToken: true, authorizationCodeId: redeemed.id });
}

/**
 * The resource owner's password, for the built-in app and confidential
 * clients. A public third-party client must not handle users' passwords.
 */
async function passwordGrant(engine: Engine, client: OAuthClient, form: Form, source: string) {
  if (client.public && !client.first_party) {
    throw new OAuthError(400, 'unauthorized_client', 'A public client may not use the password grant: use the authorization code grant with PKCE.');
  }
  if (!form.username || !form.password) throw new OAuthError(400, 'invalid_request', 'username and password are required.');
  const scope = requestedScope(form);
  const signIn = await engine.signIn.check(form.username, form.password, source);
  if (!signIn.ok) {
    // RFC 6749 names temporarily_unavailable for the authorization endpoint; the token endpoint answers alike.
    if (signIn.unavailable) throw new OAuthError(503, 'temporarily_unavailable', signIn.message, { 'Retry-After': '5' });
    const headers: Record<string, string> = signIn.retryAfter ? { 'Retry-After': String(signIn.retryAfter) } : {};
    throw new OAuthError(400, 'invalid_grant', signIn.message, headers);
  }
  return engine.tokens.issue(signIn.userId, client.client_id, scope, { withRefreshToken: true });
}

function refreshGrant(engine: Engine, client: OAuthClient, form: Form) {
  if (!form.refresh_token) throw new OAuthError(400, 'invalid_request', 'refresh_token is required.');
  const narrowTo = form.scope === undefined ? undefined : requestedScope(form);
  const tokens = engine.tokens.refresh(form.refresh_token, client.client_id, narrowTo);
  if (tokens === 'wider') throw new OAuthError(400, 'invalid_scope', 'A refresh may keep or narrow the scope the user granted, never widen it.');
  if (tokens === 'invalid') throw new OAuthError(400, 'invalid_grant', 'The refresh token is invalid, revoked, or was issued to another client.');
  return tokens;
}
