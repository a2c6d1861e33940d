// The PostgreSQL hub's go/no-go line for `npm run bench` (docs/design/postgres-hub.md, phase 1), in its own
// process: `node --import tsx bench/postgresLatency.ts`. A throwaway cluster and a SQLite file get the same
// 10 000-row table; one statement at a time, a point read by id through the synchronous bridge the engine
// would use, beside node-postgres awaited directly (the same round trip without the bridge) and beside
// better-sqlite3 (what the engine does today), and through libpq's own blocking calls (the engine's driver where
// the optional libpq package built). Prints one JSON line of microseconds per statement (medians).
import Database from 'better-sqlite3';
import pg from 'pg';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PostgresBridge } from '../electron/engine/db/postgresBridge.js';
import { LibpqConnection, libpqAvailable } from '../electron/engine/db/libpqConnection.js';
import { startPostgresCluster, whyNoPostgres } from '../test/support/postgresCluster.js';

const ROWS = 10_000;
const READS = 3000;
const ROUNDS = 3;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ids = Array.from({ length: READS }, (_, i) => 1 + ((i * 7919) % ROWS));

/** Microseconds per read, the median of ROUNDS rounds of READS reads. */
async function timed(read: (id: number) => unknown | Promise<unknown>): Promise<number> {
  const rounds: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    for (const id of ids) await read(id);
    rounds.push(((performance.now() - started) * 1000) / READS);
  }
  return median(rounds);
}

async function main(): Promise<void> {
  const missing = whyNoPostgres();
  if (missing) {
    console.log(JSON.stringify({ skipped: missing }));
    return;
  }
  const cluster = await startPostgresCluster();
  const dir = mkdtempSync(join(tmpdir(), 'outpost-bench-pg-'));
  const bridge = new PostgresBridge(cluster.url);
  const libpq = libpqAvailable() ? new LibpqConnection(cluster.url) : null;
  const client = new pg.Client({ connectionString: cluster.url });
  try {
    const create = 'CREATE TABLE contacts (id integer PRIMARY KEY, name text NOT NULL, email text, updated_at text NOT NULL)';
    bridge.query(create);
    bridge.query(`INSERT INTO contacts SELECT i, 'Contact ' || i, 'c' || i || '@example.com', '2026-11-25T00:00:00Z' FROM generate_series(1, ${ROWS}) i`);
    bridge.query('ANALYZE contacts');
    const sqlite = new Database(join(dir, 'bench.sqlite'));
    sqlite.exec(create);
    sqlite.prepare(`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${ROWS})
      INSERT INTO contacts SELECT i, 'Contact ' || i, 'c' || i || '@example.com', '2026-11-25T00:00:00Z' FROM n`).run();
    const byId = sqlite.prepare('SELECT id, name, email, updated_at FROM contacts WHERE id = ?');
    await client.connect();
    const text = 'SELECT id, name, email, updated_at FROM contacts WHERE id = $1';
    // Warm-up: plans cached, connections busy once.
    for (const id of ids.slice(0, 200)) {
      bridge.query(text, [id]);
      libpq?.query(text, [id]);
      await client.query(text, [id]);
    }
    const bridgeUs = await timed((id) => bridge.query(text, [id]));
    const asyncUs = await timed((id) => client.query(text, [id]));
    const sqliteUs = await timed((id) => byId.get(id));
    const libpqUs = libpq ? await timed((id) => libpq.query(text, [id])) : null;
    sqlite.close();
    console.log(JSON.stringify({ rows: ROWS, reads: READS, bridgeUs, asyncUs, sqliteUs, libpqUs }));
  } finally {
    await client.end().catch(() => undefined);
    await bridge.close();
    await libpq?.close();
    cluster.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
