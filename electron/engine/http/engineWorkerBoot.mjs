// An engine worker's first module (http/engineWorkers.ts): the worker's program is TypeScript, so it registers
// the loader the `outpost` command runs under (tsx, as bin/outpost.mjs does), then imports it.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
