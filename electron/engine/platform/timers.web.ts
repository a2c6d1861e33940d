import type * as NodeSide from './timers.js';

/** The engine's timing in the browser (timers.ts is Node's). */

/** Callbacks waiting for the turn's end, in order: one message each on the channel. */
const waiting: Array<() => void> = [];
let channel: MessageChannel | null = null;

/**
 * A message posted to oneself is taken after the work queued before it and
 * without setTimeout's clamping: the browser's nearest to setImmediate.
 */
export function atTurnEnd(fn: () => void): () => void {
  let cancelled = false;
  waiting.push(() => {
    if (!cancelled) fn();
  });
  turnEnds().postMessage(null);
  return () => {
    cancelled = true;
  };
}

function turnEnds(): MessagePort {
  if (!channel) {
    channel = new MessageChannel();
    channel.port1.onmessage = () => waiting.shift()?.();
    // Where a runtime can hold a port open (Node, when tests load this side), it must not keep the process alive.
    (channel.port1 as { unref?: () => void }).unref?.();
  }
  return channel.port2;
}

/** A page or worker ends when it is closed, whatever its timers: nothing to do. */
export function unrefTimer(_timer: ReturnType<typeof setTimeout>): void {}

export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

// Fails the type check when this side drifts from Node's.
({ atTurnEnd, unrefTimer, sleep }) satisfies typeof NodeSide;
