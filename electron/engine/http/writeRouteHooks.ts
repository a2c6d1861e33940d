import type { FastifyInstance, preHandlerAsyncHookHandler, onSendAsyncHookHandler, RouteOptions } from 'fastify';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Hooks that only concern writes (idempotency keys, what a device wrote),
 * attached to the write routes registered after this call — reads, the bulk
 * of the traffic, do not pay for them. Call before registering routes.
 */
export function onWriteRoutes(app: FastifyInstance, hooks: { preHandler?: preHandlerAsyncHookHandler; onSend?: onSendAsyncHookHandler }, methods = WRITES): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    const routeMethods = Array.isArray(route.method) ? route.method : [route.method];
    if (!routeMethods.some((m) => methods.has(m))) return;
    if (hooks.preHandler) route.preHandler = [...asList(route.preHandler), hooks.preHandler];
    if (hooks.onSend) route.onSend = [...asList(route.onSend), hooks.onSend];
  });
}

function asList<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
