import { setFlagsFromString } from 'node:v8';

/**
 * How far past the live heap of its last full collection V8 lets the heap
 * grow while a replica pulls (V8 chooses 10–300 % by itself, from how fast
 * the program allocates against how fast it collects).
 *
 * A pull allocates a great deal that dies at once: each 1000-record page
 * arrives as one ~1.7 MB string (straight into the old generation) and its
 * parsed records outlive a page apply, so they are promoted too. Left to
 * choose, V8 grew the heap up to four times its live size before collecting
 * (a 300 000-record first sync peaked at 216–226 MB, 120 MB of it dead page
 * text); held to 30 %, the same sync peaks at ~155 MB, whatever the number of
 * records, for ~5 % more time spent collecting.
 */
export const PULL_HEAP_GROWING_PERCENT = 30;

/** Pulls under way (a hub and its tests may run more than one replica in a process). */
let pulls = 0;

/**
 * Runs `pull` with the heap's growth bounded, and gives V8 back its own
 * choice once the last pull in the process has ended. The setting is
 * process-wide and read at each full collection (`--heap-growing-percent`,
 * 0 meaning V8's own choice); Node and Electron's main process both allow
 * flags to be set at run time.
 */
export async function withBoundedHeapGrowth<T>(pull: () => Promise<T>): Promise<T> {
  if (pulls++ === 0) setFlagsFromString(`--heap-growing-percent=${PULL_HEAP_GROWING_PERCENT}`);
  try {
    return await pull();
  } finally {
    if (--pulls === 0) setFlagsFromString('--heap-growing-percent=0');
  }
}
