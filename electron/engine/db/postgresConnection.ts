import { LibpqConnection, libpqAvailable } from './libpqConnection.js';
import { PostgresBridge, type BridgeOptions, type BridgeResult } from './postgresBridge.js';

/**
 * The engine's synchronous connection to PostgreSQL, by either driver:
 * libpq's own blocking calls (libpqConnection.ts, where the optional `libpq`
 * package built), or node-postgres on a thread of its own behind
 * Atomics.wait (postgresBridge.ts). Both answer alike: rows as SQLite gives
 * them, PostgresError with its SQLSTATE, DatabaseUnavailableError for a lost
 * connection or a busy database, a transaction kept on its connection.
 */
export interface PostgresConnection {
  /** Which connection answered last (1, 2, …: a new number after each reconnect); 0 before the first. */
  readonly connection: number;
  /** One statement (`$1`-style parameters); `onConnection`: part of a transaction begun there, failing rather than run on another. */
  query<Row = Record<string, unknown>>(text: string, values?: unknown[], onConnection?: number): BridgeResult<Row>;
  /** As `query`, with each row as an array of its values. */
  queryArrays(text: string, values?: unknown[], onConnection?: number): BridgeResult<unknown[]>;
  close(): Promise<void>;
}

export type PostgresDriver = 'libpq' | 'bridge';

/** The driver a new connection uses: OUTPOST_PG_DRIVER if set (docs/hub.md), else libpq where it built, else the bridge. */
export function postgresDriver(env: NodeJS.ProcessEnv = process.env): PostgresDriver {
  const chosen = env.OUTPOST_PG_DRIVER;
  if (chosen === 'bridge') return 'bridge';
  if (chosen === 'libpq') {
    if (!libpqAvailable()) throw new Error('OUTPOST_PG_DRIVER=libpq, but the libpq package is not installed or did not build (it needs libpq-dev).');
    return 'libpq';
  }
  if (chosen !== undefined && chosen !== '') throw new Error(`OUTPOST_PG_DRIVER must be libpq or bridge, not '${chosen}'.`);
  return libpqAvailable() ? 'libpq' : 'bridge';
}

export function openPostgresConnection(url: string, options: BridgeOptions = {}, driver: PostgresDriver = postgresDriver()): PostgresConnection {
  return driver === 'libpq' ? new LibpqConnection(url, options) : new PostgresBridge(url, options);
}
