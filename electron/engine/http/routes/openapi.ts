import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { openApiDocument } from '../../openapi/document.js';
import { REFERENCE_CSS, REFERENCE_PAGE_POLICY, referencePage } from '../../openapi/page.js';
import { JSON_TYPE, queryOf, rejectQuery } from '../reply.js';

export const OPENAPI_PATH = '/v2/openapi.json';
export const REFERENCE_PATH = '/docs/api/reference';
/** The interface's version: `/v2`. */
const API_VERSION = '2';

/**
 * The OpenAPI 3.1 document of the hub and its reference page.
 * Public and read-only, as the real service publishes its reference: it says
 * what the interface is, nothing about the account or its data, and a client
 * or a person needs it before they hold a token. Registered outside the
 * authenticated /v2 scope, and built once, on the first request, from every
 * route the app registered by then (all of them: routes are added before it listens).
 */
export function openApiRoutes(app: FastifyInstance, engine: Engine): void {
  let built: { json: string; page: string } | null = null;
  const build = () => {
    if (built) return built;
    const { document } = openApiDocument(engine, app.routeList, API_VERSION);
    built = { json: JSON.stringify(document), page: referencePage(document, `${REFERENCE_PATH}.css`, OPENAPI_PATH) };
    return built;
  };
  app.get(OPENAPI_PATH, async (request, reply) => {
    rejectQuery(queryOf(request));
    return reply.type(JSON_TYPE).send(build().json);
  });
  app.get(REFERENCE_PATH, async (_request, reply) =>
    reply.type('text/html; charset=utf-8').header('Content-Security-Policy', REFERENCE_PAGE_POLICY)
      .header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer').send(build().page));
  app.get(`${REFERENCE_PATH}.css`, async (_request, reply) => reply.type('text/css; charset=utf-8').header('X-Content-Type-Options', 'nosniff').send(REFERENCE_CSS));
}
