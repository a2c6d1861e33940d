import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { REPLICABLE, registerCrud, writeLocally } from '../crud.js';
import { resourceJson } from '../envelope.js';
import { dataOf, idParam, queryOf, sendPage } from '../reply.js';
import { answerInTransaction } from '../writeRouteHooks.js';

/** Where a replica's changes to associations go on the hub: the id-addressed form (extension). */
const FLAT = '/v2/associated_contacts';

/**
 * A deal's associated contacts, nested under the deal as the real service has
 * them; and `/v2/associated_contacts`, the same associations addressed by
 * their own id (an Outpost extension). On a desktop replica, a change made
 * through the nested paths is queued as the id-addressed call, whose deal and
 * contact ids are then resolved like any other record's references.
 */
export function associatedContactRoutes(app: FastifyInstance, engine: Engine): void {
  const base = '/v2/deals/:deal_id/associated_contacts';
  const dealOf = (request: Parameters<typeof idParam>[0]) => idParam(request, 'deal', 'deal_id');
  const service = engine.associatedContacts;

  app.get(base, async (request, reply) =>
    sendPage(request, reply, 'associated_contact', service.listPage(dealOf(request), queryOf(request))));

  app.post(base, { config: REPLICABLE }, async (request, reply) => {
    const dealId = dealOf(request);
    const data = dataOf(request, 'associated_contact');
    engine.ctx.mergedIds.resolveReferences(data);
    return answerInTransaction(engine.ctx.commits, request, reply, () => {
      const id = writeLocally(engine.ctx, () => service.create(dealId, data, actorOf(request)), (created) => ({
        method: 'POST', type: 'associated_contact', collection: FLAT, id: created, data: { ...data, deal_id: dealId },
      }));
      return resourceJson('associated_contact', service.json(dealId, service.contactOf(id)));
    });
  });

  app.delete(`${base}/:contact_id`, { config: REPLICABLE }, async (request, reply) => {
    const id = service.idOf(dealOf(request), idParam(request, 'associated_contact', 'contact_id'));
    return answerInTransaction(engine.ctx.commits, request, reply, () => {
      writeLocally(engine.ctx, () => service.remove(id, actorOf(request)), () => ({ method: 'DELETE', type: 'associated_contact', collection: FLAT, id }));
      return null;
    }, 204);
  });

  registerCrud(app, FLAT, 'associated_contact', service.flat, engine.ctx);
}
