import type * as NodeSide from './codegen.js';

/** No compiling in the browser: the worker's policy refuses eval (codegen.ts). */
export function compiledFunction(): null {
  return null;
}

// Fails the type check when this side drifts from Node's.
({ compiledFunction }) satisfies typeof NodeSide;
