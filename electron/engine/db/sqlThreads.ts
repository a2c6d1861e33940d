import { SqlWorker, type SqlWorkerOptions } from './sqlWorker.js';

export { buildSearchIndexesAside } from './searchBuildAside.js';

/**
 * A second thread and a second connection for a first sync's end, Node's side
 * (sqlThreads.web.ts is the browser's: one connection to the database, on one
 * thread, so the end runs there: replica/bulkLoad.ts `finishBulkLoad`).
 */
export const sqlThreads: boolean = true;

export function startSqlWorker(options: SqlWorkerOptions): SqlWorker {
  return new SqlWorker(options);
}
