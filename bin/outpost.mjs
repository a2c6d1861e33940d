#!/usr/bin/env node
// The `outpost` command. Runs the JavaScript build of electron/engine/cli.ts in dist/cli/
// (scripts/build-cli.mjs), which it makes first when it is missing or its sources changed: a start
// compiles nothing, and after a change to the sources the next command is current without a step by hand.
// OUTPOST_FROM_SOURCES=1 runs the TypeScript sources instead, through tsx (a dev dependency), for CPU
// profiles that name the source files (bench/profileHubNode.mjs); it compiles them at every start.
import { builtCli } from '../scripts/build-cli.mjs';

// A reader that stops reading (`outpost seed | head -1`) closes the pipe, and the next write fails with EPIPE:
// the command still finishes its work (a copy or a seed cut short would be worse) and its output goes nowhere,
// instead of the process ending on an unhandled error with a stack trace.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
});
let entry;
try {
  entry = process.env.OUTPOST_FROM_SOURCES === '1' ? await sources() : await builtCli();
} catch (err) {
  // esbuild has already printed a compile error, with file and line.
  console.error(`outpost: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`);
  process.exit(1);
}
const { main } = await import(entry);
const code = await main(process.argv.slice(2));
if (code !== 0) process.exit(code);

async function sources() {
  const tsx = await import('tsx/esm/api').catch(() => null);
  if (!tsx) throw new Error('OUTPOST_FROM_SOURCES=1 runs the TypeScript sources through tsx, a dev dependency, which is not installed');
  tsx.register();
  return new URL('../electron/engine/cli.ts', import.meta.url).href;
}
