import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { applyBulk, BULK_CHUNK, parseBulkRequest, targetIds, type BulkFailure, type BulkResource } from '../../resources/bulkEdits.js';
import { FIELDS as CONTACT_FIELDS } from '../../resources/contacts.js';
import { FIELDS as LEAD_FIELDS } from '../../resources/leads.js';
import { FIELDS as DEAL_FIELDS } from '../../resources/deals.js';
import { FIELDS as TASK_FIELDS } from '../../resources/tasks.js';
import { problemStatus } from '../problemReply.js';
import { ApiProblem } from '../../problems.js';
import { errorEnvelope } from '../envelope.js';
import { actorOf } from '../auth.js';
import { REPLICABLE } from '../crud.js';
import { dataOf, JSON_TYPE, requestOrigin } from '../reply.js';

/** The resources with bulk edits, each through the services its PUT and DELETE use. */
export function bulkResources(engine: Engine): BulkResource[] {
  return [
    { type: 'contact', collection: '/v2/contacts', fields: CONTACT_FIELDS, tagged: true, service: engine.contacts },
    { type: 'lead', collection: '/v2/leads', fields: LEAD_FIELDS, tagged: true, service: engine.leads },
    { type: 'deal', collection: '/v2/deals', fields: DEAL_FIELDS, extraFields: ['value'], tagged: true, service: engine.deals },
    { type: 'task', collection: '/v2/tasks', fields: TASK_FIELDS, tagged: false, service: engine.tasks },
  ];
}

/**
 * `POST /v2/{contacts|leads|deals|tasks}/bulk`: one change to many records.
 * Replicable: on a desktop replica it runs here and each record's change is
 * queued like a single edit's, so the hub only ever sees single edits from a
 * replica. Records are written BULK_CHUNK at a time, each chunk one group
 * commit; the answer lists what changed and what was refused, and why.
 */
export function bulkRoutes(app: FastifyInstance, engine: Engine): void {
  for (const resource of bulkResources(engine)) {
    app.post(`${resource.collection}/bulk`, { config: REPLICABLE }, async (request, reply) => {
      const actor = actorOf(request);
      const { target, change } = parseBulkRequest(resource, dataOf(request, resource.type));
      const ids = targetIds(resource, target, actor);
      const updated: number[] = [];
      const failed: BulkFailure[] = [];
      for (let at = 0; at < ids.length; at += BULK_CHUNK) {
        const chunk = ids.slice(at, at + BULK_CHUNK);
        const part = await engine.ctx.commits.run(() => applyBulk(engine.ctx, resource, change, chunk, actor));
        updated.push(...part.updated);
        failed.push(...part.failed);
      }
      const data = { updated, failed: failed.map((failure) => failureJson(request, failure)) };
      return reply.type(JSON_TYPE).send(JSON.stringify({ data, meta: { type: 'bulk_result' } }));
    });
  }
}

/** A refused record: its id and the errors a single request about it would have answered, in the envelope's shape. */
function failureJson(request: FastifyRequest, failure: BulkFailure) {
  const status = problemStatus(new ApiProblem(failure.errors));
  return { id: failure.id, errors: errorEnvelope(status, failure.errors, request.id, requestOrigin(request)).errors };
}
