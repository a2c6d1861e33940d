import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Replica } from '../../replica/replica.js';
import { HubUnreachableError } from '../../replica/hubUnreachable.js';
import { dataOf, queryOf, rejectQuery, sendPage, sendResource } from '../reply.js';
import { FieldErrors, invalidParam, problem } from '../../problems.js';
import type { RawQuery } from '../../resources/params.js';
import type { EngineContext } from '../../context.js';
import { actorOf } from '../auth.js';
import { countAsked, pagingParams } from '../../resources/listing.js';
import { eventStreams } from '../eventStream.js';
import { passHubAnswer } from './supportForward.js';

/** Route config of a replica's own endpoints (local to the device, never replayed on the hub). */
export const LOCAL_TO_REPLICA = { localToReplica: true } as const;

/** Route config of a read of what the hub keeps and a replica does not copy (OAuth applications). */
export const HUB_ONLY_READ = { hubOnlyRead: true } as const;

/**
 * A replica's own endpoints (Outpost extensions, only on a replica): its sync
 * status (also as a stream of events), a sync now, and the Sync issues view's
 * list, retry and discard.
 */
export function replicaRoutes(app: FastifyInstance, replica: Replica, ctx: EngineContext): void {
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
    // A temporary id, or the old id of a record recreated on the hub after its deletion there.
    const hubId = /^-?\d{1,15}$/.test(raw) ? replica.hubIdOf(type, Number(raw)) : null;
    if (hubId === null) throw problem('not_found', `No hub id is known for the ${type} ${raw}.`, '/temp_id', 'replica_id');
    return sendResource(reply, 'replica_id', JSON.stringify({ resource_type: type, temp_id: Number(raw), hub_id: hubId }));
  });

  // Paged like every list (`page`, `per_page`), oldest first.
  app.get('/v2/replica/issues', async (request, reply) => {
    const query = queryOf(request);
    rejectQuery(query, ['page', 'per_page', 'count']);
    const actor = actorOf(request);
    // A change to a record the hub deleted shows the record as this device holds it: what recreating it brings back.
    const recordOf = (collection: string, id: number) => {
      try {
        return JSON.parse(ctx.replica!.records.get(collection)!.json(id, actor)) as Record<string, unknown>;
      } catch {
        return null;
      }
    };
    return sendList(request, reply, 'sync_issue', query, replica.issues(recordOf));
  });

  // Open conflicts, oldest first; `resource_type` and `record_id` narrow them to one record (its page shows them).
  app.get('/v2/replica/conflicts', async (request, reply) => {
    const query = queryOf(request);
    rejectQuery(query, ['page', 'per_page', 'count', 'resource_type', 'record_id']);
    return sendList(request, reply, 'sync_conflict', query, replica.conflictList(recordFilter(query)));
  });

  // The rep's choice: {"keep": "theirs"}, {"keep": "yours"}, or {"value": …} (a third value). Answers the status.
  app.post('/v2/replica/conflicts/:id/resolve', options, async (request, reply) => {
    const id = issueId(request);
    const conflict = replica.conflictList().find((c) => c.id === id);
    if (!conflict) throw problem('not_found', 'There is no such conflict: it may have been settled already.', '/id', 'sync_conflict');
    const choice = conflictChoice(dataOf(request, 'sync_conflict'));
    replica.resolve(id, 'keep' in choice && choice.keep === 'yours' ? { value: conflict.yours.value } : choice as { keep: 'theirs' } | { value: unknown }, actorOf(request));
    return sendResource(reply, 'replica_status', status());
  });

  // A change to a record deleted on the hub, made again as its creation (its sync issue says deleted_on_hub).
  app.post('/v2/replica/issues/:id/recreate', options, async (request, reply) => {
    const issue = replica.issues().find((i) => i.id === issueId(request) && i.deleted_on_hub);
    if (!issue) throw problem('not_found', 'There is no such sync issue about a record deleted on the hub.', '/id', 'sync_issue');
    const records = replica.recordsOf(issue.resource_type);
    let record: Record<string, unknown>;
    try {
      if (!records) throw new Error(`no service reads ${issue.resource_type} records here`);
      record = JSON.parse(records[1].json(issue.record_id, actorOf(request))) as Record<string, unknown>;
    } catch {
      throw problem('not_found', 'This device no longer holds the record, so it cannot be recreated: discard the change instead.', '/id', 'sync_issue');
    }
    replica.recreate(issue.id, record);
    return sendResource(reply, 'replica_status', status());
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

/** A list of a replica's own (issues, conflicts) paged like every list, from the whole of it. */
function sendList(request: FastifyRequest, reply: FastifyReply, type: string, query: RawQuery, all: unknown[]): FastifyReply {
  const paging = pagingParams(query);
  const from = (paging.page - 1) * paging.perPage;
  const slice = all.slice(from, from + paging.perPage + 1);
  const rows = slice.slice(0, paging.perPage).map((item) => JSON.stringify(item));
  const total = countAsked(query) ? all.length : undefined;
  return sendPage(request, reply, type, { rows, ...paging, hasMore: slice.length > paging.perPage, total });
}

/** `resource_type` with `record_id` (a positive or temporary id), both or neither. */
function recordFilter(query: RawQuery): { type: string; id: number } | undefined {
  const { resource_type: type, record_id: id } = query as Record<string, unknown>;
  if (type === undefined && id === undefined) return undefined;
  if (typeof type !== 'string' || !/^[a-z_]{1,40}$/.test(type)) throw invalidParam('resource_type', 'resource_type must name a resource type (contact, lead, deal…), given with record_id.');
  if (typeof id !== 'string' || !/^-?[1-9]\d{0,14}$/.test(id)) throw invalidParam('record_id', 'record_id must be a record id, given with resource_type.');
  return { type, id: Number(id) };
}

/** A conflict's resolution: `keep` (`yours` or `theirs`) or a `value` of the rep's, one of them. */
function conflictChoice(data: Record<string, unknown>): { keep: 'yours' | 'theirs' } | { value: unknown } {
  const errors = new FieldErrors('sync_conflict');
  for (const name of Object.keys(data)) if (name !== 'keep' && name !== 'value') errors.add(`/${name}`, 'unknown', `${name} is not an attribute of a conflict's resolution: give keep or value.`);
  const hasKeep = Object.hasOwn(data, 'keep');
  if (hasKeep === Object.hasOwn(data, 'value')) errors.add('/keep', 'missing', 'Give either keep ("yours" or "theirs") or value (a value of your own).');
  else if (hasKeep && data.keep !== 'yours' && data.keep !== 'theirs') errors.add('/keep', 'incorrect_value', 'keep must be "yours" or "theirs".');
  errors.throwIfAny();
  return hasKeep ? { keep: data.keep as 'yours' | 'theirs' } : { value: data.value };
}

function issueId(request: FastifyRequest): number {
  const raw = (request.params as { id: string }).id;
  return /^\d{1,15}$/.test(raw) ? Number(raw) : 0;
}

/**
 * On a desktop replica, a write waits while the first sync's end holds the
 * database's write lock (replica/writeGate.ts), instead of failing once the
 * busy timeout is out; reads are answered meanwhile. Registered before
 * authentication, which may write (a token's first use).
 */
export function holdWritesWhileLocked(app: FastifyInstance, replica: Replica): void {
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') await replica.writes.open();
  });
}

/** A write the outbox cannot replay on the hub (managing custom fields, converting a lead, uploading files, OAuth applications). */
function hubOnlyWrite(request: FastifyRequest): boolean {
  if (request.method === 'GET' || request.method === 'HEAD') return false;
  const config = request.routeOptions.config as { replicable?: boolean; localToReplica?: boolean } | undefined;
  return !config?.replicable && !config?.localToReplica;
}

/**
 * On a desktop replica, a write only the hub makes is refused: it would exist
 * only on this device, and the hub's page is where it is made.
 */
export function refuseUnreplicableWrites(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (!hubOnlyWrite(request)) return;
    throw problem('conflict', 'This change can only be made on the hub, not on a device copy: open the hub in a browser to make it.');
  });
}

/**
 * On the hub's own page keeping the rep's data (the browser's engine), a
 * write only the hub makes is sent to the hub as it came, with this device's
 * hub credentials and the caller's idempotency key, and the hub's answer is
 * the caller's; what the hub made then comes here with a sync at once, so
 * the screen that follows finds it. A read of what a replica does not copy
 * goes to the hub the same way. Offline both are refused, saying when they
 * can be made. A write naming a record made here that the hub has not had
 * yet is refused too: the hub knows it by another id.
 */
export function sendHubOnlyRequestsToHub(app: FastifyInstance, replica: Replica): void {
  app.addHook('preHandler', async (request, reply) => {
    const read = (request.routeOptions.config as { hubOnlyRead?: boolean } | undefined)?.hubOnlyRead === true;
    if (!read && !hubOnlyWrite(request)) return;
    if (namesRecordMadeHere(request)) {
      throw problem('conflict', 'This change is made on the hub, and it names a record made on this device that has not reached the hub yet: try again once it has synced.');
    }
    const key = request.headers['idempotency-key'];
    const answer = await replica.forward({
      method: request.method, path: request.url, body: forwardedBody(request.body),
      contentType: request.headers['content-type'], idempotencyKey: typeof key === 'string' ? key : undefined,
    });
    if (!answer) throw problem('temporarily_unavailable', 'This change is made on the hub, which cannot be reached now: try again when online.');
    if (answer.ok && !read) await replica.sync();
    return passHubAnswer(reply, answer);
  });
}

/** A request's parsed body as it is sent on: a file's bytes as they are, anything else as JSON. */
function forwardedBody(body: unknown): string | Uint8Array | undefined {
  if (body === undefined || body === null) return undefined;
  return body instanceof Uint8Array ? body : JSON.stringify(body);
}

/**
 * Whether a request names a record by a temporary (negative) id: a segment of its path, or an `…_id(s)` parameter
 * of its query or field of its body (a negative number elsewhere is the hub's to judge).
 */
function namesRecordMadeHere(request: FastifyRequest): boolean {
  const temporary = (value: unknown) => (typeof value === 'number' && value < 0) || (typeof value === 'string' && /^-\d+$/.test(value));
  const namesOne = (name: string, value: unknown) => /_ids?$/.test(name) && (Array.isArray(value) ? value.some(temporary) : temporary(value));
  const [path, query = ''] = request.url.split('?', 2);
  if (path!.split('/').some(temporary)) return true;
  if ([...new URLSearchParams(query)].some(([name, value]) => namesOne(name, value))) return true;
  const inBody = (value: unknown): boolean => {
    if (Array.isArray(value)) return value.some(inBody);
    if (value === null || typeof value !== 'object' || value instanceof Uint8Array) return false;
    return Object.entries(value).some(([name, item]) => namesOne(name, item) || inBody(item));
  };
  return inBody(request.body);
}
