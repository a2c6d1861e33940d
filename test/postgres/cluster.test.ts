import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * The throwaway PostgreSQL cluster the PostgreSQL hub's tests will run on
 * (phase 1 of docs/design/postgres-hub.md): a real server, started
 * in a temp folder and gone after. Where the server binaries are missing the
 * suite is skipped, and says why.
 */
const missing = whyNoPostgres();
if (missing) console.log(`PostgreSQL tests skipped: ${missing}`);

describe.skipIf(missing !== null)('a throwaway PostgreSQL cluster', () => {
  let cluster: PostgresCluster;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  });
  afterAll(() => cluster?.stop());

  it('answers SQL on its own loopback port, as the hub will connect to it', () => {
    expect(cluster.url).toBe(`postgres://outpost@127.0.0.1:${cluster.port}/postgres`);
    expect(Number(cluster.sql('SHOW server_version_num'))).toBeGreaterThanOrEqual(150000);
    cluster.sql('CREATE TABLE change_log (revision bigserial PRIMARY KEY, resource_type text NOT NULL)');
    cluster.sql("INSERT INTO change_log (resource_type) VALUES ('contact'), ('deal')");
    expect(cluster.sql('SELECT revision, resource_type FROM change_log ORDER BY revision')).toBe('1|contact\n2|deal');
  });

  it('is removed with everything in it when stopped', async () => {
    const other = await startPostgresCluster();
    const folder = other.sql('SHOW data_directory');
    expect(existsSync(folder)).toBe(true);
    other.stop();
    expect(existsSync(folder)).toBe(false);
  });
});
