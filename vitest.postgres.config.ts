import { defineConfig } from 'vitest/config';

/**
 * The whole API suite again, with every test hub on PostgreSQL (issue 24): one
 * throwaway cluster for the run (test/support/postgresGlobal.ts), a database
 * per hub (test/support/testHub.ts). `npm test` runs it after the SQLite run;
 * the same tests, the same assertions, on the other backend.
 */
export default defineConfig({
  test: {
    include: ['test/api/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/postgresGlobal.ts'],
  },
});
