import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
const root = '/work/main';
const pkg = JSON.parse(readFileSync(root + '/package.json', 'utf8'));
await build({ absWorkingDir: root, entryPoints: ['bench/replicaClient.ts'], outfile: root + '/.cache/bench/replicaClient.cjs', bundle: true, platform: 'node', format: 'cjs', target: 'node20',
  external: Object.keys(pkg.dependencies), logLevel: 'warning', logOverride: { 'empty-import-meta': 'silent' } });
