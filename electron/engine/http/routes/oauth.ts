import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { verifyPassword } from '../../auth/passwords.js';
import { parseScope } from '../../auth/scopes.js';
import type { OAuthClient } from '../../auth/clients.js';
import { DEFAULT_SCOPE } from '../../../../shared/oauth.js';

/** An OAuth error answer as RFC 6749 §5.2 shapes it (the spec leaves these unshown). */
class OAuthError extends Error {
  constructor(readonly status: number, readonly error: string, description: string) {
    super(description);
  }
}

type Form = Record<string, string | undefined>;

/**
 * The authorization server's token and revocation endpoints. This issue
 * needs the password and refresh_token grants (sign-in for the web UI and
 * the desktop app); the other grants arrive with the OAuth issue.
 */
export function oauthRoutes(app: FastifyInstance, engine: Engine): void {
  app.post('/oauth2/token', async (request, reply) =>
    answer(reply, async () => {
      const form = formOf(request);
      const client = authenticateClient(engine, request, form);
      switch (form.grant_type) {
        case 'password':
          return passwordGrant(engine, client, form);
        case 'refresh_token': {
          if (!form.refresh_token) throw new OAuthError(400, 'invalid_request', 'refresh_token is required.');
          const tokens = engine.tokens.refresh(form.refresh_token, client.client_id);
          if (!tokens) throw new OAuthError(400, 'invalid_grant', 'The refresh token is invalid, revoked, or was issued to another client.');
          return tokens;
        }
        case undefined:
        case '':
          throw new OAuthError(400, 'invalid_request', 'grant_type is required.');
        default:
          throw new OAuthError(400, 'unsupported_grant_type', `grant_type ${form.grant_type} is not supported.`);
      }
    }),
  );

  // RFC 7009: answers 200 whether or not the token was known.
  app.post('/oauth2/revoke', async (request, reply) =>
    answer(reply, async () => {
      const form = formOf(request);
      const client = authenticateClient(engine, request, form);
      if (!form.token) throw new OAuthError(400, 'invalid_request', 'token is required.');
      engine.tokens.revoke(form.token, client.client_id);
      return {};
    }),
  );
}

async function answer(reply: FastifyReply, run: () => Promise<object>): Promise<FastifyReply> {
  reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache');
  try {
    return reply.code(200).send(await run());
  } catch (err) {
    if (!(err instanceof OAuthError)) throw err;
    if (err.status === 401) reply.header('WWW-Authenticate', 'Basic realm="outpost"');
    return reply.code(err.status).send({ error: err.error, error_description: err.message });
  }
}

function formOf(request: FastifyRequest): Form {
  const body = request.body;
  if (body === undefined || body === null) return {};
  if (typeof body !== 'object' || Array.isArray(body)) throw new OAuthError(400, 'invalid_request', 'The request body must be form-encoded.');
  const form: Form = {};
  for (const [key, value] of Object.entries(body)) {
    if (Array.isArray(value)) throw new OAuthError(400, 'invalid_request', `${key} is given more than once.`);
    form[key] = value === undefined || value === null ? undefined : String(value);
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
    const [basicId, basicSecret] = [decodeURIComponent(decoded.slice(0, colon)), decodeURIComponent(decoded.slice(colon + 1))];
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

async function passwordGrant(engine: Engine, client: OAuthClient, form: Form) {
  if (!form.username || !form.password) throw new OAuthError(400, 'invalid_request', 'username and password are required.');
  const scope = parseScope(form.scope ?? DEFAULT_SCOPE);
  if (!scope) throw new OAuthError(400, 'invalid_scope', 'scope must be a space-delimited list of read, write, profile, sync.');
  const user = engine.users.findByEmail(form.username);
  const valid = await verifyPassword(form.password, user?.password_hash ?? null);
  if (!user || !valid || user.status !== 'active') throw new OAuthError(400, 'invalid_grant', 'The email or password is incorrect.');
  return engine.tokens.issue(user.id, client.client_id, scope);
}
