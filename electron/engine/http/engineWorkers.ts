import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { LoggerOption } from './logging.js';
import { errorEnvelope } from './envelope.js';
import { JSON_TYPE } from './reply.js';

/**
 * Several engines per PostgreSQL hub node. The engine's data
 * access is synchronous: on PostgreSQL each statement waits for its round
 * trip, so one engine answers one request at a time, and a statement waiting
 * on a lock would hold up every request of its node. So a node runs engine
 * workers, each a thread with its own engine, database connection and HTTP
 * app, and its main thread hands each request to an idle one (or queues it
 * until one is free): requests run side by side, and a request that waits
 * holds up only itself. A worker whose requests are all pausing between two
 * tries of a write on a locked row (db/commitGroups.ts) counts as idle: its
 * thread is free meanwhile, and it takes other requests beside them. The
 * main thread keeps what must be one per node or streams: the scheduler,
 * event streams, documents and large uploads, the web UI and OAuth pages
 * (`takes` says which).
 *
 * Requests reach a worker whole (method, URL, headers, body up to the API's
 * body limit) and come back whole, through Fastify's inject on the worker's
 * side, so every route, hook and rule is the one app's.
 */

/** What a worker needs to open its engine and app; plain data (it is copied to the thread). */
export interface WorkerSettings {
  databaseUrl: string;
  /** The node's data folder (on PostgreSQL the engine keeps nothing in it; its workers open their engines on it too). */
  dataDir: string;
  http: { rateLimitPerHour?: number; supportBaseUrl?: string; trustProxy?: string; logger?: LoggerOption };
}

export interface WorkerRequest {
  id: number;
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: Uint8Array | null;
  remoteAddress: string;
}

export interface WorkerAnswer {
  id: number;
  statusCode: number;
  headers: Record<string, string | string[]>;
  body: Uint8Array | null;
  /** Set when the worker could not answer at all (never expected: inject answers errors as responses). */
  failure?: string;
}

/** The header a worker names the answering route pattern in, for the node's metrics; never sent out. */
export const ROUTE_HEADER = 'x-outpost-route';

/** Bodies larger than the JSON API's limit (uploads) are the main thread's, which streams them. */
const LARGEST_HANDED_BODY = 1024 * 1024;
/** The API's requests, but not streams (event streams), documents (uploads and downloads) or imports. */
const HANDED_PATHS = /^\/(?:api\/)?v2\//;
const KEPT_PATHS = /^\/v2\/(?:sync\/events|replica\/|documents|imports|contacts\/import_vcard)/;
/** How long a worker that failed to start waits before the next try. */
const RESPAWN_AFTER_MS = 2_000;
/** Headers of the worker's answer that describe its own (injected) connection, not the client's. */
const CONNECTION_HEADERS = ['connection', 'keep-alive', 'transfer-encoding', ROUTE_HEADER];

interface Job {
  request: WorkerRequest;
  response: ServerResponse;
  started: number;
}

/** A request answered by a worker, for the node's request metrics. */
export type AnsweredRequest = (method: string, route: string, statusCode: number, seconds: number) => void;

class EngineWorker {
  readonly thread: Worker;
  /** The requests it is answering, by id. */
  readonly jobs = new Map<number, Job>();
  /** How many of its writes are pausing between tries on a locked row (it says so). */
  pausing = 0;
  isReady = false;
  /** Resolves once its engine is open and its app ready; rejects if it ends before. */
  readonly started: Promise<void>;

  constructor(settings: WorkerSettings, onAnswer: (worker: EngineWorker, answer: WorkerAnswer) => void, onExit: (worker: EngineWorker) => void, onPausing: (worker: EngineWorker) => void) {
    const here = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
    // Built (dist/cli/, scripts/build-cli.mjs), the worker's program is a module beside this one. Run from the
    // TypeScript sources (the tests), it is TypeScript, which a worker thread cannot load by itself:
    // engineWorkerBoot.mjs registers a loader (tsx, a dev dependency), then imports engineWorker.ts.
    const fromSources = here.endsWith('.ts');
    const program = new URL(fromSources ? './engineWorkerBoot.mjs' : './engineWorker.mjs', pathToFileURL(here));
    this.thread = new Worker(program, {
      workerData: { entry: fromSources ? pathToFileURL(here.replace(/engineWorkers\.ts$/, 'engineWorker.ts')).href : undefined, settings },
    });
    this.thread.on('message', (message: WorkerAnswer | { ready: true } | { closed: true } | { pausing: number }) => {
      if ('id' in message) onAnswer(this, message);
      else if ('pausing' in message) {
        this.pausing = message.pausing;
        onPausing(this);
      }
    });
    this.thread.on('error', () => undefined);
    this.started = new Promise((resolve, reject) => {
      this.thread.on('message', (message: { ready?: true }) => {
        if (!message.ready) return;
        this.isReady = true;
        resolve();
      });
      this.thread.once('exit', () => reject(new Error('The engine worker ended before it was ready.')));
    });
    this.thread.on('exit', () => onExit(this));
  }

  /** Ready for a request: nothing of its own runs now (none, or all pausing). */
  get isFree(): boolean {
    return this.isReady && this.jobs.size <= this.pausing;
  }
}

export class EngineWorkers {
  private readonly idle: EngineWorker[] = [];
  private readonly all = new Set<EngineWorker>();
  private readonly queue: Job[] = [];
  private lastId = 0;
  private closing = false;
  /** Set while the node closes: answers tell clients to close their connection (http/draining.ts). */
  draining = false;
  /** Told of every answered request (the node's metrics). */
  onAnswered: AnsweredRequest = () => undefined;

  private constructor(private readonly settings: WorkerSettings) {}

  /**
   * Starts `count` workers, one after another in the background: until one
   * has opened its engine, the node's own app answers everything, so a node
   * listens as soon as it would without them.
   */
  static start(count: number, settings: WorkerSettings): EngineWorkers {
    const workers = new EngineWorkers(settings);
    workers.started = (async () => {
      let ready = 0;
      for (let i = 0; i < count && !workers.closing; i++) ready += await workers.spawn().started.then(() => 1, () => 0);
      return ready;
    })();
    return workers;
  }

  /** Resolves, once each worker has started or failed to, with how many are ready. */
  started: Promise<number> = Promise.resolve(0);

  /** Whether a worker answers this request (else the main thread's app does). */
  takes(request: IncomingMessage): boolean {
    const url = request.url ?? '';
    if (this.closing || !this.anyReady() || !HANDED_PATHS.test(url) || KEPT_PATHS.test(url)) return false;
    if (request.headers['transfer-encoding'] !== undefined) return false;
    const length = request.headers['content-length'];
    return length === undefined || Number(length) <= LARGEST_HANDED_BODY;
  }

  /** Reads the request's body, then gives it to the next idle worker. */
  handle(request: IncomingMessage, response: ServerResponse): void {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('error', () => response.destroy());
    request.on('end', () => {
      const body = chunks.length === 0 ? null : new Uint8Array(Buffer.concat(chunks));
      const job: Job = {
        request: { id: ++this.lastId, method: request.method ?? 'GET', url: request.url ?? '/', headers: request.headers, body, remoteAddress: request.socket.remoteAddress ?? '' },
        response,
        started: performance.now(),
      };
      const worker = this.idle.pop();
      if (worker?.isFree) this.send(worker, job);
      else this.queue.push(job);
    });
  }

  /** Answers the requests already taken, then ends every worker (each closes its engine). */
  async close(): Promise<void> {
    this.closing = true;
    while (this.queue.length > 0 || [...this.all].some((w) => w.jobs.size > 0)) await new Promise((resolve) => setTimeout(resolve, 10));
    // Those still starting are only stopped.
    for (const worker of this.all) if (!worker.isReady) void worker.thread.terminate();
    await Promise.all([...this.all].map((worker) => new Promise<void>((resolve) => {
      worker.thread.once('exit', () => resolve());
      worker.thread.postMessage('close');
      // A worker that does not end within a few seconds is stopped.
      setTimeout(() => void worker.thread.terminate(), 5_000).unref();
    })));
  }

  private spawn(): EngineWorker {
    const worker = new EngineWorker(this.settings, (w, answer) => this.answered(w, answer), (w) => this.exited(w), (w) => this.pausingChanged(w));
    this.all.add(worker);
    void worker.started.then(() => this.free(worker), () => undefined);
    return worker;
  }

  private send(worker: EngineWorker, job: Job): void {
    worker.jobs.set(job.request.id, job);
    this.notIdle(worker);
    worker.thread.postMessage(job.request, job.request.body ? [job.request.body.buffer as ArrayBuffer] : []);
  }

  private answered(worker: EngineWorker, answer: WorkerAnswer): void {
    const job = worker.jobs.get(answer.id);
    worker.jobs.delete(answer.id);
    this.free(worker);
    if (!job) return;
    if (answer.failure !== undefined) return unavailable(job);
    const headers = { ...answer.headers };
    const route = String(headers[ROUTE_HEADER] ?? '');
    for (const name of CONNECTION_HEADERS) delete headers[name];
    if (this.draining || this.closing) headers.connection = 'close';
    job.response.writeHead(answer.statusCode, headers);
    job.response.end(answer.body ?? undefined);
    this.onAnswered(job.request.method, route, answer.statusCode, (performance.now() - job.started) / 1000);
  }

  /** An idle worker takes the oldest waiting request. */
  private free(worker: EngineWorker): void {
    if (!this.all.has(worker) || !worker.isFree) return;
    const next = this.queue.shift();
    if (next) this.send(worker, next);
    else if (!this.idle.includes(worker)) this.idle.push(worker);
  }

  /** A worker's write began or ended a pause: it is free while all its requests pause, busy again when one goes on. */
  private pausingChanged(worker: EngineWorker): void {
    if (worker.isFree) this.free(worker);
    else this.notIdle(worker);
  }

  private notIdle(worker: EngineWorker): void {
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
  }

  private anyReady(): boolean {
    for (const worker of this.all) if (worker.isReady) return true;
    return false;
  }

  /**
   * A worker that ended by itself (it failed) is replaced, a moment later if
   * it never got ready (the database may be down: no tight loop); its
   * request is answered 503.
   */
  private exited(worker: EngineWorker): void {
    this.all.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at >= 0) this.idle.splice(at, 1);
    for (const job of worker.jobs.values()) unavailable(job);
    worker.jobs.clear();
    if (this.closing) return;
    if (worker.isReady) this.spawn();
    else setTimeout(() => this.closing || this.spawn(), RESPAWN_AFTER_MS).unref();
  }
}

/** The API's 503 for a request whose worker ended before answering it (the client may send it again). */
function unavailable(job: Job): void {
  const message = 'The server could not answer this request; please try again.';
  const body = errorEnvelope(503, [{ resource: 'request', field: '', code: 'temporarily_unavailable', message, details: message }], String(job.request.id), '');
  job.response.writeHead(503, { 'content-type': JSON_TYPE, 'retry-after': '1' });
  job.response.end(JSON.stringify(body));
}
