import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { requireAdmin } from '../../auth/permissions.js';
import { dataOf, idParam, requestUrl, sendResource, JSON_TYPE } from '../reply.js';
import { collectionJson } from '../envelope.js';
import type { CustomFieldResourceType } from '../../../../shared/resources/customField.js';

/** The record table each custom-field resource type stores its values in. */
const TABLES: Partial<Record<CustomFieldResourceType, string>> = { contact: 'contacts', lead: 'leads', deal: 'deals' };

/** The admin making a change (403 for anyone else): the change log names them. */
function adminId(request: FastifyRequest): number {
  const actor = actorOf(request);
  requireAdmin(actor);
  return actor.userId;
}

/**
 * `GET /v2/<type>/custom_fields` as the real service has it; creating,
 * changing and deleting definitions is an Outpost extension for admins.
 */
export function customFieldRoutes(app: FastifyInstance, engine: Engine): void {
  for (const [type, table] of Object.entries(TABLES) as [CustomFieldResourceType, string][]) {
    const base = `/v2/${type}/custom_fields`;
    app.get(base, async (request, reply) => {
      const rows = engine.customFields.listJson(type);
      return reply.type(JSON_TYPE).send(collectionJson('custom_field', rows, { self: requestUrl(request).toString() }));
    });
    app.get(`${base}/:id`, async (request, reply) => sendResource(reply, 'custom_field', engine.customFields.json(type, idParam(request, 'custom_field'))));
    app.post(base, async (request, reply) => {
      const id = engine.customFields.create(type, dataOf(request, 'custom_field'), adminId(request));
      return sendResource(reply, 'custom_field', engine.customFields.json(type, id));
    });
    app.put(`${base}/:id`, async (request, reply) => {
      const actor = adminId(request);
      const id = idParam(request, 'custom_field');
      engine.customFields.update(type, id, dataOf(request, 'custom_field'), table, actor);
      return sendResource(reply, 'custom_field', engine.customFields.json(type, id));
    });
    app.delete(`${base}/:id`, async (request, reply) => {
      engine.customFields.delete(type, idParam(request, 'custom_field'), table, adminId(request));
      return reply.code(204).send();
    });
  }
}
