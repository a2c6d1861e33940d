import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { CustomObjects } from '../../customObjects/objects.js';
import { requireAdmin } from '../../auth/permissions.js';
import { sendSupportJson, supportActor, supportBody, supportUrl } from '../supportReply.js';

const BASE = '/api/v2/custom_objects';

/** `/api/v2/custom_objects`: every user reads, admins create, change and delete (spec: Custom objects). */
export function customObjectRoutes(api: FastifyInstance, engine: Engine): void {
  const objects = new CustomObjects(engine.ctx, engine.accounts);
  const urlPrefix = (request: FastifyRequest) => supportUrl(request, engine, `${BASE}/`);
  const keyOf = (request: FastifyRequest) => (request.params as { custom_object_key: string }).custom_object_key;

  api.get(BASE, async (request, reply) => sendSupportJson(reply, 200, objects.listJson(urlPrefix(request))));

  api.post(BASE, async (request, reply) => {
    const actor = supportActor(request);
    requireAdmin(actor);
    const key = objects.create(supportBody(request, 'custom_object'), actor);
    reply.header('Location', `${urlPrefix(request)}${key}.json`);
    return sendSupportJson(reply, 201, objects.json(key, urlPrefix(request)));
  });

  api.get(`${BASE}/:custom_object_key`, async (request, reply) => sendSupportJson(reply, 200, objects.json(keyOf(request), urlPrefix(request))));

  api.patch(`${BASE}/:custom_object_key`, async (request, reply) => {
    const actor = supportActor(request);
    requireAdmin(actor);
    objects.update(keyOf(request), supportBody(request, 'custom_object'), actor);
    return sendSupportJson(reply, 200, objects.json(keyOf(request), urlPrefix(request)));
  });

  api.delete(`${BASE}/:custom_object_key`, async (request, reply) => {
    requireAdmin(supportActor(request));
    objects.delete(keyOf(request));
    return reply.code(204).send();
  });
}
