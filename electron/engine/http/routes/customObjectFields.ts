import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { requireAdmin } from '../../auth/permissions.js';
import { objectRouteKit, supportActor, supportBody } from '../supportReply.js';

const BASE = '/api/v2/custom_objects/:custom_object_key/fields';

/**
 * `/api/v2/custom_objects/{custom_object_key}/fields`: the object's field
 * definitions. Every user reads them; only admins create, change, reorder
 * and delete them (as the real service).
 */
export function customObjectFieldRoutes(api: FastifyInstance, engine: Engine): void {
  const fields = engine.customObjectFields;
  const { params, objectOf, base, send } = objectRouteKit(engine);
  /** The caller, who must be an admin: checked before the object, so agents can't probe keys with writes. */
  const admin = (request: FastifyRequest) => {
    const actor = supportActor(request);
    requireAdmin(actor);
    return actor;
  };

  api.get(BASE, async (request, reply) => send(reply, 200, fields.listJson(objectOf(request), base(request))));

  api.post(BASE, async (request, reply) => {
    const actor = admin(request);
    const object = objectOf(request);
    const id = fields.create(object, supportBody(request, 'custom_object_field'), actor);
    const answer = fields.json(object, String(id), base(request));
    reply.header('Location', answer.custom_object_field.url as string);
    return send(reply, 201, answer);
  });

  api.put(`${BASE}/reorder`, async (request, reply) => {
    admin(request);
    fields.reorder(objectOf(request), request.body);
    return send(reply, 200, fields.listJson(objectOf(request), base(request)));
  });

  // Outpost's reading of the real service's field limit endpoint: custom fields used and allowed.
  api.get('/api/v2/custom_objects/:custom_object_key/limits/field_limit', async (request, reply) => send(reply, 200, fields.limitJson(objectOf(request))));

  api.get(`${BASE}/:field`, async (request, reply) => send(reply, 200, fields.json(objectOf(request), params(request).field!, base(request))));

  api.patch(`${BASE}/:field`, async (request, reply) => {
    const actor = admin(request);
    const object = objectOf(request);
    const id = fields.update(object, params(request).field!, supportBody(request, 'custom_object_field'), actor);
    return send(reply, 200, fields.json(object, String(id), base(request)));
  });

  api.delete(`${BASE}/:field`, async (request, reply) => {
    const actor = admin(request);
    fields.delete(objectOf(request), params(request).field!, actor);
    return reply.code(204).send();
  });
}
