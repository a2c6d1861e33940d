import { createServer } from 'node:http';
import type { FastifyInstance, FastifyServerFactory } from 'fastify';
import { EngineWorkers, type WorkerSettings } from './http/engineWorkers.js';
import { openEngine, type Engine } from './engine.js';
import { createHttpApp, type HttpOptions } from './http/app.js';
import { bootstrapAdmin } from './firstAdmin.js';
import { mkdirSync } from 'node:fs';
import { lockDataDir } from './dataDirLock.js';
import type { Replica } from './replica/replica.js';

export interface HubOptions extends HttpOptions {
  dataDir: string;
  /** The hub's database on PostgreSQL (several hub nodes may share it), instead of the SQLite file in dataDir. */
  databaseUrl?: string;
  host: string;
  port: number;
  /** Where first-start messages go (the generated admin password). */
  print?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** On PostgreSQL: how many engine workers answer the API's requests side by side (http/engineWorkers.ts); 0: the node's own engine answers all. */
  workers?: number;
  /** Run as a replica of this hub (the desktop app's engine, headless): its URL and, optionally, an access token of it. */
  upstream?: { url: string; token?: string };
}

export interface Hub {
  engine: Engine;
  app: FastifyInstance;
  url: string;
  /** Set when running as a replica of another hub. */
  replica?: Replica;
  /** A PostgreSQL node's engine workers, if it runs any. */
  workers?: EngineWorkers;
  close(): Promise<void>;
}

/** A second hub on a folder is refused (the name callers knew; the lock lives in dataDirLock.ts). */
export { DataDirLockedError as HubLockedError } from './dataDirLock.js';

/**
 * The headless hub: takes the data folder's lock (one hub per folder; CLI
 * commands still work beside it), opens the engine, creates the first admin
 * on an empty database, and listens.
 */
export async function startHub(options: HubOptions): Promise<Hub> {
  mkdirSync(options.dataDir, { recursive: true });
  const lock = lockDataDir(options.dataDir);
  let engine: Engine | undefined;
  let workers: EngineWorkers | undefined;
  try {
    engine = openEngine({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, replica: Boolean(options.upstream) });
    const replica = options.upstream ? await replicaOf(engine, options.upstream, (line) => console.warn(line)) : undefined;
    if (!replica) await bootstrapAdmin(engine, options.env ?? process.env, options.print ?? console.log);
    workers = options.databaseUrl && options.workers ? EngineWorkers.start(options.workers, workerSettings(options, options.databaseUrl)) : undefined;
    const app = await createHttpApp(engine, { ...options, replica, serverFactory: workers && handingTo(workers) });
    if (workers) answeredBy(workers, app);
    const address = await app.listen({ host: options.host, port: options.port });
    replica?.start();
    const openedEngine = engine;
    const openedWorkers = workers;
    return {
      engine,
      app,
      url: address,
      replica,
      workers,
      close: async () => {
        await replica?.stop();
        await app.close();
        await openedWorkers?.close();
        openedEngine.close();
        lock.release();
      },
    };
  } catch (err) {
    await workers?.close();
    engine?.close();
    lock.release();
    throw err;
  }
}

/** What each engine worker opens: the same database, the same API options (plain data: they are copied to its thread). */
function workerSettings(options: HubOptions, databaseUrl: string): WorkerSettings {
  return { databaseUrl, dataDir: options.dataDir, http: { rateLimitPerHour: options.rateLimitPerHour, supportBaseUrl: options.supportBaseUrl, trustProxy: options.trustProxy, logger: options.logger } };
}

/** The node's HTTP server: the engine workers answer what they take, the node's own app the rest. */
function handingTo(workers: EngineWorkers): FastifyServerFactory {
  return (handler) => createServer((request, response) => (workers.takes(request) ? workers.handle(request, response) : handler(request, response)));
}

/** The workers' answers count in the node's metrics, and say `Connection: close` once the node is closing, as the app's own do. */
function answeredBy(workers: EngineWorkers, app: FastifyInstance): void {
  workers.onAnswered = app.countAnswer;
  app.addHook('preClose', async () => {
    workers.draining = true;
  });
}

/**
 * A replica of the upstream hub: people sign in with their hub account, checked by the hub. Its modules (and
 * their HTTP client, undici) are loaded only here: a hub that is no replica starts without them.
 */
async function replicaOf(engine: Engine, upstream: { url: string; token?: string }, log: (line: string) => void): Promise<Replica> {
  const { Replica } = await import('./replica/replica.js');
  const { keptCredentials, UpstreamCredentials } = await import('./replica/upstream.js');
  // A token given on the command line is used as it is; otherwise the one kept since the last sign-in, if any.
  const credentials = upstream.token ? new UpstreamCredentials(upstream.url, upstream.token) : keptCredentials(engine.db, upstream.url);
  const replica = new Replica(engine, { hubUrl: upstream.url, credentials, log });
  engine.signIn.delegate = (email, password) => replica.signIn(email, password);
  return replica;
}
