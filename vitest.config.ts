import { defineConfig } from 'vitest/config';

// Engine and API tests: real SQLite files in temp dirs, real HTTP on 127.0.0.1.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'electron/**/*.test.ts', 'shared/**/*.test.ts', 'renderer/**/*.test.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
  },
});
