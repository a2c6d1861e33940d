import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { FastifyInstance } from 'fastify';
import { openEngine, type Engine } from './engine.js';
import { createHttpApp, type HttpOptions } from './http/app.js';
import { bootstrapAdmin } from './auth/firstAdmin.js';
import { mkdirSync } from 'node:fs';

export interface HubOptions extends HttpOptions {
  dataDir: string;
  host: string;
  port: number;
  /** Where first-start messages go (the generated admin password). */
  print?: (line: string) => void;
  env?: NodeJS.ProcessEnv;
}

export interface Hub {
  engine: Engine;
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export class HubLockedError extends Error {
  constructor(dataDir: string) {
    super(`Another Outpost hub is already running on the data folder ${dataDir}; stop it first or choose another --data-dir.`);
  }
}

/**
 * The headless hub: takes the data folder's lock (one hub per folder; CLI
 * commands still work beside it), opens the engine, creates the first admin
 * on an empty database, and listens.
 */
export async function startHub(options: HubOptions): Promise<Hub> {
  mkdirSync(options.dataDir, { recursive: true });
  let release: () => Promise<void>;
  try {
    release = await lockfile.lock(options.dataDir, {
      lockfilePath: join(options.dataDir, 'hub.lock'),
      stale: 15_000,
      update: 5_000,
      retries: 0,
      onCompromised: (err) => {
        console.error(`outpost: lost the lock on ${options.dataDir} (${err.message}); stopping.`);
        process.exit(1);
      },
    });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') throw new HubLockedError(options.dataDir);
    throw err;
  }
  let engine: Engine | undefined;
  try {
    engine = openEngine({ dataDir: options.dataDir });
    await bootstrapAdmin(engine, options.env ?? process.env, options.print ?? console.log);
    const app = await createHttpApp(engine, options);
    const address = await app.listen({ host: options.host, port: options.port });
    const openedEngine = engine;
    return {
      engine,
      app,
      url: address,
      close: async () => {
        await app.close();
        openedEngine.close();
        await release();
      },
    };
  } catch (err) {
    engine?.close();
    await release();
    throw err;
  }
}
