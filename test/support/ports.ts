import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * Ports for servers the tests stop and start again on the same port (a hub that goes "offline" and comes
 * back, a link that is cut and healed, a PostgreSQL cluster). A port the kernel handed out for port 0 is
 * unsafe for that: while the server is down, the kernel may give the same port to any outgoing connection
 * or to another worker's port-0 listener, and the restart fails with EADDRINUSE. So these ports come from
 * below the kernel's ephemeral range, which it never hands out by itself, in a band of the worker's own
 * (Playwright's TEST_PARALLEL_INDEX, Vitest's VITEST_POOL_ID), and never twice in one process.
 */
const BAND = 400;
// Playwright's workers and Vitest's each have 10 000 ports, so the two runners never meet either.
const RUNNER_BASE = process.env.TEST_PARALLEL_INDEX !== undefined ? 20_000 : 10_000;
const given = new Set<number>();

function ephemeralStart(): number {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]) || 32_768;
  } catch {
    return 32_768; // macOS starts at 49152, Windows at 49152: below 32768 is outside both too
  }
}

function workerIndex(): number {
  return Number(process.env.TEST_PARALLEL_INDEX ?? process.env.VITEST_POOL_ID ?? 0) || 0;
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** A port free now that no other worker of the run and no port-0 listener will take while its server is down. */
export async function stablePort(): Promise<number> {
  const bands = Math.floor((Math.min(ephemeralStart(), RUNNER_BASE + 10_000) - RUNNER_BASE) / BAND);
  const first = RUNNER_BASE + (workerIndex() % Math.max(bands, 1)) * BAND;
  const offset = Math.floor(Math.random() * BAND);
  for (let i = 0; i < BAND; i++) {
    const port = first + ((offset + i) % BAND);
    if (given.has(port)) continue;
    if (await canListen(port)) {
      given.add(port);
      return port;
    }
  }
  throw new Error(`no free port in ${first}–${first + BAND - 1}`);
}
