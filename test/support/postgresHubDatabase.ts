import { expect } from 'vitest';
import { outpost, tempDir } from './cliProcess.js';
import type { PostgresCluster } from './postgresCluster.js';

/** The admin `hubDatabase` adds, as an operator's first user. */
export const BOSS = { email: 'boss@example.com', name: 'Boss', password: 'boss-password-1' };

/**
 * A database `hub` on the cluster for hub nodes to share, with its first admin (BOSS) and a personal token
 * of theirs, both made by the `outpost` command as an operator makes them.
 */
export async function hubDatabase(cluster: PostgresCluster): Promise<{ url: string; token: string }> {
  cluster.sql('CREATE DATABASE hub');
  const url = cluster.url.replace(/\/postgres$/, '/hub');
  const cli = (args: string[]) => outpost([...args, '--data-dir', tempDir(), '--database-url', url]);
  const added = await cli(['users', 'add', '--email', BOSS.email, '--name', BOSS.name, '--role', 'admin', '--password', BOSS.password]);
  expect(added.code, added.stderr).toBe(0);
  const created = await cli(['tokens', 'create', '--email', BOSS.email, '--scope', 'read write profile sync']);
  expect(created.code, created.stderr).toBe(0);
  return { url, token: JSON.parse(created.stdout).access_token as string };
}
