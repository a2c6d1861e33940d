import type * as NodeSide from './boundedRegexp.js';

/**
 * A browser has no way to stop a regular expression that backtracks for hours
 * on the thread that runs it (boundedRegexp.ts uses a V8 context with a time
 * limit). Only custom objects' fields test patterns, and custom objects are the
 * hub's: a replica forwards them, so this is never asked.
 */
export function regexpTestWithin(): never {
  throw new Error('Custom objects are kept on the hub: their patterns are not tested in the browser.');
}

// Fails the type check when this side drifts from Node's.
({ regexpTestWithin }) satisfies typeof NodeSide;
