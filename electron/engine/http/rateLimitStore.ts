import { sha256Hex } from '../platform/crypto.js';
import type { FastifyRateLimitStore, FastifyRateLimitStoreCtor } from '@fastify/rate-limit';
import type { Engine } from '../engine.js';
import type { CommitGroups } from '../db/commitGroups.js';
import type { PostgresDatabase } from '../db/postgres/database.js';

/**
 * Rate limits across the nodes of a PostgreSQL hub: on a hub of
 * several processes, each one counting in memory (@fastify/rate-limit's own
 * store) would let a caller make the limit once per node. Here every node
 * counts in one table (`rate_limit_hits`, db/postgres/clusterTables.ts), per
 * key and fixed window, windows aligned on the database's clock so that all
 * nodes agree where one begins; far below the limit, in memory first (HitCounter).
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

/** How often a node adds the hits it counted in memory to the shared table. */
const FLUSH_EVERY_MS = 250;

/** One key's count in its current window, as this node knows it. */
interface Tally {
  windowStart: number;
  windowEnd: number;
  /** The shared table's count when this node last read it (this node's hits until then included). */
  shared: number;
  /** Hits counted here since, not yet added to the table. */
  pending: number;
}

interface SharedCount {
  key: string;
  hits: number;
  window_start: number;
  window_end: number;
  /** The database's clock when it counted. */
  now: number;
}

/**
 * Counts hits without a round trip per request: while a key is
 * below half its limit, a hit is counted in memory and the node adds its
 * hits to the shared table every FLUSH_EVERY_MS, in one statement; from half
 * the limit on (and a key's first hit in a window), every hit is counted in
 * the table at once, so the limit itself is exact across nodes. What other
 * nodes counted in the last flush interval is seen late only while far from
 * the limit, and so is `X-RateLimit-Remaining` (a little high) then.
 */
class HitCounter {
  private readonly tallies = new Map<string, Tally>();
  /** The database's clock minus this node's, so that windows begin where every node's do. */
  private clockOffsetMs = 0;
  private lastSweep = 0;
  /** Set while hits wait in memory, so an idle node (or a closed engine) has no timer running. */
  private flushTimer: NodeJS.Timeout | null = null;

  constructor(private readonly db: PostgresDatabase, private readonly commits: CommitGroups) {}

  /** Counts one hit of `key` in the window of `windowMs` holding now, for a limit of `max`. */
  async hit(key: string, windowMs: number, max: number): Promise<Count> {
    const now = Date.now() + this.clockOffsetMs;
    const tally = this.tallies.get(key);
    const current = tally && now < tally.windowEnd ? tally : undefined;
    if (current && (current.shared + current.pending + 1) * 2 < max) {
      current.pending += 1;
      this.flushSoon();
      return { current: current.shared + current.pending, ttl: current.windowEnd - now };
    }
    const own = 1 + (current?.pending ?? 0);
    if (current) current.pending = 0;
    await this.outsideWriteGroup();
    this.sweepNowAndThen();
    const [row] = this.add([key], [windowMs], [own]);
    return this.learn(row!);
  }

  private flushSoon(): void {
    if (this.flushTimer) return;
    this.flushTimer = setTimeout(() => {
      this.flushTimer = null;
      // A closed engine's last hits are lost with it: they were only counts.
      void this.flush().catch(() => undefined);
    }, FLUSH_EVERY_MS);
    this.flushTimer.unref();
  }

  /** Adds each key's hits to its window in the shared table (one statement); returns the counts after. */
  private add(keys: string[], windows: number[], hits: number[]): SharedCount[] {
    return this.db.query(`${NOW_MS}
      INSERT INTO rate_limit_hits AS r (key, window_start, window_end, hits)
      SELECT k.key, ms - ms % k.window_ms, ms - ms % k.window_ms + k.window_ms, k.hits
      FROM now, unnest($1::text[], $2::bigint[], $3::integer[]) AS k(key, window_ms, hits)
      ON CONFLICT (key, window_start) DO UPDATE SET hits = r.hits + EXCLUDED.hits
      RETURNING key, hits, window_start, window_end, (SELECT ms FROM now) AS now`, [keys, windows, hits]).rows as unknown as SharedCount[];
  }

  /** Keeps what the table answered for a key (with hits counted here meanwhile) and returns its count. */
  private learn(row: SharedCount): Count {
    this.clockOffsetMs = row.now - Date.now();
    const before = this.tallies.get(row.key);
    const pending = before && before.windowStart === row.window_start ? before.pending : 0;
    this.tallies.set(row.key, { windowStart: row.window_start, windowEnd: row.window_end, shared: row.hits, pending });
    return { current: row.hits + pending, ttl: row.window_end - row.now };
  }

  /** Adds the hits counted in memory to the table; forgets the windows that have ended. */
  private async flush(): Promise<void> {
    const now = Date.now() + this.clockOffsetMs;
    const due: [string, Tally][] = [];
    for (const [key, tally] of this.tallies) {
      if (tally.pending > 0) due.push([key, tally]);
      else if (tally.windowEnd <= now) this.tallies.delete(key);
    }
    if (due.length === 0) return;
    const hits = due.map(([, tally]) => tally.pending);
    for (const [, tally] of due) tally.pending = 0;
    await this.outsideWriteGroup();
    // Counted in the window each tally belongs to: its length is its end less its start.
    const rows = this.add(due.map(([key]) => key), due.map(([, t]) => t.windowEnd - t.windowStart), hits);
    for (const row of rows) this.learn(row);
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

  incr(key: string, callback: (error: Error | null, result?: Count) => void, timeWindow: number, max: number): void {
    this.counter.hit(this.keyOf(key), timeWindow, max).then((count) => callback(null, count), (error: Error) => callback(error));
  }

  /** A route with a limit of its own counts on its own (as the plugin's in-memory store does). */
  child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): FastifyRateLimitStore {
    // The plugin passes the route's merged limit options, the route itself under `routeInfo` (not what its types say).
    const route = (routeOptions as unknown as { routeInfo?: { method?: string | string[]; url?: string } }).routeInfo;
    return new PostgresRateLimitStore(this.counter, `${this.scope} ${[route?.method ?? ''].flat().join(',')} ${route?.url ?? ''}`);
  }

  private keyOf(key: string): string {
    return sha256Hex(`${this.scope}\u0000${key}`);
  }
}
