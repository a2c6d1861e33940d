import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stablePort } from './ports.js';

/**
 * A throwaway PostgreSQL cluster for tests (docs/design/postgres-hub.md):
 * Debian's server binaries (`apt-get install postgresql`; .ci/run does it), a
 * cluster made by initdb in a temp folder, started on a free loopback port,
 * stopped at once and removed by `stop()`. PostgreSQL refuses to run as root,
 * so when the tests run as root the cluster runs as the `postgres` user.
 */
export interface PostgresCluster {
  /** `postgres://outpost@127.0.0.1:<port>/postgres` (trust authentication: the cluster only listens on loopback). */
  url: string;
  port: number;
  /** Runs SQL through psql and returns its unaligned output (rows, fields separated by `|`). */
  sql(statement: string): string;
  /**
   * Stops the server as a crash or an operator's restart would (fast: its sessions are ended), keeping its
   * data; returns how to start it again as it was started, on the same port.
   */
  pause(): () => void;
  stop(): void;
}

/** The folder with initdb and pg_ctl, which Debian's packages keep off PATH: /usr/lib/postgresql/<version>/bin, the newest. */
export function postgresBinaries(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root).filter((v) => existsSync(join(root, v, 'bin', 'initdb'))).sort((a, b) => Number(b) - Number(a));
  return versions.length > 0 ? join(root, versions[0]!, 'bin') : null;
}

/** Why no cluster can be started here, or null when one can. */
export function whyNoPostgres(): string | null {
  return postgresBinaries() === null ? 'PostgreSQL server binaries are not installed (apt-get install postgresql; .ci/run does it)' : null;
}

function run(command: string, args: string[], asPostgres: boolean): SpawnSyncReturns<string> {
  const [file, argv] = asPostgres ? ['runuser', ['-u', 'postgres', '--', command, ...args]] : [command, args];
  const result = spawnSync(file, argv, { encoding: 'utf8', timeout: 60_000 });
  if (result.status !== 0) throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout || result.error?.message}`);
  return result;
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  if (!bin) throw new Error(whyNoPostgres()!);
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), 'outpost-pg-'));
  const data = join(dir, 'data');
  if (asPostgres) {
    const user = spawnSync('id', ['-u', 'postgres'], { encoding: 'utf8' });
    const group = spawnSync('id', ['-g', 'postgres'], { encoding: 'utf8' });
    chownSync(dir, Number(user.stdout), Number(group.stdout));
  }
  const port = await stablePort();
  // --no-sync: a test cluster need not survive a power cut; the socket lives in the temp folder, not /run.
  run(join(bin, 'initdb'), ['-D', data, '-U', 'outpost', '-A', 'trust', '--no-sync', '-E', 'UTF8', '--locale', 'C'], asPostgres);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off`;
  const start = () => run(join(bin, 'pg_ctl'), ['-D', data, '-o', options, '-l', join(dir, 'server.log'), '-w', 'start'], asPostgres);
  start();
  let stopped = false;
  return {
    url: `postgres://outpost@127.0.0.1:${port}/postgres`,
    port,
    sql: (statement) => run(join(bin, 'psql'), ['-h', '127.0.0.1', '-p', String(port), '-U', 'outpost', '-d', 'postgres', '-X', '-A', '-t', '-v', 'ON_ERROR_STOP=1', '-c', statement], false).stdout.trim(),
    pause() {
      run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop'], asPostgres);
      return start;
    },
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], asPostgres);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
