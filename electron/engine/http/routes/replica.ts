import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HubUnreachableError, type Replica } from '../../replica/replica.js';
import { queryOf, rejectQuery, sendPage, sendResource } from '../reply.js';
import { problem } from '../problem.js';
import { countAsked, pagingParams } from '../../resources/listing.js';
import { eventStreams } from '../eventStream.js';

/** Route config of a replica's own endpoints (local to the device, never replayed on the hub). */
export const LOCAL_TO_REPLICA = { localToReplica: true } as const;

/**
 * A replica's own endpoints (Outpost extensions, only on a replica): its sync
 * status (also as a stream of events), a sync now, and the Sync issues view's
 * list, retry and discard.
 */
export function replicaRoutes(app: FastifyInstance, replica: Replica): void {
  const options = { config: LOCAL_TO_REPLICA };
  const status = () => JSON.stringify(replica.status());
  const openStream = eventStreams(app);

  app.get('/v2/replica/status', async (request, reply) => {
    rejectQuery(queryOf(request));
    return sendResource(reply, 'replica_status', status());
  });

  // The status as server-sent events: one `status` event now and one whenever it changes, so open
  // screens refresh when a pull (or anything else) changes what they show, without asking every few seconds.
  app.get('/v2/replica/events', async (request, reply) => {
    rejectQuery(queryOf(request));
    const stream = openStream(request, reply, 25_000);
    stream.send('status', status());
    stream.onClose(replica.watch((changed) => stream.send('status', JSON.stringify(changed))));
  });

  app.post('/v2/replica/sync', options, async (request, reply) => {
    rejectQuery(queryOf(request));
    await replica.sync();
    return sendResource(reply, 'replica_status', status());
  });

  // Where a record created here went: a screen that shows its temporary id follows it to its hub id.
  app.get('/v2/replica/ids/:type/:temp_id', async (request, reply) => {
    const { type, temp_id: raw } = request.params as { type: string; temp_id: string };
    const hubId = /^-\d{1,15}$/.test(raw) ? replica.hubIdOf(type, Number(raw)) : null;
    if (hubId === null) throw problem('not_found', `No hub id is known for the ${type} ${raw}.`, '/temp_id', 'replica_id');
    return sendResource(reply, 'replica_id', JSON.stringify({ resource_type: type, temp_id: Number(raw), hub_id: hubId }));
  });

  // Paged like every list (`page`, `per_page`), oldest first.
  app.get('/v2/replica/issues', async (request, reply) => {
    const query = queryOf(request);
    rejectQuery(query, ['page', 'per_page', 'count']);
    const paging = pagingParams(query);
    const from = (paging.page - 1) * paging.perPage;
    const all = replica.issues();
    const issues = all.slice(from, from + paging.perPage + 1);
    const rows = issues.slice(0, paging.perPage).map((issue) => JSON.stringify(issue));
    const total = countAsked(query) ? all.length : undefined;
    return sendPage(request, reply, 'sync_issue', { rows, ...paging, hasMore: issues.length > paging.perPage, total });
  });

  app.post('/v2/replica/issues/:id/retry', options, async (request, reply) => {
    if (!replica.retry(issueId(request))) throw problem('not_found', 'There is no such sync issue.', '/id', 'sync_issue');
    return sendResource(reply, 'replica_status', status());
  });

  app.delete('/v2/replica/issues/:id', options, async (request, reply) => {
    const discarded = await replica.discard(issueId(request)).catch((err: unknown) => {
      if (err instanceof HubUnreachableError) throw problem('temporarily_unavailable', err.message);
      throw err;
    });
    if (!discarded) throw problem('not_found', 'There is no such sync issue.', '/id', 'sync_issue');
    return reply.code(204).send();
  });
}

function issueId(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
}

/**
 * On a replica, a write the outbox cannot replay on the hub (managing custom
 * fields, uploading files, OAuth applications) is refused: it would exist
 * only on this device.
 */
export function refuseUnreplicableWrites(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD') return;
    const config = request.routeOptions.config as { replicable?: boolean; localToReplica?: boolean } | undefined;
    if (config?.replicable || config?.localToReplica) return;
    throw problem('conflict', 'This change can only be made on the hub, not on a device copy: open the hub in a browser to make it.');
  });
}
