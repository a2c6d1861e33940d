import type * as NodeSide from './sqlThreads.js';

/**
 * In the browser the database has one connection, on the engine's worker
 * (sqlThreads.ts is Node's): a first sync's end runs there, never on a second
 * thread, so neither of these is ever called.
 */
export const sqlThreads: boolean = false;

function oneThreadOnly(): never {
  throw new Error('The browser has one connection to the database: no second thread builds indexes.');
}

export function startSqlWorker(): never {
  return oneThreadOnly();
}

export function buildSearchIndexesAside(): never {
  return oneThreadOnly();
}

// Fails the type check when this side drifts from Node's.
({ sqlThreads, startSqlWorker, buildSearchIndexesAside }) satisfies typeof NodeSide;
