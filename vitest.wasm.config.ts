import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The engine's and the replica's tests again, with every SQLite database of
 * the test process opened through the browser's adapter (db/wasmDatabase.ts
 * over @sqlite.org/sqlite-wasm) instead of better-sqlite3: the alias swaps
 * db/sqliteDriver.ts for test/support/wasmSqlite.ts, which keeps each open
 * database in WebAssembly memory and its file's bytes on disk between opens.
 * In-process test hubs (test/support/testHub.ts) open through the same
 * platform, so they run on wasm too; hubs and CLIs in child processes, and
 * connections a test opens with better-sqlite3 itself, stay native.
 */
const WASM_PLATFORM = fileURLToPath(new URL('./test/support/wasmSqlite.ts', import.meta.url));

/**
 * Tests left out (by their title), each for what the wasm platform in Node
 * does not have: a file on disk kept current while open (so another
 * connection, or the first sync's worker thread, can read it), or a journal
 * (an in-memory database has neither WAL nor a rollback journal).
 */
const NOT_ON_WASM: Record<string, string> = {
  'opens in WAL mode with foreign keys and migrates to the current schema version': 'in-memory: journal_mode is "memory", never WAL',
  'gives a new file the page size asked for, and an existing file keeps its own': "sqlite-wasm's default page size is 8192, not 4096 (a size asked for is kept)",
  'writes with a rollback journal when it is the only connection, and leaves the file in WAL mode': 'in-memory: no journal to switch',
  'stays in WAL mode, without waiting for it, while another connection has the file open': 'opens a second, native connection on the file while the engine holds it',
  'goes back to WAL mode when the load fails, its transaction rolled back': 'in-memory: no journal to switch',
  'forgets what it kept when another connection commits': 'a native connection writes the file while the engine holds it',
  'leaves other connections free to write the tables its triggers watch': 'a native connection writes the file while the engine holds it',
  'write the same terms': 'the build aside opens the file with a native connection (searchIndexes.ts)',
  'loads with indexes and search triggers off, then has them all back and every row searchable': "the end's worker thread opens the file natively (db/sqlWorker.ts)",
  'builds the search indexes a slice at a time, letting this thread answer between slices': "the end's worker thread opens the file natively (db/sqlWorker.ts)",
  "holds the writes given to it from the end's start until its commit, so none waits on the worker's lock": "the end's worker thread opens the file natively (db/sqlWorker.ts)",
};

const escaped = (title: string) => title.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** Every test whose full name contains none of the titles above. */
const RUN_ON_WASM = new RegExp(`^(?!.*(?:${Object.keys(NOT_ON_WASM).map(escaped).join('|')}))`);

export default defineConfig({
  resolve: {
    alias: [
      { find: /^.*\/db\/sqliteDriver\.js$/, replacement: WASM_PLATFORM },
      // The browser's row readers (closures: its worker may not compile code), so the replica's tests cover them too.
      { find: /^(.*\/platform)\/codegen\.js$/, replacement: '$1/codegen.web.ts' },
    ],
  },
  test: {
    include: ['test/engine/**/*.test.ts', 'test/replica/**/*.test.ts'],
    testNamePattern: RUN_ON_WASM,
    setupFiles: ['test/support/wasmSetup.ts'],
    environment: 'node',
    pool: 'forks',
    testTimeout: 20_000,
    hookTimeout: 60_000,
    isolate: false,
    restoreMocks: true,
  },
});
