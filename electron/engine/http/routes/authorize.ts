import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Engine } from '../../engine.js';
import { parseScope } from '../../auth/scopes.js';
import { redirectUriMatches, type OAuthClient } from '../../auth/clients.js';
import { isCodeChallenge, issueCode } from '../../auth/authorizationCodes.js';
import { authorizeErrorPage, consentPage, consentPolicy } from '../consentPage.js';
import { formOf, OAuthError, type Form } from './oauth.js';
import { DEFAULT_SCOPE, type Scope } from '../../../../shared/oauth.js';

/** The cookie half of the consent form's CSRF check (double submit). */
export const CSRF_COOKIE = 'outpost_csrf';

/** The request parameters the consent form carries through, unchanged. */
const REQUEST_PARAMS = ['response_type', 'client_id', 'redirect_uri', 'scope', 'state', 'code_challenge', 'code_challenge_method'] as const;

interface AuthorizationRequest {
  client: OAuthClient;
  redirectUri: string;
  responseType: 'code' | 'token';
  scope: Scope[];
  state: string | undefined;
  codeChallenge: string | null;
  params: Record<string, string>;
}

/** Why a request fails: shown on the hub's page (no trustworthy redirect URI), or sent back to the application. */
class AuthorizeError extends Error {
  constructor(message: string, readonly redirect?: { uri: string; error: string; state: string | undefined; fragment: boolean }) {
    super(message);
  }
}

/**
 * The authorization endpoint (RFC 6749 §4.1 code, §4.2 implicit; RFC 7636
 * PKCE): GET shows the sign-in and consent page, its form posts back here,
 * and the answer redirects to the application with a code, a token, or an
 * error. A request with an unknown client or a redirect URI other than the
 * registered one gets an error page and is never redirected.
 */
export function authorizeRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/oauth2/authorize', async (request, reply) => {
    return handle(reply, () => {
      const auth = authorizationRequest(engine, formOf(request, request.query));
      return showConsent(engine, reply, auth);
    });
  });

  app.post('/oauth2/authorize', async (request, reply) => {
    return handle(reply, async () => {
      const form = formOf(request);
      const auth = authorizationRequest(engine, form);
      const cookie = request.cookies[CSRF_COOKIE];
      if (!engine.csrf.verify(form.csrf_token) || form.csrf_token !== cookie) {
        return showConsent(engine, reply.code(400), auth, { error: 'This page expired or was not sent from this hub: please try again.', email: form.username });
      }
      if (form.decision !== 'approve') return redirectBack(reply, auth, { error: 'access_denied', error_description: 'The user denied the request.' });
      const signIn = await engine.signIn.check(form.username ?? '', form.password ?? '', request.ip);
      if (!signIn.ok) {
        if (signIn.retryAfter) reply.header('Retry-After', String(signIn.retryAfter));
        return showConsent(engine, reply.code(signIn.unavailable ? 503 : signIn.retryAfter ? 429 : 401), auth, { error: signIn.message, email: form.username });
      }
      return redirectBack(reply, auth, grant(engine, auth, signIn.userId));
    });
  });
}

async function handle(reply: FastifyReply, run: () => FastifyReply | Promise<FastifyReply>): Promise<FastifyReply> {
  reply.header('Cache-Control', 'no-store').header('X-Frame-Options', 'DENY').header('Referrer-Policy', 'no-referrer').header('X-Content-Type-Options', 'nosniff');
  try {
    return await run();
  } catch (caught) {
    // A malformed request (a repeated parameter) cannot be trusted to redirect: it gets the error page.
    const err = caught instanceof OAuthError ? new AuthorizeError(caught.message) : caught;
    if (!(err instanceof AuthorizeError)) throw err;
    if (err.redirect) {
      const { uri, error, state, fragment } = err.redirect;
      return reply.redirect(withParams(uri, { error, error_description: err.message, state }, fragment), 302);
    }
    return reply.code(400).header('Content-Security-Policy', consentPolicy(null)).type('text/html; charset=utf-8').send(authorizeErrorPage(err.message));
  }
}

/** Checks a request in the order RFC 6749 §4.1.2.1 prescribes: client and redirect URI first (errors stay here), the rest go back. */
function authorizationRequest(engine: Engine, params: Form): AuthorizationRequest {
  const client = params.client_id ? engine.clients.find(params.client_id) : undefined;
  if (!client) throw new AuthorizeError(params.client_id ? 'No application with this client_id is registered on this hub.' : 'client_id is missing.');
  const redirectUri = params.redirect_uri ?? (client.first_party ? undefined : client.redirect_uri ?? undefined);
  if (!redirectUri || !redirectUriMatches(client, redirectUri)) {
    throw new AuthorizeError('redirect_uri is missing or is not the one registered for this application.');
  }
  const fail = (error: string, message: string) => new AuthorizeError(message, { uri: redirectUri, error, state: params.state, fragment: params.response_type === 'token' });
  const responseType = params.response_type;
  if (!responseType) throw fail('invalid_request', 'response_type is required: code or token.');
  if (responseType !== 'code' && responseType !== 'token') throw fail('unsupported_response_type', 'response_type must be code or token.');
  if (responseType === 'token' && client.first_party) throw fail('unauthorized_client', 'The built-in app uses the authorization code grant with PKCE, not the implicit grant.');
  const scope = parseScope(params.scope ?? DEFAULT_SCOPE);
  if (!scope) throw fail('invalid_scope', 'scope must be a space-delimited list of read, write, profile, sync.');
  let codeChallenge: string | null = null;
  if (params.code_challenge !== undefined) {
    if (params.code_challenge_method !== 'S256') throw fail('invalid_request', 'code_challenge_method must be S256 (plain is not accepted).');
    if (!isCodeChallenge(params.code_challenge)) throw fail('invalid_request', 'code_challenge must be the base64url SHA-256 of the code_verifier (43 characters).');
    codeChallenge = params.code_challenge;
  }
  if (responseType === 'code' && client.public && codeChallenge === null) throw fail('invalid_request', 'A public client must use PKCE: send code_challenge and code_challenge_method=S256.');
  const carried = Object.fromEntries(REQUEST_PARAMS.filter((p) => params[p] !== undefined).map((p) => [p, params[p]!]));
  return { client, redirectUri, responseType, scope, state: params.state, codeChallenge, params: { ...carried, redirect_uri: redirectUri } };
}

function showConsent(engine: Engine, reply: FastifyReply, auth: AuthorizationRequest, extra: { error?: string; email?: string } = {}): FastifyReply {
  const csrf = engine.csrf.issue().csrf_token;
  reply.setCookie(CSRF_COOKIE, csrf, { path: '/oauth2', httpOnly: true, sameSite: 'strict', secure: 'auto' });
  const html = consentPage({
    appName: auth.client.name, redirectUri: auth.redirectUri, scope: auth.scope, hidden: auth.params, csrfToken: csrf, ...extra,
  });
  return reply.header('Content-Security-Policy', consentPolicy(auth.redirectUri)).type('text/html; charset=utf-8').send(html);
}

/** What goes back to the application on approval: a code (RFC 6749 §4.1.2) or an access token (§4.2.2). */
function grant(engine: Engine, auth: AuthorizationRequest, userId: number): Record<string, string | undefined> {
  if (auth.responseType === 'code') {
    const code = issueCode(engine.ctx, { clientId: auth.client.client_id, userId, redirectUri: auth.redirectUri, scope: auth.scope, codeChallenge: auth.codeChallenge });
    return { code };
  }
  const token = engine.tokens.issue(userId, auth.client.client_id, auth.scope, { withRefreshToken: false });
  const scope = token.scope === DEFAULT_SCOPE ? undefined : token.scope;
  return { access_token: token.access_token, token_type: token.token_type, expires_in: String(token.expires_in), scope };
}

function redirectBack(reply: FastifyReply, auth: AuthorizationRequest, params: Record<string, string | undefined>): FastifyReply {
  reply.clearCookie(CSRF_COOKIE, { path: '/oauth2' });
  return reply.redirect(withParams(auth.redirectUri, { ...params, state: auth.state }, auth.responseType === 'token'), 302);
}

/** The redirect URI with the answer in its query (code flow) or fragment (implicit), keeping its own query. */
function withParams(uri: string, params: Record<string, string | undefined>, fragment: boolean): string {
  const url = new URL(uri);
  const defined = Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (fragment) url.hash = new URLSearchParams(defined).toString();
  else for (const [name, value] of defined) url.searchParams.set(name, value);
  return url.toString();
}

