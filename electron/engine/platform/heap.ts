import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * V8's heap tuned for a replica, Node's side (heap.web.ts is the browser's,
 * where both functions are no-ops: a page has no say over its heap).
 *
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
 * at most, the same sync peaked at 175–187 MB. But the live heap stays about
 * 30 MB however long the pull (measured with --trace-gc), so how high the
 * heap climbs before its next full collection is what grew with the record
 * count: a million-contact first sync peaked at 189–199 MB with 100 %, at
 * 172–181 MB with 50 % and no slower (30.0–30.9 s against 30.3–31.7 s, two
 * runs each). Held tighter still (30 %), a 300 000-record sync spent
 * up to 0.5 s more collecting in half the runs.
 */
export const REPLICA_HEAP_GROWING_PERCENT = 50;

/**
 * Bounds the heap's growth for the rest of the process's life (the setting is
 * process-wide, read at each full collection: `--heap-growing-percent`). Node
 * and Electron's main process both allow V8 flags to be set at run time.
 */
export function boundHeapGrowth(): void {
  setFlagsFromString(`--heap-growing-percent=${REPLICA_HEAP_GROWING_PERCENT}`);
}

/**
 * A full garbage collection now, one that gives memory back. A first sync
 * ends by building its indexes on a second thread and its search tables on
 * this one, and both need memory of their own (a worker's heap, SQLite's
 * sorters, FTS5's term buffers) just when the heap is full of the pages just
 * applied, all dead. A regular full collection frees them but keeps the
 * young generation at the 32 MB the pull grew it to; V8's "last resort"
 * collection (the one it runs before giving up on memory) also shrinks it
 * and returns the pages it pooled (32 MB of resident memory). Measured at a
 * million contacts: the end had risen 20–25 MB above the pull's ~180 MB
 * (peaks 196–206 MB); now it stays under it (peaks 178–179 MB). Collecting
 * costs about 0.1 s, once per first sync; the young generation grows back as
 * the app needs it.
 *
 * Node has no API for this; `--expose-gc` set at run time makes V8 give new
 * contexts a `gc` function (the setting is process-wide, as boundHeapGrowth's),
 * and V8's `gc` takes the collection's kind (a runtime without the option
 * runs a regular full collection).
 */
export function collectGarbageNow(): void {
  setFlagsFromString('--expose-gc');
  (runInNewContext('gc') as (options: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void)({ type: 'major', execution: 'sync', flavor: 'last-resort' });
}
