// An engine worker's first module when the engine runs from its TypeScript sources (the tests; the `outpost`
// command runs a build, dist/cli/, whose workers need none): it registers tsx's loader, then imports the program.
import { workerData } from 'node:worker_threads';
import { register } from 'tsx/esm/api';

register();
await import(workerData.entry);
