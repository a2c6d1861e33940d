import { createHash } from 'node:crypto';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Engine } from '../engine.js';
import type { CommitGroups } from '../db/commitGroups.js';
import type { PostgresDatabase } from '../db/postgresDatabase.js';

/**
 * Rate limits across the nodes of a PostgreSQL hub (issue 24): on a hub of
 * several processes, each one counting in memory (@fastify/rate-limit's own
 * store) would let a caller make the limit once per node. Here every node
 * counts in one table (`rate_limit_hits`, db/postgres/clusterTables.ts): one
 * upsert per request, per key and fixed window, windows aligned on the
 * database's clock so that all nodes agree where one begins.
 *
 * Keys are the caller's Authorization header (or address): stored only as a
 * SHA-256 hash with the limit's scope, never as the token itself.
 */

/** How often a node deletes windows that have ended. */
const SWEEP_EVERY_MS = 10 * 60 * 1000;

/** The `store` option for a rate limit named `scope` (each scope counts on its own): shared on PostgreSQL, none (the plugin's in-memory one) on SQLite. */
export function sharedRateLimitStore(engine: Engine, scope: string): { store?: FastifyRateLimitStoreCtor } {
  if (engine.db.dialect !== 'postgres') return {};
  const counter = new HitCounter(engine.db as PostgresDatabase, engine.ctx.commits);
  // The plugin constructs the store itself (`new store(options)`): a class bound to this counter and scope.
  const store = class extends PostgresRateLimitStore {
    constructor() {
      super(counter, scope);
    }
  };
  return { store };
}

interface Count {
  current: number;
  /** Milliseconds until the window ends. */
  ttl: number;
}

/** The current time in ms on the database's clock, as a CTE every statement below starts with. */
const NOW_MS = 'WITH now AS (SELECT CAST(floor(extract(epoch FROM clock_timestamp()) * 1000) AS bigint) AS ms)';

class HitCounter {
  private lastSweep = 0;

  constructor(private readonly db: PostgresDatabase, private readonly commits: CommitGroups) {}

  /** Counts one hit of `key` in the window of `windowMs` holding now. */
  async hit(key: string, windowMs: number): Promise<Count> {
    await this.outsideWriteGroup();
    this.sweepNowAndThen();
    const row = this.db.query(`${NOW_MS}
      INSERT INTO rate_limit_hits AS r (key, window_start, window_end, hits)
      SELECT $1, ms - ms % $2, ms - ms % $2 + $2, 1 FROM now
      ON CONFLICT (key, window_start) DO UPDATE SET hits = r.hits + 1
      RETURNING hits, window_end - (SELECT ms FROM now) AS ttl`, [key, windowMs]).rows[0] as { hits: number; ttl: number };
    return { current: row.hits, ttl: row.ttl };
  }

  /**
   * The engine's connection is shared with the REST writes, whose group
   * commit may be open until the event loop turns: a hit counted in it would
   * hold the row (and other nodes counting the same key) until that commit,
   * and be lost if the group rolled back. So wait for it to end.
   */
  private async outsideWriteGroup(): Promise<void> {
    while (this.db.inTransaction) {
      await (this.commits.pending()?.catch(() => undefined) ?? new Promise((resolve) => setImmediate(resolve)));
    }
  }

  private sweepNowAndThen(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    this.db.query(`${NOW_MS} DELETE FROM rate_limit_hits WHERE window_end <= (SELECT ms FROM now)`);
  }
}

/** @fastify/rate-limit's store interface (incr, child; not `read`, which only `createRateLimit` uses) over the shared counter. */
class PostgresRateLimitStore implements FastifyRateLimitStore {
  constructor(private readonly counter: HitCounter, private readonly scope: string) {}

  incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number): void {
    this.counter.hit(this.keyOf(key), timeWindow).then((count) => callback(null, count), (error: Error) => callback(error));
  }

  /** A route with a limit of its own counts on its own (as the plugin's in-memory store does). */
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    // The plugin passes the route's merged limit options, the route itself under `routeInfo` (not what its types say).
    const route = (routeOptions as unknown as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
    return new PostgresRateLimitStore(this.counter, `${this.scope} ${[route?.method ?? ''].flat().join(',')} ${route?.url ?? ''}`);
  }

  private keyOf(key: string): string {
    return createHash('sha256').update(`${this.scope}\u0000${key}`).digest('hex');
  }
}
