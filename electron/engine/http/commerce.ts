import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine.js';

/** Route config of the product, order and line-item routes: the plan and the admin switch apply to them. */
export const COMMERCE = { commerce: true } as const;

/**
 * Products, orders and line items answer 403 on a plan without them, and to
 * every change while an admin has turned changes off (Accounts.checkCommerce).
 * Runs after authentication, so an anonymous caller still gets 401.
 */
export function guardCommerce(app: FastifyInstance, engine: Engine): void {
  app.addHook('preHandler', async (request) => {
    const config = request.routeOptions.config as { commerce?: boolean } | undefined;
    if (config?.commerce) engine.accounts.checkCommerce(request.method);
  });
}
