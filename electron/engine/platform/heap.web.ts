import type * as NodeSide from './heap.js';

/** The browser gives a page no say over its heap (heap.ts tunes Node's): the replica runs with the engine's defaults. */

export const REPLICA_HEAP_GROWING_PERCENT = 50;

export function boundHeapGrowth(): void {}

export function collectGarbageNow(): void {}

// Fails the type check when this side drifts from Node's.
({ REPLICA_HEAP_GROWING_PERCENT, boundHeapGrowth, collectGarbageNow }) satisfies typeof NodeSide;
