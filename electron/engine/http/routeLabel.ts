import type { FastifyRequest } from 'fastify';

/** What a request without a route (a 404) is counted and logged as. */
export const NO_ROUTE = '(no route)';

/**
 * The route pattern that answered (`/v2/contacts/:id`), never the raw URL:
 * metric labels stay a bounded set, and logs never carry what URLs may hold
 * (a calendar feed's token, a download link's signature, search terms).
 */
export function routeLabel(request: FastifyRequest): string {
  return request.routeOptions.url ?? NO_ROUTE;
}
