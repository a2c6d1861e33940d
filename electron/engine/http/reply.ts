import type { FastifyReply, FastifyRequest } from 'fastify';
import { collectionJson, pageLinks, resourceJson } from './envelope.js';
import { invalidParam, problem } from '../problems.js';
import type { ListPage } from '../resources/listing.js';
import type { RawQuery } from '../resources/params.js';

export const JSON_TYPE = 'application/json; charset=utf-8';

export function sendResource(reply: FastifyReply, type: string, dataJson: string, status = 200): FastifyReply {
  return reply.code(status).type(JSON_TYPE).send(resourceJson(type, dataJson));
}

export function sendPage(request: FastifyRequest, reply: FastifyReply, type: string, page: ListPage): FastifyReply {
  const links = pageLinks(requestUrl(request), page.page, page.perPage, page.hasMore);
  return reply.type(JSON_TYPE).send(collectionJson(type, page.rows, links, page.total));
}

export function requestUrl(request: FastifyRequest): URL {
  return new URL(request.url, `${request.protocol}://${request.host || 'localhost'}`);
}

export function queryOf(request: FastifyRequest): RawQuery {
  return request.query as RawQuery;
}

/** Endpoints that take no query parameters (or only the `allowed` ones) answer unknown ones with 400 (as the real service does). */
export function rejectQuery(query: RawQuery, allowed: readonly string[] = []): void {
  const name = Object.keys(query).find((key) => !allowed.includes(key));
  if (name !== undefined) throw invalidParam(name, 'unknown parameter');
}

/** `:id` path segments hold positive integers; anything else (of any length) names no record. */
export function idParam(request: FastifyRequest, resource: string, name = 'id'): number {
  const raw = (request.params as Record<string, string>)[name];
  // Negative ids are a replica's records not yet on the hub.
  if (!/^-?[1-9]\d{0,14}$/.test(raw)) {
    // A long id is cut short in the message: it may be kilobytes.
    const shown = raw.length > 40 ? `${raw.slice(0, 40)}…` : raw;
    throw problem('not_found', `The ${resource} with id ${shown} was not found.`, `/${name}`, resource);
  }
  return Number(raw);
}

/** The `data` object of a write request (`{"data": {…}, "meta": {…}}`). */
export function dataOf(request: FastifyRequest, resource: string): Record<string, unknown> {
  const body = request.body as { data?: unknown } | undefined | null;
  const data = body && typeof body === 'object' && !Array.isArray(body) ? body.data : undefined;
  if (data === undefined) {
    throw problem('missing', 'The request body must be a JSON object with the fields inside "data": {"data": {…}}.', '/data', resource);
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) {
    throw problem('invalid_type', '"data" must be an object holding the fields.', '/data', resource);
  }
  return data as Record<string, unknown>;
}

/** Where the request was sent (`http://127.0.0.1:4100`): error links point at the docs the hub serves. */
export function requestOrigin(request: FastifyRequest): string {
  return `${request.protocol}://${request.host || 'localhost'}`;
}
