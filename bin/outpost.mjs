#!/usr/bin/env node
// The `outpost` command. Runs the TypeScript engine through tsx's loader so
// the CLI needs no build step; the desktop app bundles the same code.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../electron/engine/cli.ts');
const code = await main(process.argv.slice(2));
if (code !== 0) process.exit(code);
