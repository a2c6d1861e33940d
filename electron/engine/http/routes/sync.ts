import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../../engine.js';
import { actorOf } from '../auth.js';
import { dataOf, JSON_TYPE, queryOf, rejectQuery, requestUrl } from '../reply.js';
import { FieldErrors, notFound, problem } from '../../problems.js';
import { parseAckKey, type AckKey } from '../../sync/acks.js';
import { onWriteRoutes } from '../writeRouteHooks.js';
import { eventStreams } from '../eventStream.js';
import { changeSignal } from '../../sync/changeSignal.js';
import { DEVICE_HEADERS, UUID, writingDevice } from '../deviceHeader.js';

/**
 * How often the hub's change stream sends a heartbeat. A replica that hears
 * nothing for a few of these takes the hub as lost (a silent network sends
 * no reset), so it can say "offline" within two seconds.
 */
export const CHANGE_STREAM_HEARTBEAT_MS = 500;


/**
 * The sync protocol (spec: Synchronization): start a session, read its main
 * queue page by page, acknowledge what was applied. Registered inside the
 * authenticated scope; every route needs the `sync` scope (auth/scopes.ts).
 */
export function syncRoutes(app: FastifyInstance, engine: Engine): void {
  const openStream = eventStreams(app);
  const signal = changeSignal(engine.ctx.changes);

  // An Outpost extension: `ready` at once, then `change` whenever the hub's change log moves (the data is
  // the newest revision). A device holding it open pulls within a moment of an edit; it still polls, since
  // a stream can drop or be buffered away by a proxy.
  app.get('/v2/sync/events', async (request, reply) => {
    rejectQuery(queryOf(request));
    const stream = openStream(request, reply, CHANGE_STREAM_HEARTBEAT_MS);
    stream.send('ready', JSON.stringify({ revision: engine.ctx.changes.currentRevision() }));
    stream.onClose(signal.listen((revision) => stream.send('change', JSON.stringify({ revision }))));
  });

  app.post('/v2/sync/start', async (request, reply) => {
    rejectQuery(queryOf(request));
    const session = engine.sync.start(actorOf(request), deviceUuid(request));
    if (!session) return reply.code(204).send();
    const queue = {
      data: { name: 'main', pages: session.pages, total_count: session.totalCount },
      meta: { type: 'sync_queue', links: { self: `${requestUrl(request).origin}/v2/sync/${session.id}/queues/main` } },
    };
    return reply.code(201).type(JSON_TYPE).send({ data: { id: session.id, queues: [queue] }, meta: { type: 'sync_session' } });
  });

  app.get('/v2/sync/:session_id/queues/:queue', async (request, reply) => {
    rejectQuery(queryOf(request));
    const { session_id: sessionId, queue } = request.params as { session_id: string; queue: string };
    const uuid = deviceUuid(request);
    if (queue !== 'main') throw notFound('sync_queue', queue);
    const page = engine.sync.page(actorOf(request), uuid, sessionId, requestUrl(request).origin);
    if (!page) return reply.code(204).send();
    const meta = {
      type: 'collection', count: page.items.length, count_left: page.countLeft, failed_objects: page.failedObjects,
      links: { self: requestUrl(request).toString() },
    };
    return reply.type(JSON_TYPE).send(`{"items":[${page.items.join(',')}],"meta":${JSON.stringify(meta)}}`);
  });

  app.post('/v2/sync/ack', async (request, reply) => {
    rejectQuery(queryOf(request));
    const uuid = deviceUuid(request);
    engine.sync.acknowledge(actorOf(request), uuid, ackKeys(dataOf(request, 'sync_ack')));
    return reply.code(202).send();
  });
}

/**
 * Records a device writes through the REST interface are records it holds
 * (see SyncSessions.noteHeld). The device header is optional on those
 * requests; one that is not a UUID is no device, and ignored.
 */
export function noteWritesByDevices(app: FastifyInstance, engine: Engine): void {
  onWriteRoutes(app, { keep: (request, answer) => {
    if (answer.status !== 200 || answer.body === null || !request.actor) return;
    const device = writingDevice(request);
    if (!device || request.url.startsWith('/v2/sync')) return;
    const written = JSON.parse(answer.body) as { data?: { id?: unknown }; meta?: { type?: unknown } };
    if (typeof written.data?.id === 'number' && typeof written.meta?.type === 'string') {
      engine.sync.noteHeld(request.actor, device, written.meta.type, written.data.id);
    }
  } }, new Set(['POST', 'PUT']));
}

/** The device UUID from either header name; a missing or malformed one is a 400. */
function deviceUuid(request: FastifyRequest): string {
  const given = DEVICE_HEADERS.map((name) => request.headers[name]).filter((v) => v !== undefined);
  const values = [...new Set(given.flat().map((v) => v.trim().toLowerCase()))];
  const header = 'X-Service-Device-UUID';
  if (values.length === 0) throw problem('invalid_header', `The ${header} header is required: a UUID that identifies this device and stays the same across sessions.`, header);
  if (values.length > 1) throw problem('invalid_header', `The device UUID headers disagree (${values.join(', ')}): send one ${header}.`, header);
  if (!UUID.test(values[0])) throw problem('invalid_header', `The ${header} header must be a UUID (8-4-4-4-12 hexadecimal digits), given: ${values[0].slice(0, 64)}.`, header);
  return values[0];
}

/** `data.ack_keys`: a required array of keys this hub issued; any bad one refuses the whole request. */
function ackKeys(data: Record<string, unknown>): AckKey[] {
  const errors = new FieldErrors('sync_ack');
  for (const name of Object.keys(data)) if (name !== 'ack_keys') errors.add(`/${name}`, 'unknown', `${name} is not an attribute of an acknowledgement.`);
  const raw = data.ack_keys;
  if (raw === undefined || raw === null) errors.add('/ack_keys', 'missing', 'ack_keys is required: an array of the ack_key strings of the items applied.');
  else if (!Array.isArray(raw)) errors.add('/ack_keys', 'invalid_type', 'ack_keys must be an array of strings.');
  const keys: AckKey[] = [];
  if (Array.isArray(raw)) {
    raw.forEach((value, i) => {
      if (typeof value !== 'string') return errors.add(`/ack_keys/${i}`, 'invalid_type', 'Each ack key must be a string.');
      const key = parseAckKey(value);
      if (!key) return errors.add(`/ack_keys/${i}`, 'incorrect_value', `${value.slice(0, 80)} is not an ack key this hub issued.`);
      keys.push(key);
    });
  }
  errors.throwIfAny();
  return keys;
}
