import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import type { ListLocation } from '../../customObjects/records.js';
import { objectRouteKit, supportActor, supportBody } from '../supportReply.js';

const BASE = '/api/v2/custom_objects/:custom_object_key/records';

/**
 * `/api/v2/custom_objects/{custom_object_key}/records`: agents and admins
 * read and write records (the real service lets agents edit them by default).
 */
export function customObjectRecordRoutes(api: FastifyInstance, engine: Engine): void {
  const records = engine.customObjectRecords;
  const { params, objectOf, base, send } = objectRouteKit(engine);
  /** Where page links point: this path, with the request's parameters. */
  const location = (request: FastifyRequest): ListLocation => ({
    base: base(request), path: request.url.split('?')[0], query: { ...(request.query as Record<string, unknown>) },
  });

  api.get(BASE, async (request, reply) => send(reply, 200, records.list(objectOf(request), location(request))));
  api.get(`${BASE}/search`, async (request, reply) => send(reply, 200, records.search(objectOf(request), location(request))));
  api.get(`${BASE}/count`, async (request, reply) => send(reply, 200, records.count(objectOf(request))));

  api.post(BASE, async (request, reply) => {
    const object = objectOf(request);
    const id = records.create(object, supportBody(request, 'custom_object_record'), supportActor(request));
    const answer = records.json(object, id, base(request));
    reply.header('Location', answer.custom_object_record.url as string);
    return send(reply, 201, answer);
  });

  api.get(`${BASE}/:id`, async (request, reply) => send(reply, 200, records.json(objectOf(request), params(request).id!, base(request))));

  api.patch(`${BASE}/:id`, async (request, reply) => {
    const object = objectOf(request);
    records.update(object, params(request).id!, supportBody(request, 'custom_object_record'), supportActor(request));
    return send(reply, 200, records.json(object, params(request).id!, base(request)));
  });

  api.delete(`${BASE}/:id`, async (request, reply) => {
    records.delete(objectOf(request), params(request).id!, supportActor(request));
    return reply.code(204).send();
  });
}
