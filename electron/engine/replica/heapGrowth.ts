import { setFlagsFromString } from 'node:v8';

/**
 * How far past the live heap of its last full collection V8 may grow the
 * heap of a process that runs a replica (V8 chooses 10–300 % by itself, from
 * how fast the program allocates against how fast it collects).
 *
 * A replica shares the rep's laptop, and its pulls allocate a great deal that
 * dies at once: each 1000-record page arrives as one ~1.7 MB string (straight
 * into the old generation), and its parsed records outlive a page apply, so
 * they are promoted too. Left to choose, V8 sometimes let dead pages pile up
 * to four times the live heap (a 300 000-record first sync peaked at 216–228 MB
 * in about one run in three, 120 MB of it dead page text); allowed to double
 * at most, the same sync peaks at 175–187 MB, whatever the number of records.
 * Held tighter (30 %), it spent up to 0.5 s more collecting in half the runs.
 */
export const REPLICA_HEAP_GROWING_PERCENT = 100;

/**
 * Bounds the heap's growth for the rest of the process's life (the setting is
 * process-wide, read at each full collection: `--heap-growing-percent`). Node
 * and Electron's main process both allow V8 flags to be set at run time.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${REPLICA_HEAP_GROWING_PERCENT}`);
}
