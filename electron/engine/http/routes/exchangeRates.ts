import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { requireAdmin } from '../../auth/permissions.js';
import { dataOf, queryOf, rejectQuery, requestUrl, sendResource, JSON_TYPE } from '../reply.js';
import { collectionJson } from '../envelope.js';

const currencyParam = (request: FastifyRequest) => (request.params as { currency: string }).currency;

/** The admin making a change (403 for anyone else): the change log names them. */
function adminId(request: FastifyRequest): number {
  const actor = actorOf(request);
  requireAdmin(actor);
  return actor.userId;
}

/**
 * Outpost's extension: the account's exchange rates. Everyone
 * reads them (totals are converted with them); admins set and remove them.
 * On a replica the writes are refused (they are the hub's, refuseUnreplicableWrites).
 */
export function exchangeRateRoutes(app: FastifyInstance, engine: Engine): void {
  app.get('/v2/exchange_rates', async (request, reply) => {
    rejectQuery(queryOf(request));
    const rows = engine.exchangeRates.listJson();
    return reply.type(JSON_TYPE).send(collectionJson('exchange_rate', rows, { self: requestUrl(request).toString() }));
  });
  app.get('/v2/exchange_rates/:currency', async (request, reply) =>
    sendResource(reply, 'exchange_rate', engine.exchangeRates.json(currencyParam(request).toUpperCase())));
  app.put('/v2/exchange_rates/:currency', async (request, reply) => {
    const actor = adminId(request);
    const currency = engine.exchangeRates.set(currencyParam(request), dataOf(request, 'exchange_rate'), actor);
    return sendResource(reply, 'exchange_rate', engine.exchangeRates.json(currency));
  });
  app.delete('/v2/exchange_rates/:currency', async (request, reply) => {
    engine.exchangeRates.delete(currencyParam(request), adminId(request));
    return reply.code(204).send();
  });
}
