import type { FastifyInstance } from 'fastify';
import type { Actor, EngineContext } from '../context.js';
import type { LocalChange } from '../changes/outbox.js';
import { applyDelete, applyUpdate, writeLocally } from '../sync/localWrites.js';
import type { FieldConflict } from '../sync/mergedUpdate.js';
import { editOriginOf } from './writeMeta.js';
import type { CrudService } from '../resources/crudService.js';
import { actorOf } from './auth.js';
import { resourceJson } from './envelope.js';

export { writeLocally };
import { dataOf, idParam, queryOf, sendPage, sendResource } from './reply.js';
import { answerInTransaction } from './writeRouteHooks.js';

/**
 * An update's answer: the record, in `meta.conflicts` the fields the hub kept,
 * and in `meta.merged_into` the survivor's id when the edit named a record
 * merged into it (Outpost extensions; absent when none).
 */
function answerWithConflicts(type: string, dataJson: string, conflicts: FieldConflict[], mergedInto: number | null = null): string {
  if (conflicts.length === 0 && mergedInto === null) return resourceJson(type, dataJson);
  const meta = { type, ...(conflicts.length > 0 ? { conflicts } : {}), ...(mergedInto !== null ? { merged_into: mergedInto } : {}) };
  return `{"data":${dataJson},"meta":${JSON.stringify(meta)}}`;
}

/** Route config of the writes a replica can replay on its hub (the rest are refused on a replica). */
export const REPLICABLE = { replicable: true } as const;

/**
 * Registers list / create / retrieve / update / delete for a resource:
 * `GET /v2/<plural>`, `POST`, `GET /:id`, `PUT /:id`, `DELETE /:id`.
 * Creates answer 200 (as the real service does) and deletes 204. A write,
 * its answer's records (idempotency, device holds) and, on a replica, its
 * outbox entry are one transaction.
 * `config` is added to every route's config (e.g. COMMERCE, http/commerce.ts).
 */
export function registerCrud(app: FastifyInstance, base: string, type: string, service: CrudService, ctx: EngineContext, config: Record<string, unknown> = {}): void {
  const local = <T>(write: () => T, change: (result: T) => LocalChange) => writeLocally(ctx, write, change);
  const read = { config };
  const write = { config: { ...REPLICABLE, ...config } };
  // A replica shows and resends its records through the same services (a conflict's choice, a record deleted on the hub).
  ctx.replica?.records.set(base, { type, json: (id, actor) => service.json(id, actor), update: service.update?.bind(service) });
  app.get(base, read, async (request, reply) => sendPage(request, reply, type, service.listPage(queryOf(request), actorOf(request))));
  app.get(`${base}/:id`, read, async (request, reply) => sendResource(reply, type, service.json(idParam(request, type), actorOf(request))));
  if (service.create) {
    const create = service.create.bind(service);
    app.post(base, write, async (request, reply) => {
      const actor = actorOf(request);
      const data = dataOf(request, type);
      // A record named by a device that held it before it was merged: its survivor (changes/mergedIds.ts).
      ctx.mergedIds.resolveReferences(data);
      const { writtenAt } = editOriginOf(request, actor, ctx.clock, type);
      return answerInTransaction(ctx.commits, request, reply, () => {
        const made = () => local(() => create(data, actor), (newId) => ({ method: 'POST', type, collection: base, id: newId, data }));
        return resourceJson(type, service.json(ctx.writtenAt.during(writtenAt ?? null, made), actor));
      });
    });
  }
  if (service.update) {
    const update = service.update.bind(service);
    app.put(`${base}/:id`, write, async (request, reply) => {
      const actor = actorOf(request);
      const asked = idParam(request, type);
      // An edit of a merged contact or lead, made on a device that held it, goes to its survivor.
      const id = ctx.mergedIds.resolve(type, asked);
      const data = dataOf(request, type);
      ctx.mergedIds.resolveReferences(data);
      const origin = editOriginOf(request, actor, ctx.clock, type);
      const records = { json: (recordId: number, by: Actor) => service.json(recordId, by), update };
      return answerInTransaction(ctx.commits, request, reply, () => {
        // A replica applies the edit and queues what it changed; a hub merges it field by field.
        const conflicts = applyUpdate(ctx, records, { type, collection: base, id, data, actor }, origin);
        return answerWithConflicts(type, service.json(id, actor), conflicts, id === asked ? null : id);
      });
    });
  }
  if (service.delete) {
    const remove = service.delete.bind(service);
    app.delete(`${base}/:id`, write, async (request, reply) => {
      const id = idParam(request, type);
      return answerInTransaction(ctx.commits, request, reply, () => {
        applyDelete(ctx, remove, { type, collection: base, id, actor: actorOf(request) });
        return null;
      }, 204);
    });
  }
}
