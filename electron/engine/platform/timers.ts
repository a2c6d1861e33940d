import { setTimeout as sleepFor } from 'node:timers/promises';

/** The engine's timing, Node's side (timers.web.ts is the browser's). */

/**
 * Runs `fn` once this turn of the event loop is over: after the work queued
 * now (I/O callbacks, other requests' handlers), before any timer (setImmediate).
 * Returns what cancels it.
 */
export function atTurnEnd(fn: () => void): () => void {
  const immediate = setImmediate(fn);
  return () => clearImmediate(immediate);
}

/** Lets the process end while the timer is pending (a background flush must not keep a CLI command alive). */
export function unrefTimer(timer: ReturnType<typeof setTimeout>): void {
  timer.unref();
}

export function sleep(ms: number): Promise<void> {
  return sleepFor(ms);
}
