import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The engine's and the replica's tests again, with every SQLite database of
 * the test process opened through the browser's adapter (db/wasmDatabase.ts
 * over @sqlite.org/sqlite-wasm) instead of better-sqlite3: the alias swaps
 * platform/sqlite.ts for test/support/wasmSqlite.ts, which keeps each open
 * database in WebAssembly memory and its file's bytes on disk between opens.
 * In-process test hubs (test/support/testHub.ts) open through the same
 * platform, so they run on wasm too; hubs and CLIs in child processes, and
 * connections a test opens with better-sqlite3 itself, stay native.
 */
const WASM_PLATFORM = fileURLToPath(new URL('./test/support/wasmSqlite.ts', import.meta.url));

/** Files left out, each for a reason the wasm platform cannot meet in Node. */
const EXCLUDED: Record<string, string> = {};

export default defineConfig({
  resolve: {
    alias: [{ find: /^.*\/platform\/sqlite\.js$/, replacement: WASM_PLATFORM }],
  },
  test: {
    include: ['test/engine/**/*.test.ts', 'test/replica/**/*.test.ts'],
    exclude: Object.keys(EXCLUDED),
    setupFiles: ['test/support/wasmSetup.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    isolate: false,
    restoreMocks: true,
  },
});
