import { isMainThread } from 'node:worker_threads';
import { LibpqConnection, libpqAvailable } from './libpqConnection.js';
import { PostgresBridge, type BridgeOptions, type PostgresConnection } from './postgresBridge.js';

/**
 * The engine's synchronous connection to PostgreSQL (PostgresConnection,
 * postgresBridge.ts), by either driver: libpq's own blocking calls
 * (libpqConnection.ts, where the optional `libpq` package built, on a
 * process's main thread), or node-postgres on a thread of its own behind
 * Atomics.wait (postgresBridge.ts). Both answer alike: rows as SQLite gives
 * them, PostgresError with its SQLSTATE, DatabaseUnavailableError for a lost
 * connection or a busy database, a transaction kept on its connection.
 */
export type PostgresDriver = 'libpq' | 'bridge';

/**
 * The driver a new connection in this thread uses: OUTPOST_PG_DRIVER if set (docs/hub.md), else libpq where it
 * built, else the bridge. Worker threads always use the bridge (libpqConnection.ts says why).
 */
export function postgresDriver(env: NodeJS.ProcessEnv = process.env): PostgresDriver {
  const chosen = env.OUTPOST_PG_DRIVER || undefined;
  if (chosen !== undefined && chosen !== 'libpq' && chosen !== 'bridge') throw new Error(`OUTPOST_PG_DRIVER must be libpq or bridge, not '${chosen}'.`);
  if (chosen === 'bridge' || !isMainThread) return 'bridge';
  if (chosen === 'libpq' && !libpqAvailable()) throw new Error('OUTPOST_PG_DRIVER=libpq, but the libpq package is not installed or did not build (it needs libpq-dev).');
  return libpqAvailable() ? 'libpq' : 'bridge';
}

export function openPostgresConnection(url: string, options: BridgeOptions = {}, driver: PostgresDriver = postgresDriver()): PostgresConnection {
  return driver === 'libpq' ? new LibpqConnection(url, options) : new PostgresBridge(url, options);
}
