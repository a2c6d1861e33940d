import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import type { Replica } from '../../replica/replica.js';
import { JSON_TYPE } from '../reply.js';

export const HEALTH_PATH = '/health';

type Check = 'ok' | 'unavailable' | 'unreachable';

/**
 * `GET /health` for load balancers and uptime checks: no token, outside /v2,
 * never cached. 200 `{"status":"ok","checks":{"database":"ok"}}` when the
 * database answers a trivial query, otherwise 503 with `checks.database`
 * "unavailable"; the error itself goes to the log under the answer's logref
 * (it may name files, which callers without a token need not see). On a
 * desktop replica `checks.hub` says whether its hub is reachable, as the
 * replica's sync last found it (no call to the hub per check); a replica
 * offline still serves its own data, so that is not "down".
 */
export function healthRoutes(app: FastifyInstance, engine: Engine, replica?: Replica): void {
  app.get(HEALTH_PATH, async (request, reply) => {
    reply.type(JSON_TYPE).header('Cache-Control', 'no-store');
    const failure = databaseFailure(engine);
    const checks: Record<string, Check> = { database: failure === null ? 'ok' : 'unavailable' };
    if (replica && failure === null) checks.hub = replica.status().state === 'offline' ? 'unreachable' : 'ok';
    if (failure === null) return { status: 'ok', checks };
    request.log.error({ err: failure }, 'health check: the database does not answer');
    return reply.code(503).send({ status: 'unavailable', checks, reason: 'The database does not answer.', logref: request.id });
  });
}

/** Why the database does not answer a trivial query, or null when it does. */
function databaseFailure(engine: Engine): unknown {
  try {
    engine.db.prepare('SELECT 1').pluck().get();
    return null;
  } catch (err) {
    return err ?? new Error('The database failed without an error.');
  }
}
