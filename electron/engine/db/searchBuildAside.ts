import Database from 'better-sqlite3';
import { copySearchIndexesInSql, fillSearchIndexesAside } from './searchBuild.js';
import { SEARCH_BUILD_SCHEMA } from './searchIndexes.js';
import { registerSearchFunctions } from './sqlFunctions.js';

// A bulk load's search indexes built on a connection of their own, beside the engine's (Node only: db/sqlThreads.ts).

interface SearchBuildOptions {
  /** As the engine's own connection was opened (Electron's build of the driver). */
  nativeBinding?: string;
  /** The build connection's page cache, for each of the two files. */
  cacheKiB: number;
  /** Ends the build (rejecting) at its next slice. */
  signal?: AbortSignal;
}

/**
 * Builds every search index in the database file `aside` (made anew) from the
 * tables of the database `file` (fillSearchIndexesAside), and returns the
 * statements that copy them in. Building aside only reads `file`, so another
 * connection may write it meanwhile (a bulk load's worker builds the
 * secondary indexes so). The copy must run on a connection other than this
 * one and the engine's, with `aside` attached as SEARCH_BUILD_SCHEMA and
 * shadow-table writes allowed (copySearchIndexesInSql).
 */
export async function buildSearchIndexesAside(file: string, aside: string, options: SearchBuildOptions): Promise<string[]> {
  const db = new Database(file, { nativeBinding: options.nativeBinding });
  try {
    registerSearchFunctions(db);
    db.pragma('busy_timeout = 5000');
    db.pragma(`cache_size = -${options.cacheKiB}`);
    db.prepare(`ATTACH ? AS ${SEARCH_BUILD_SCHEMA}`).run(aside);
    db.pragma(`${SEARCH_BUILD_SCHEMA}.cache_size = -${options.cacheKiB}`);
    await fillSearchIndexesAside(db, { signal: options.signal });
  } finally {
    db.close();
  }
  return copySearchIndexesInSql();
}
