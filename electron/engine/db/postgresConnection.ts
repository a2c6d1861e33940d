import { LibpqConnection, libpqAvailable } from './libpqConnection.js';
import { DatabaseUnavailableError, PostgresBridge, PostgresError, type BridgeOptions, type PostgresConnection } from './postgresBridge.js';

/**
 * The engine's synchronous connection to PostgreSQL (PostgresConnection,
 * postgresBridge.ts), by either driver: libpq's own blocking calls
 * (libpqConnection.ts, where npm install built native/pqsync), or
 * node-postgres on a thread of its own behind
 * Atomics.wait (postgresBridge.ts). Both answer alike: rows as SQLite gives
 * them, PostgresError with its SQLSTATE, DatabaseUnavailableError for a lost
 * connection or a busy database, a transaction kept on its connection.
 */
export type PostgresDriver = 'libpq' | 'bridge';

/**
 * The driver a new connection uses: OUTPOST_PG_DRIVER if set (docs/hub.md), else libpq where native/pqsync
 * was built, else the bridge.
 */
export function postgresDriver(env: NodeJS.ProcessEnv = process.env): PostgresDriver {
  const chosen = env.OUTPOST_PG_DRIVER || undefined;
  if (chosen !== undefined && chosen !== 'libpq' && chosen !== 'bridge') throw new Error(`OUTPOST_PG_DRIVER must be libpq or bridge, not '${chosen}'.`);
  if (chosen === 'bridge') return 'bridge';
  if (chosen === 'libpq' && !libpqAvailable()) throw new Error('OUTPOST_PG_DRIVER=libpq, but native/pqsync is not built (npm install builds it where libpq-dev is installed).');
  return libpqAvailable() ? 'libpq' : 'bridge';
}

export function openPostgresConnection(url: string, options: BridgeOptions = {}, driver: PostgresDriver = postgresDriver()): PostgresConnection {
  return driver === 'libpq' ? new LibpqConnection(url, options) : new PostgresBridge(url, options);
}

/**
 * Waits until PostgreSQL answers at `url`, trying again every second for up to `waitMs`: a node started while its
 * database is still starting (or failing over) comes up with it instead of exiting. A refusal that waiting will not
 * cure (a wrong password, no such database) is thrown at once; after the wait, the last failure.
 */
export async function untilPostgresAnswers(url: string, waitMs: number, onWait: (why: string) => void): Promise<void> {
  const deadline = Date.now() + waitMs;
  for (let told = false; ; told = true) {
    const connection = openPostgresConnection(url, { connectTimeoutMs: 2_000 });
    try {
      connection.query('SELECT 1');
      return;
    } catch (err) {
      // 28…: authentication or authorisation refused; 3D000: no such database. Waiting will not change them.
      const refused = err instanceof PostgresError && /^(28|3D)/.test(err.code ?? '');
      if (!(err instanceof DatabaseUnavailableError) || refused || Date.now() + 1_000 > deadline) throw err;
      if (!told) onWait(err.message.split('\n')[0]!.trim());
    } finally {
      await connection.close();
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
