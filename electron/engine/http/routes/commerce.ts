import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { COMMERCE } from '../commerce.js';
import { REPLICABLE, registerCrud, writeLocally } from '../crud.js';
import { resourceJson } from '../envelope.js';
import { dataOf, idParam, queryOf, sendPage, sendResource } from '../reply.js';
import { answerInTransaction } from '../writeRouteHooks.js';

/** Where a replica's changes to line items go on the hub: the id-addressed form (extension). */
const FLAT = '/v2/line_items';

/**
 * Products, orders and their line items: all under the plan and the admin
 * switch (COMMERCE). Line items are nested under their order as the real
 * service has them; `/v2/line_items` addresses them by their own id (an
 * Outpost extension), the form a desktop replica queues its changes in, so
 * a temporary order id in the body is resolved like any other reference.
 */
export function commerceRoutes(app: FastifyInstance, engine: Engine): void {
  registerCrud(app, '/v2/products', 'product', engine.products, engine.ctx, COMMERCE);
  registerCrud(app, '/v2/orders', 'order', engine.orders, engine.ctx, COMMERCE);

  const base = '/v2/orders/:order_id/line_items';
  const orderOf = (request: FastifyRequest) => idParam(request, 'order', 'order_id');
  const read = { config: { ...COMMERCE } };
  const write = { config: { ...COMMERCE, ...REPLICABLE } };
  const service = engine.lineItems;

  app.get(base, read, async (request, reply) => sendPage(request, reply, 'line_item', service.listPage(orderOf(request), queryOf(request))));
  app.get(`${base}/:id`, read, async (request, reply) => sendResource(reply, 'line_item', service.json(orderOf(request), idParam(request, 'line_item'))));

  app.post(base, write, async (request, reply) => {
    const orderId = orderOf(request);
    const data = dataOf(request, 'line_item');
    return answerInTransaction(engine.ctx.commits, request, reply, () => {
      const id = writeLocally(engine.ctx, () => service.create(orderId, data, actorOf(request)), (created) => ({
        method: 'POST', type: 'line_item', collection: FLAT, id: created, data: { ...data, order_id: orderId },
      }));
      return resourceJson('line_item', service.json(orderId, id));
    });
  });

  app.delete(`${base}/:id`, write, async (request, reply) => {
    const orderId = orderOf(request);
    const id = idParam(request, 'line_item');
    return answerInTransaction(engine.ctx.commits, request, reply, () => {
      writeLocally(engine.ctx, () => service.delete(orderId, id, actorOf(request)), () => ({ method: 'DELETE', type: 'line_item', collection: FLAT, id }));
      return null;
    }, 204);
  });

  registerCrud(app, FLAT, 'line_item', service.flat, engine.ctx, COMMERCE);
}
