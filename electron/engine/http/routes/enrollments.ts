import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { registerCrud } from '../crud.js';
import { actorOf } from '../auth.js';
import { idParam, sendResource } from '../reply.js';

/**
 * Sequence enrollments (`/v2/sequence_enrollments`): list, start, read and
 * change the state (no delete, as in the spec), and the inbound-reply
 * extension that ends an enrollment with `replied_to_email`.
 */
export function enrollmentRoutes(app: FastifyInstance, engine: Engine): void {
  const enrollments = engine.enrollments;
  registerCrud(app, '/v2/sequence_enrollments', 'sequence_enrollment', {
    json: (id) => enrollments.json(id),
    listPage: (query) => enrollments.listPage(query),
    create: (data, actor) => enrollments.create(data, actor),
    update: (id, data, actor) => enrollments.update(id, data, actor),
  }, engine.ctx);
  // Extension: a mail gateway (or a person) records that the prospect replied.
  app.post('/v2/sequence_enrollments/:id/replies', async (request, reply) => {
    const id = idParam(request, 'sequence_enrollment');
    enrollments.recordReply(id, actorOf(request));
    return sendResource(reply, 'sequence_enrollment', enrollments.json(id));
  });
}
