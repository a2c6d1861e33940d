import { defineConfig } from 'vitest/config';

/**
 * Engine and API tests: real SQLite files in temp dirs, real HTTP on 127.0.0.1.
 *
 * The engine's test files share their worker's module cache (`isolate: false`): each makes its own hubs,
 * data folders and ports, and none replaces a module, so loading the engine once per worker instead of once
 * per file loses nothing; it took 174 of the run's worker-seconds (docs/testing.md, "Speed of the suite").
 * Spies are put back after each test all the same. The renderer's few tests stub browser globals before
 * importing the stores that read them, so each of their files keeps a module cache of its own.
 */
export default defineConfig({
  test: {
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    restoreMocks: true,
    projects: [
      { extends: true, test: { name: 'engine', include: ['test/**/*.test.ts', 'electron/**/*.test.ts'], isolate: false } },
      { extends: true, test: { name: 'renderer', include: ['shared/**/*.test.ts', 'renderer/**/*.test.ts'] } },
    ],
  },
});
