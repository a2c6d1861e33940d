import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { cleanUp, outpost, tempDir } from '../support/cliProcess.js';
import { startPostgresCluster, whyNoPostgres, type PostgresCluster } from '../support/postgresCluster.js';

/**
 * An account always has an administrator: `outpost users add` refuses an
 * agent as the first user of an empty data folder or PostgreSQL database
 * (exit code 1, one line saying why and how to do it right, nothing
 * created) and never turns the role asked for into another; `users
 * deactivate` refuses the last active administrator, as the API does. Real
 * `outpost` processes, on SQLite and on a throwaway PostgreSQL cluster.
 */
const noPostgres = whyNoPostgres();
if (noPostgres) console.warn(`Skipping the PostgreSQL half of the first-admin tests: ${noPostgres}`);

let cluster: PostgresCluster | undefined;
let databases = 0;

beforeAll(async () => {
  if (!noPostgres) cluster = await startPostgresCluster();
}, 60_000);

afterAll(() => {
  cleanUp();
  cluster?.stop();
});

interface Backend {
  /** The options that point a command at a new, empty hub. */
  args: string[];
  /** Every user of that hub: email, role, status. */
  users(): Promise<{ email: string; role: string; status: string }[]>;
}

function sqliteHub(): Backend {
  const dir = tempDir();
  return {
    args: ['--data-dir', dir],
    users: async () => {
      const db = new Database(join(dir, 'outpost.sqlite'), { readonly: true });
      try {
        return db.prepare('SELECT email, role, status FROM users ORDER BY id').all() as { email: string; role: string; status: string }[];
      } finally {
        db.close();
      }
    },
  };
}

function postgresHub(): Backend {
  const name = `first_admin_${++databases}`;
  cluster!.sql(`CREATE DATABASE ${name}`);
  const url = cluster!.url.replace(/\/postgres$/, `/${name}`);
  return {
    args: ['--data-dir', tempDir(), '--database-url', url],
    users: async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        const exists = await client.query("SELECT to_regclass('users') IS NOT NULL AS present");
        if (!exists.rows[0].present) return [];
        return (await client.query('SELECT email, role, status FROM users ORDER BY id')).rows;
      } finally {
        await client.end();
      }
    },
  };
}

const BACKENDS: [string, () => Backend, boolean][] = [['SQLite', sqliteHub, false], ['PostgreSQL', postgresHub, Boolean(noPostgres)]];

const AGENT = ['--email', 'rep@example.com', '--name', 'Rep', '--role', 'agent'];
const ADMIN = ['--email', 'boss@example.com', '--name', 'Boss', '--role', 'admin'];

describe.each(BACKENDS)('on %s', (_name, newHub, skip) => {
  // Each test runs `outpost` as a real process several times (a second or more each on a busy machine): a guard against a hang.
  describe.skipIf(skip)('the first user', { timeout: 90_000 }, () => {
    it('is refused as an agent, with a password or invited, saying why and how; nothing is created', async () => {
      const hub = newHub();
      for (const extra of [['--password', 'rep-password'], []]) {
        const refused = await outpost(['users', 'add', ...AGENT, ...extra, ...hub.args]);
        expect(refused.code, refused.stderr).toBe(1);
        expect(refused.stdout).toBe('');
        expect(refused.stderr.split('\n')).toHaveLength(1);
        expect(refused.stderr).toMatch(/^outpost: this account has no administrator yet, and its first user must be one/);
        expect(refused.stderr).toContain('--role admin');
        expect(refused.stderr).not.toMatch(/Invite link/);
      }
      expect(await hub.users()).toEqual([]);
    });

    it('may be an admin (invited too), after whom agents are added as asked', async () => {
      const hub = newHub();
      const admin = await outpost(['users', 'add', ...ADMIN, ...hub.args]);
      expect(admin.code, admin.stderr).toBe(0);
      expect(JSON.parse(admin.stdout)).toMatchObject({ email: 'boss@example.com', role: 'admin', invited: true });
      const agent = await outpost(['users', 'add', ...AGENT, '--password', 'rep-password', ...hub.args]);
      expect(agent.code, agent.stderr).toBe(0);
      expect(JSON.parse(agent.stdout)).toMatchObject({ email: 'rep@example.com', role: 'user' });
      expect(await hub.users()).toEqual([
        { email: 'boss@example.com', role: 'admin', status: 'active' },
        { email: 'rep@example.com', role: 'user', status: 'active' },
      ]);
    });
  });

  describe.skipIf(skip)('the last administrator', { timeout: 90_000 }, () => {
    it('cannot be deactivated; once another admin exists, can', async () => {
      const hub = newHub();
      expect((await outpost(['users', 'add', ...ADMIN, '--password', 'boss-password', ...hub.args])).code).toBe(0);
      const refused = await outpost(['users', 'deactivate', '--email', 'boss@example.com', ...hub.args]);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe('outpost: Boss is the only active administrator: make someone else an administrator first.');
      expect(await hub.users()).toEqual([{ email: 'boss@example.com', role: 'admin', status: 'active' }]);

      const second = ['--email', 'deputy@example.com', '--name', 'Deputy', '--role', 'admin', '--password', 'deputy-password'];
      expect((await outpost(['users', 'add', ...second, ...hub.args])).code).toBe(0);
      const deactivated = await outpost(['users', 'deactivate', '--email', 'boss@example.com', ...hub.args]);
      expect(deactivated.code, deactivated.stderr).toBe(0);
      expect(JSON.parse(deactivated.stdout)).toMatchObject({ email: 'boss@example.com', status: 'inactive' });
    });
  });
});
