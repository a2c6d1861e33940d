import type { Hub } from './hub.js';

/** How long requests in flight get to finish once a stop is asked for; then the process exits regardless. */
export const SHUTDOWN_GRACE_MS = 30_000;

/**
 * Stops `serve` cleanly on SIGTERM (service managers, containers) or SIGINT
 * (Ctrl-C): Fastify's close stops accepting connections, closes idle
 * keep-alive ones, answers a request that arrives on a busy one 503, and
 * waits for the requests in flight; then the database and the folder's lock
 * are released and the process exits 0. A second signal, or requests still
 * running after the grace period, end it at once with exit code 1.
 */
export function stopOnSignals(hub: Pick<Hub, 'app' | 'close'>, graceMs = SHUTDOWN_GRACE_MS): void {
  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      hub.app.log.error({ signal }, 'stopping at once: a second signal came while requests were finishing');
      process.exit(1);
    }
    stopping = true;
    hub.app.log.info({ signal }, 'stopping: no new connections; requests in flight finish first');
    setTimeout(() => {
      hub.app.log.error({ grace_ms: graceMs }, 'stopping at once: requests still running after the grace period');
      process.exit(1);
    }, graceMs).unref();
    hub.close().then(
      () => process.exit(0),
      (err: unknown) => {
        hub.app.log.error({ err }, 'stopping failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
