import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine.js';
import { actorOf, authenticate } from './auth.js';
import { requireAdmin } from '../auth/permissions.js';
import { routeLabel } from './routeLabel.js';
import { isoSeconds } from '../clock.js';
import { SESSION_IDLE_SECONDS } from '../sync/sessions.js';

export const METRICS_PATH = '/metrics';

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a request answered outside this app's hooks (by a hub node's engine worker: engineWorkers.ts). */
    countAnswer: (method: string, route: string, statusCode: number, seconds: number) => void;
  }
}

let processMetrics: Registry | undefined;

/**
 * The process's own metrics (CPU, memory, event loop delay, GC), made once
 * per process: they describe the process, not an app, and each set starts
 * timers and observers that are never stopped (tests start many apps).
 */
function processRegistry(): Registry {
  if (!processMetrics) {
    processMetrics = new Registry();
    collectDefaultMetrics({ register: processMetrics });
  }
  return processMetrics;
}

/**
 * `GET /metrics` in Prometheus' text format, for admins (a bearer token of
 * an admin with the `read` scope): requests by route pattern and status, their
 * latency, active sync sessions and, on a replica, its outbox. The app's
 * metrics live in a registry of its own, so apps in one process never mix.
 */
export function metricsRoutes(app: FastifyInstance, engine: Engine): void {
  const registry = new Registry();
  countRequests(app, registry);
  watchEngine(engine, registry);
  app.get(METRICS_PATH, { onRequest: authenticate(engine) }, async (request, reply) => {
    requireAdmin(actorOf(request));
    const scraped = Registry.merge([processRegistry(), registry]);
    return reply.type(scraped.contentType).send(await scraped.metrics());
  });
}

function countRequests(app: FastifyInstance, registry: Registry): void {
  const requests = new Counter({
    name: 'outpost_http_requests_total', help: 'HTTP requests answered, by method, route pattern and status code.',
    labelNames: ['method', 'route', 'status_code'] as const, registers: [registry],
  });
  const latency = new Histogram({
    name: 'outpost_http_request_duration_seconds', help: 'Time from receiving a request to sending its answer, by method and route pattern.',
    labelNames: ['method', 'route'] as const, buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10], registers: [registry],
  });
  const count = (method: string, route: string, statusCode: number, seconds: number) => {
    requests.inc({ method, route, status_code: String(statusCode) });
    latency.observe({ method, route }, seconds);
  };
  app.decorate('countAnswer', count);
  app.addHook('onResponse', async (request, reply) => count(request.method, routeLabel(request), reply.statusCode, reply.elapsedTime / 1000));
}

/** Gauges read from the database when scraped (never kept up to date on each write). */
function watchEngine(engine: Engine, registry: Registry): void {
  const activeSessions = engine.db.prepare("SELECT COUNT(*) FROM sync_sessions WHERE state = 'open' AND last_used_at >= ?").pluck();
  new Gauge({
    name: 'outpost_sync_sessions_active', help: 'Sync sessions open and used within the idle window (10 minutes).', registers: [registry],
    collect() {
      // The same rule as SyncSessions: a session idle for longer than the window has expired, whatever its state says.
      const since = isoSeconds(new Date(engine.clock.now().getTime() - SESSION_IDLE_SECONDS * 1000));
      this.set(activeSessions.get(since) as number);
    },
  });
  const outbox = engine.ctx.replica?.outbox;
  if (!outbox) return;
  new Gauge({
    name: 'outpost_replica_outbox_changes', help: 'Local changes of this replica not yet on its hub: pending (to be sent) and rejected (sync issues).',
    labelNames: ['state'] as const, registers: [registry],
    collect() {
      const counts = outbox.counts();
      this.set({ state: 'pending' }, counts.pending);
      this.set({ state: 'rejected' }, counts.rejected);
    },
  });
}
