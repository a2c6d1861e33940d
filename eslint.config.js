import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

/*
 * The layers (docs/architecture.md): adapters (http/, the desktop shell, the
 * CLI) import the domain, the domain imports storage (db/), and no arrow runs
 * back up. no-restricted-imports checks every import and export declaration,
 * `import type` ones too: a type-only import is an arrow all the same.
 * A lazy import() is no way round it (no-restricted-syntax below).
 */

/** The engine runs under plain Node and in Electron's main process: it never imports Electron. */
const NO_ELECTRON = { name: 'electron', message: 'The engine runs under plain Node too: the desktop shell (electron/desktop/) talks to Electron.' };

/** The adapters, and the composition roots that start them (hub.ts and cli.ts start the HTTP server; shutdown.ts stops it). */
const ADAPTERS = [
  'electron/engine/http/**', 'electron/desktop/**', 'electron/main.ts', 'electron/preload.ts',
  'electron/engine/hub.ts', 'electron/engine/cli.ts', 'electron/engine/shutdown.ts',
];
const ADAPTER_IMPORTS = {
  group: ['**/http/**', '**/desktop/**', '**/hub.js', '**/cli.js', '**/shutdown.js'],
  message:
    'The domain knows nothing of HTTP or the desktop shell (docs/architecture.md). Throw an ApiProblem (electron/engine/problems.ts), ' +
    'check roles with auth/permissions.ts, and move whatever both sides need down out of the adapter; never a lazy import().',
};
/** import() and `typeof import()` of an adapter: the same arrow as a static import. */
const LAZY_ADAPTER_IMPORTS = ['ImportExpression', 'TSImportType'].map((node) => ({
  selector: `${node} > Literal.source[value=/(^|\\/)(http|desktop)\\/|(^|\\/)(hub|cli|shutdown)\\.js$/]`,
  message: ADAPTER_IMPORTS.message,
}));

/** The domain, as storage must not see it: its folders and its top-level files. */
const DOMAIN_IMPORTS = {
  group: [
    ...['changes', 'resources', 'reports', 'importExport', 'sync', 'auth', 'customObjects', 'replica', 'seed', 'sequences', 'backup'].map((folder) => `**/${folder}/**`),
    ...['engine', 'context', 'dependents', 'firstAdmin', 'problems', 'writtenAt'].map((file) => `**/${file}.js`),
  ],
  message: 'Storage (db/) knows nothing of the domain (docs/architecture.md): what both need lives in db/ (a data folder\'s names: db/dataFolder.ts), and the domain passes the rest in.',
};

export default tseslint.config(
  { ignores: ['dist/', 'release/', 'node_modules/', '.cache/', 'test-results/', 'e2e/screenshots/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // Tests read JSON answers of many shapes; typing each would only restate the assertions.
    files: ['test/**/*.ts', 'e2e/**/*.{ts,mjs}', 'bench/**/*.{ts,mjs}'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    // incompatible-library only matters to the React Compiler, which this project does not use.
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/incompatible-library': 'off' },
  },
  {
    files: ['electron/engine/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON] }] },
  },
  {
    // The domain (resources, rules, sync, replica, reports, auth, importExport, customObjects, …) and storage: no arrow up into an adapter.
    files: ['electron/engine/**/*.ts'],
    ignores: [...ADAPTERS, '**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [ADAPTER_IMPORTS] }],
      'no-restricted-syntax': ['error', ...LAZY_ADAPTER_IMPORTS],
    },
  },
  {
    // Storage: no arrow up into the domain either.
    files: ['electron/engine/db/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: { 'no-restricted-imports': ['error', { paths: [NO_ELECTRON], patterns: [ADAPTER_IMPORTS, DOMAIN_IMPORTS] }] },
  },
  {
    // The renderer talks to the engine only through the typed client and the bridge; shared/ is for both.
    files: ['renderer/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{
          group: ['**/electron/**', 'better-sqlite3', 'fastify'],
          message: 'The renderer reaches the engine over the API only (renderer/api/, the bridge): put what both sides need in shared/.',
        }],
      }],
    },
  },
  {
    // shared/ is the contract both sides read (wire shapes, error codes): it imports neither.
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/electron/**', '**/renderer/**'], message: 'shared/ is imported by the engine and the renderer alike: it imports neither.' }],
      }],
    },
  },
);
