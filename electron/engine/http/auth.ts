import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../engine.js';
import type { Actor } from '../context.js';
import { problem } from '../problems.js';
import { HttpProblem } from './problemReply.js';
import { requiredScope } from '../auth/scopes.js';

declare module 'fastify' {
  interface FastifyRequest {
    actor: Actor | null;
  }
}

const UNAUTHORIZED = 'Required access token is missing, malformed, expired, or invalid.';

/** Reads `Authorization: Bearer <token>`; every /v2 route runs this before its handler. */
export function authenticate(engine: Engine) {
  return async function bearerAuth(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const header = request.headers.authorization;
    const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    const actor = match ? engine.tokens.authenticate(match[1]) : null;
    if (!actor) {
      throw new HttpProblem(
        [{ resource: 'request', field: 'Authorization', code: 'unauthorized', message: UNAUTHORIZED, details: UNAUTHORIZED }],
        { 'WWW-Authenticate': 'Bearer realm="outpost", error="invalid_token"' },
      );
    }
    const needed = requiredScope(request.method, request.routeOptions.url ?? request.url);
    const allowed = needed === 'profile-or-read' ? actor.scopes.has('profile') || actor.scopes.has('read') : actor.scopes.has(needed);
    if (!allowed) {
      const scope = needed === 'profile-or-read' ? 'profile' : needed;
      throw new HttpProblem(
        [{ resource: 'request', field: 'Authorization', code: 'insufficient_scope', message: `This operation needs a token with the '${scope}' scope.`, details: `Token scopes: ${[...actor.scopes].join(' ')}` }],
        { 'WWW-Authenticate': `Bearer realm="outpost", error="insufficient_scope", scope="${scope}"` },
      );
    }
    request.actor = actor;
  };
}

export function actorOf(request: FastifyRequest): Actor {
  if (!request.actor) throw problem('unauthorized', UNAUTHORIZED, 'Authorization');
  return request.actor;
}
