import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { FastifyInstance } from 'fastify';
import { openEngine, type Engine } from './engine.js';
import { createHttpApp, type HttpOptions } from './http/app.js';
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

/**
 * First start on an empty database: OUTPOST_ADMIN_EMAIL / OUTPOST_ADMIN_PASSWORD
 * create the first admin; without them a generated password is printed once.
 */
export async function bootstrapAdmin(engine: Engine, env: NodeJS.ProcessEnv, print: (line: string) => void): Promise<void> {
  if (engine.users.count() > 0) return;
  const email = env.OUTPOST_ADMIN_EMAIL || 'admin@outpost.local';
  const generated = !env.OUTPOST_ADMIN_PASSWORD;
  const password = env.OUTPOST_ADMIN_PASSWORD || randomBytes(12).toString('base64url');
  await engine.users.create({ email, name: 'Administrator', role: 'admin', password });
  if (generated) print(`Created the first admin ${email} with password ${password} (shown only this once).`);
  else print(`Created the first admin ${email}.`);
}
