#!/usr/bin/env node
// The `outpost` command. Runs the TypeScript engine through tsx's loader so
// the CLI needs no build step; the desktop app bundles the same code.
import { register } from 'tsx/esm/api';

register();
// A reader that stops reading (`outpost seed | head -1`) closes the pipe, and the next write fails with EPIPE:
// the command still finishes its work (a copy or a seed cut short would be worse) and its output goes nowhere,
// instead of the process ending on an unhandled error with a stack trace.
process.stdout.on('error', (err) => {
  if (err.code !== 'EPIPE') throw err;
});
const { main } = await import('../electron/engine/cli.ts');
const code = await main(process.argv.slice(2));
if (code !== 0) process.exit(code);
