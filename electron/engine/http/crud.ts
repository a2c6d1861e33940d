import type { FastifyInstance } from 'fastify';
import type { Actor } from '../context.js';
import type { ListPage } from '../resources/listing.js';
import type { RawQuery } from '../resources/params.js';
import { actorOf } from './auth.js';
import { dataOf, idParam, queryOf, sendPage, sendResource } from './reply.js';

/** What a resource module offers for the regular REST shape of the spec. */
export interface CrudService {
  json(id: number, actor: Actor): string;
  listPage(query: RawQuery, actor: Actor): ListPage;
  create?(data: Record<string, unknown>, actor: Actor): number;
  update?(id: number, data: Record<string, unknown>, actor: Actor): void;
  delete?(id: number, actor: Actor): void;
}

/**
 * Registers list / create / retrieve / update / delete for a resource:
 * `GET /v2/<plural>`, `POST`, `GET /:id`, `PUT /:id`, `DELETE /:id`.
 * Creates answer 200 (as the real service does) and deletes 204.
 */
export function registerCrud(app: FastifyInstance, base: string, type: string, service: CrudService): void {
  app.get(base, async (request, reply) => sendPage(request, reply, type, service.listPage(queryOf(request), actorOf(request))));
  app.get(`${base}/:id`, async (request, reply) => sendResource(reply, type, service.json(idParam(request, type), actorOf(request))));
  if (service.create) {
    const create = service.create.bind(service);
    app.post(base, async (request, reply) => {
      const actor = actorOf(request);
      const id = create(dataOf(request, type), actor);
      return sendResource(reply, type, service.json(id, actor));
    });
  }
  if (service.update) {
    const update = service.update.bind(service);
    app.put(`${base}/:id`, async (request, reply) => {
      const actor = actorOf(request);
      const id = idParam(request, type);
      update(id, dataOf(request, type), actor);
      return sendResource(reply, type, service.json(id, actor));
    });
  }
  if (service.delete) {
    const remove = service.delete.bind(service);
    app.delete(`${base}/:id`, async (request, reply) => {
      remove(idParam(request, type), actorOf(request));
      return reply.code(204).send();
    });
  }
}
