import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { dataOf, idParam, queryOf, sendPage, sendResource } from '../reply.js';

/**
 * A deal's associated contacts, nested under the deal as the real service has
 * them. Not replicable yet: a desktop replica refuses these writes.
 */
export function associatedContactRoutes(app: FastifyInstance, engine: Engine): void {
  const base = '/v2/deals/:deal_id/associated_contacts';
  const dealOf = (request: Parameters<typeof idParam>[0]) => idParam(request, 'deal', 'deal_id');

  app.get(base, async (request, reply) =>
    sendPage(request, reply, 'associated_contact', engine.associatedContacts.listPage(dealOf(request), queryOf(request))));

  app.post(base, async (request, reply) => {
    const dealId = dealOf(request);
    const contactId = engine.associatedContacts.create(dealId, dataOf(request, 'associated_contact'), actorOf(request));
    return sendResource(reply, 'associated_contact', engine.associatedContacts.json(dealId, contactId));
  });

  app.delete(`${base}/:contact_id`, async (request, reply) => {
    const contactId = idParam(request, 'associated_contact', 'contact_id');
    engine.associatedContacts.delete(dealOf(request), contactId, actorOf(request));
    return reply.code(204).send();
  });
}
