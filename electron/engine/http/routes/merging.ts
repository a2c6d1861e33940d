import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { REPLICABLE, writeLocally } from '../crud.js';
import { resourceJson } from '../envelope.js';
import { dataOf, idParam, queryOf, sendPage } from '../reply.js';
import { answerInTransaction } from '../writeRouteHooks.js';
import type { MergeableType } from '../../../../shared/resources/merge.js';

/** The collections whose records can be merged and checked for duplicates. */
const MERGEABLE: [string, MergeableType][] = [['/v2/contacts', 'contact'], ['/v2/leads', 'lead']];

/**
 * Duplicates and merging (Outpost extensions): `GET
 * /v2/{contacts|leads}/duplicates` and `POST /v2/{contacts|leads}/:id/merge`.
 * On a replica a merge is made here at once and queued as the same call,
 * its path holding `:id` until it is sent (replica/replica.ts resolves it).
 */
export function mergingRoutes(app: FastifyInstance, engine: Engine): void {
  for (const [base, type] of MERGEABLE) {
    app.get(`${base}/duplicates`, async (request, reply) => sendPage(request, reply, 'duplicate_group', engine.duplicates.page(type, queryOf(request))));
    app.post(`${base}/:id/merge`, { config: REPLICABLE }, async (request, reply) => {
      const actor = actorOf(request);
      const id = idParam(request, type);
      const data = dataOf(request, type);
      return answerInTransaction(engine.ctx.commits, request, reply, () => {
        writeLocally(engine.ctx, () => engine.merges.merge(type, id, data, actor), () => ({ method: 'POST', type, collection: `${base}/:id/merge`, id, data }));
        return resourceJson(type, engine[type === 'contact' ? 'contacts' : 'leads'].json(id));
      });
    });
  }
}
