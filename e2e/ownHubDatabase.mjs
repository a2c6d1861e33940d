// Where a spec's own hub keeps its data. In the suite's PostgreSQL run (scripts/e2e.mjs with
// OUTPOST_E2E_POSTGRES=1 passes its throwaway cluster as OUTPOST_E2E_POSTGRES_CLUSTER), a fresh database
// of that cluster, so the spec's hub runs on PostgreSQL too; otherwise its data folder's SQLite file.
import pg from 'pg';

let made = 0;

/** `outpost` arguments naming the database of a spec's own hub (none on SQLite), and how to drop it. */
export async function ownHubDatabase(name) {
  const cluster = process.env.OUTPOST_E2E_POSTGRES_CLUSTER;
  if (!cluster) return { args: [], drop: async () => {} };
  const database = `e2e_${name}_${process.pid}_${++made}`;
  const admin = async (sql) => {
    const client = new pg.Client({ connectionString: cluster });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${database}`);
  const url = new URL(cluster);
  url.pathname = `/${database}`;
  return { args: ['--database-url', url.toString()], drop: () => admin(`DROP DATABASE ${database} WITH (FORCE)`) };
}
