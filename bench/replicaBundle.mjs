// The desktop replica's first sync, as bench/run.mjs's replica lines and bench/browserSync.mjs time it:
// bench/replicaClient.ts bundled by esbuild as the desktop app's main process is (no TypeScript loader
// at run time), then run in its own process (`node <bundle> <hub url> <hub token> <data dir> <edits>`),
// which prints one JSON line (`initialSeconds`, `records`, `firstSync`, …).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { build as esbuild } from 'esbuild';

/** Bundles bench/replicaClient.ts into .cache/bench/replicaClient.cjs under `root`; resolves with the bundle's path. */
export async function buildReplicaClient(root) {
  const bundle = join(root, '.cache/bench/replicaClient.cjs');
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  await esbuild({
    absWorkingDir: root, entryPoints: ['bench/replicaClient.ts'], outfile: bundle, bundle: true, platform: 'node', format: 'cjs', target: 'node20',
    external: Object.keys(pkg.dependencies), logLevel: 'warning',
    // As scripts/build-electron.mjs: bundled as CommonJS, the engine finds its file by __filename.
    logOverride: { 'empty-import-meta': 'silent' },
  });
  return bundle;
}

/** The arguments of the bundled client's process: a fresh replica in `dir` syncing from `hubUrl`, then `edits` offline edits pushed (0: the first sync only). */
export const replicaClientArgs = (bundle, hubUrl, token, dir, edits) => [bundle, hubUrl, token, dir, String(edits)];
