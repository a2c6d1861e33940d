import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HubUnreachableError, type Replica } from '../../replica/replica.js';
import { JSON_TYPE, queryOf, rejectQuery, sendResource } from '../reply.js';
import { collectionJson } from '../envelope.js';
import { problem } from '../problem.js';
import { requestUrl } from '../reply.js';

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
  const streams = new Set<import('node:http').ServerResponse>();

  app.get('/v2/replica/status', async (request, reply) => {
    rejectQuery(queryOf(request));
    return sendResource(reply, 'replica_status', status());
  });

  // The status as server-sent events: one `status` event now and one whenever it changes, so open
  // screens refresh when a pull (or anything else) changes what they show, without asking every few seconds.
  app.get('/v2/replica/events', async (request, reply) => {
    rejectQuery(queryOf(request));
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store', Connection: 'keep-alive', 'X-Accel-Buffering': 'no' });
    const send = (json: string) => out.write(`event: status\ndata: ${json}\n\n`);
    send(status());
    const unwatch = replica.watch((changed) => send(JSON.stringify(changed)));
    // A comment now and then keeps proxies from closing an idle stream.
    const heartbeat = setInterval(() => out.write(': still here\n\n'), 25_000);
    streams.add(out);
    request.raw.on('close', () => {
      unwatch();
      clearInterval(heartbeat);
      streams.delete(out);
    });
  });
  // Open streams end when the server closes (they would otherwise hold it open).
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
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

  app.get('/v2/replica/issues', async (request, reply) => {
    rejectQuery(queryOf(request));
    const items = replica.issues().map((issue) => JSON.stringify(issue));
    return reply.type(JSON_TYPE).send(collectionJson('sync_issue', items, { self: requestUrl(request).toString() }));
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
