import type { Clock } from '../../clock.js';
import { PostgresDatabase, postgresOptionsFromEnv } from './database.js';
import { CLUSTER_TABLES } from './clusterTables.js';
import { COMPAT_FUNCTIONS, ENGINE_TRIGGERS } from './functions.js';
import { migratePostgres } from './schema.js';
import { SEARCH } from './search.js';

/**
 * Opens a PostgreSQL hub's database: migrates it to the current schema, adds the
 * tables only a cluster has (clusterTables.ts) if missing, puts
 * in the functions, triggers and search tables the engine's SQL relies on (replaced every
 * time: they are code and follow this version), then reads the tables' keys
 * for the translation of statements. All of it under the hub's write lock,
 * so nodes starting together do it one after another. The connection's
 * timeouts come from the environment (OUTPOST_PG_*_MS, docs/hub.md).
 */
export function openPostgres(url: string, clock: Clock): PostgresDatabase {
  const db = new PostgresDatabase(url, { clock, ...postgresOptionsFromEnv(process.env) });
  try {
    migratePostgres(db);
    db.transaction(() => db.exec(`${CLUSTER_TABLES}\n${COMPAT_FUNCTIONS}\n${ENGINE_TRIGGERS}\n${SEARCH}`)).immediate();
    db.loadSchema();
    return db;
  } catch (err) {
    void db.close();
    throw err;
  }
}

/** Opens a database `openPostgres` has already prepared (by this node, just before): reads the tables' keys only. Its timeouts too come from the environment. */
export function openPreparedPostgres(url: string, clock: Clock): PostgresDatabase {
  const db = new PostgresDatabase(url, { clock, ...postgresOptionsFromEnv(process.env) });
  try {
    db.loadSchema();
    return db;
  } catch (err) {
    void db.close();
    throw err;
  }
}
