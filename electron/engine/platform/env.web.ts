import type * as NodeSide from './env.js';

/** A browser has no environment variables: every setting read from one takes its default (env.ts is Node's). */
export function environment(): Readonly<Record<string, string | undefined>> {
  return {};
}

// Fails the type check when this side drifts from Node's.
({ environment }) satisfies typeof NodeSide;
