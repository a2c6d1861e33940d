import { defineConfig } from 'vitest/config';

/**
 * The API suite again, with every test hub on PostgreSQL (issue 24): one
 * throwaway cluster for the run (test/support/postgresGlobal.ts), a database
 * per hub. The files listed are those whose resources run on PostgreSQL so
 * far; docs/design/postgres-hub.md says which are still to come.
 */
export const POSTGRES_API_TESTS = [
  'test/api/contacts.test.ts',
];

export default defineConfig({
  test: {
    include: POSTGRES_API_TESTS,
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    globalSetup: ['test/support/postgresGlobal.ts'],
  },
});
