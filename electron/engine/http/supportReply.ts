import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Engine } from '../engine.js';
import type { Actor } from '../context.js';
import { requireCustomObject } from '../customObjects/objectRows.js';
import { badRequest, unauthorized } from '../customObjects/problems.js';
import { JSON_TYPE, requestUrl } from './reply.js';

/**
 * What the route modules of the custom-objects interface (/api/v2,
 * supportApi.ts) read from a request and how they answer, as reply.ts is
 * for /v2. supportApi.ts registers those routes; they import only this.
 */

declare module 'fastify' {
  interface FastifyRequest {
    /** Where `url` fields of /api/v2 answers point: `--support-base-url`, or the request's own origin. */
    supportBaseUrl: string;
  }
}

/** The authenticated caller (set by the scope's onRequest hook). */
export function supportActor(request: FastifyRequest): Actor {
  if (!request.actor) throw unauthorized();
  return request.actor;
}

/** The absolute URL of a path of this interface, for `url` fields. */
export function supportUrl(request: FastifyRequest, _engine: Engine, path: string): string {
  return `${request.supportBaseUrl || requestUrl(request).origin}${path}`;
}

/** The object a write sends under its wrapper key (`{"custom_object": {...}}`); anything else is 400 InvalidPayload. */
export function supportBody(request: FastifyRequest, wrapper: string): Record<string, unknown> {
  const body = request.body as Record<string, unknown> | undefined;
  const inner = isPlainObject(body) ? body[wrapper] : undefined;
  if (!isPlainObject(inner)) throw badRequest('InvalidPayload', `The request body must be a JSON object with a "${wrapper}" object.`);
  return inner;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Sends JSON text built by a service (bare, as this interface answers). */
export function sendSupportJson(reply: FastifyReply, status: number, json: string): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(json);
}

/** What the routes under one custom object share: its path parameters, the object, the base of `url` fields, a JSON answer. */
export function objectRouteKit(engine: Engine) {
  const params = (request: FastifyRequest) => request.params as { custom_object_key: string; field?: string; id?: string };
  return {
    params,
    objectOf: (request: FastifyRequest) => requireCustomObject(engine.ctx, params(request).custom_object_key),
    base: (request: FastifyRequest) => supportUrl(request, engine, ''),
    send: (reply: FastifyReply, status: number, body: unknown) => sendSupportJson(reply, status, JSON.stringify(body)),
  };
}
