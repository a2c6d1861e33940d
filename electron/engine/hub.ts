import type { FastifyInstance } from 'fastify';
import { openEngine, type Engine } from './engine.js';
import { createHttpApp, type HttpOptions } from './http/app.js';
import { bootstrapAdmin } from './auth/firstAdmin.js';
import { mkdirSync } from 'node:fs';
import { lockDataDir } from './dataDirLock.js';
import { Replica } from './replica/replica.js';
import { keptCredentials, UpstreamCredentials } from './replica/upstream.js';

export interface HubOptions extends HttpOptions {
  dataDir: string;
  /** The hub's database on PostgreSQL (several hub nodes may share it), instead of the SQLite file in dataDir. */
  databaseUrl?: string;
  host: string;
  port: number;
  /** Where first-start messages go (the generated admin password). */
  print?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
  /** Run as a replica of this hub (the desktop app's engine, headless): its URL and, optionally, an access token of it. */
  upstream?: { url: string; token?: string };
}

export interface Hub {
  engine: Engine;
  app: FastifyInstance;
  url: string;
  /** Set when running as a replica of another hub. */
  replica?: Replica;
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
  try {
    engine = openEngine({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, replica: Boolean(options.upstream) });
    const replica = options.upstream ? replicaOf(engine, options.upstream, (line) => console.warn(line)) : undefined;
    if (!replica) await bootstrapAdmin(engine, options.env ?? process.env, options.print ?? console.log);
    const app = await createHttpApp(engine, { ...options, replica });
    const address = await app.listen({ host: options.host, port: options.port });
    replica?.start();
    const openedEngine = engine;
    return {
      engine,
      app,
      url: address,
      replica,
      close: async () => {
        await replica?.stop();
        await app.close();
        openedEngine.close();
        lock.release();
      },
    };
  } catch (err) {
    engine?.close();
    lock.release();
    throw err;
  }
}

/** A replica of the upstream hub: people sign in with their hub account, checked by the hub. */
function replicaOf(engine: Engine, upstream: { url: string; token?: string }, log: (line: string) => void): Replica {
  // A token given on the command line is used as it is; otherwise the one kept since the last sign-in, if any.
  const credentials = upstream.token ? new UpstreamCredentials(upstream.url, upstream.token) : keptCredentials(engine.db, upstream.url);
  const replica = new Replica(engine, { hubUrl: upstream.url, credentials, log });
  engine.signIn.delegate = (email, password) => replica.signIn(email, password);
  return replica;
}
