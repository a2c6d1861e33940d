import type { FastifyInstance } from 'fastify';
import type { Engine } from '../../engine.js';
import { JSON_TYPE } from '../reply.js';

export const HEALTH_PATH = '/health';

/**
 * `GET /health` for load balancers and uptime checks: no token, outside
 * /v2. 200 `{"status":"ok"}` when the database answers a trivial query,
 * otherwise 503 with the reason; the error itself goes to the log under the
 * answer's logref (it may name files, which callers without a token need not see).
 */
export function healthRoutes(app: FastifyInstance, engine: Engine): void {
  app.get(HEALTH_PATH, async (request, reply) => {
    reply.type(JSON_TYPE).header('Cache-Control', 'no-store');
    try {
      engine.db.prepare('SELECT 1').pluck().get();
      return { status: 'ok' };
    } catch (err) {
      request.log.error({ err }, 'health check: the database does not answer');
      return reply.code(503).send({ status: 'unavailable', reason: 'The database does not answer.', logref: request.id });
    }
  });
}
