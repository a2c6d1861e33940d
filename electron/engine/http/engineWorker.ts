import { parentPort, workerData } from 'node:worker_threads';
import type { InjectOptions } from 'fastify';
import { openEngine } from '../engine.js';
import { createHttpApp } from './app.js';
import { routeLabel } from './routeLabel.js';
import { ROUTE_HEADER, type WorkerAnswer, type WorkerRequest, type WorkerSettings } from './engineWorkers.js';

/**
 * One engine worker of a PostgreSQL hub node (http/engineWorkers.ts): its
 * own engine on its own database connection, and the node's HTTP app, which
 * answers the requests the node's main thread hands it, one at a time,
 * through Fastify's inject (the same routes, hooks and rules as a request on
 * a socket). The main thread runs the scheduler, the first admin and the
 * event streams; a worker only answers.
 */
const { settings } = workerData as { settings: WorkerSettings };
// The node's own folder: on PostgreSQL documents live in the database, and the engine writes nothing there
// (a folder of the worker's own, made in the system's temporary folder, was left behind whenever a node ended without closing).
const engine = openEngine({ dataDir: settings.dataDir, databaseUrl: settings.databaseUrl, runSequences: false, databasePrepared: true });
const app = await createHttpApp(engine, settings.http);
// The route pattern that answered, for the node's metrics (main strips it before the answer goes out).
app.addHook('onSend', async (request, reply, payload) => {
  reply.header(ROUTE_HEADER, routeLabel(request));
  return payload;
});
await app.ready();
// A write pausing between two tries on a locked row leaves this thread free: the node may hand it other requests.
engine.ctx.commits.onPausing = (count) => parentPort!.postMessage({ pausing: count });

parentPort!.on('message', (message: WorkerRequest | 'close') => {
  if (message === 'close') {
    void close();
    return;
  }
  void answer(message).then((reply) => parentPort!.postMessage(reply, reply.body ? [reply.body.buffer as ArrayBuffer] : []));
});
parentPort!.postMessage({ ready: true });

async function answer(request: WorkerRequest): Promise<WorkerAnswer> {
  try {
    const response = await app.inject({
      method: request.method as InjectOptions['method'],
      url: request.url,
      headers: request.headers,
      payload: request.body ? Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength) : undefined,
      remoteAddress: request.remoteAddress,
    });
    // A copy of its own, so that it can be moved to the main thread rather than copied again.
    const body = new Uint8Array(response.rawPayload.byteLength);
    body.set(response.rawPayload);
    return { id: request.id, statusCode: response.statusCode, headers: response.headers as Record<string, string | string[]>, body };
  } catch (err) {
    return { id: request.id, statusCode: 0, headers: {}, body: null, failure: String((err as Error)?.message ?? err) };
  }
}

async function close(): Promise<void> {
  await app.close();
  engine.close();
  parentPort!.postMessage({ closed: true });
  parentPort!.close();
}
