import { defineConfig } from 'vitest/config';

/**
 * The whole API suite again, with every test hub on PostgreSQL: one
 * throwaway cluster for the run (test/support/postgresGlobal.ts), a database
 * per hub (test/support/testHub.ts). `npm test` runs it after the SQLite run;
 * the same tests, the same assertions, on the other backend. The merge
 * property test runs too: its hub merges replicas' offline edits on
 * PostgreSQL (its replicas stay on SQLite, as every replica does). The files share their worker's
 * module cache, as in vitest.config.ts: each makes its own hubs and databases.
 */
export default defineConfig({
  test: {
    include: ['test/api/**/*.test.ts', 'test/replica/mergeProperty.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    isolate: false,
    restoreMocks: true,
    globalSetup: ['test/support/postgresGlobal.ts'],
  },
});
