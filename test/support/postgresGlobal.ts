import { startPostgresCluster, whyNoPostgres } from './postgresCluster.js';

/**
 * Vitest's global setup for the API suite on PostgreSQL (vitest.postgres.config.ts):
 * one throwaway cluster for the run; each test hub makes a database of its own
 * in it (test/support/testHub.ts). Without PostgreSQL's server here, the run
 * stops with the reason rather than quietly testing SQLite twice.
 */
export default async function setup(): Promise<() => void> {
  const missing = whyNoPostgres();
  if (missing) throw new Error(`The API suite on PostgreSQL cannot run: ${missing}`);
  const cluster = await startPostgresCluster();
  process.env.OUTPOST_TEST_POSTGRES_URL = cluster.url;
  return () => cluster.stop();
}
