import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import type { Engine } from '../engine.js';
import { ApiProblem } from '../problems.js';
import { sharedRateLimitStore } from './rateLimitStore.js';
import { SupportProblem } from '../customObjects/problems.js';

/*
 * A server's request limits, per hour and per Authorization header (or
 * address without one), as the real service counts them; on a PostgreSQL hub
 * every node's count together. Only a server has them: the browser's engine
 * serves one person in process (electron/browser/dispatch.ts).
 */

const ONE_HOUR = '1 hour';
const callerOf = (request: { headers: { authorization?: string }; ip: string }) => request.headers.authorization ?? request.ip;
const retryIn = (ttl: number) => Math.ceil(ttl / 1000);

/** The /v2 limit, its refusal in the /v2 error envelope. */
export async function limitV2Rate(api: FastifyInstance, engine: Engine, max: number): Promise<void> {
  await api.register(rateLimit, {
    ...sharedRateLimitStore(engine, 'v2'),
    max,
    timeWindow: ONE_HOUR,
    keyGenerator: callerOf,
    errorResponseBuilder: (_request, context) => {
      const message = `Rate limit of ${context.max} requests per hour exceeded; retry in ${retryIn(context.ttl)} seconds.`;
      return new ApiProblem([{ resource: 'request', field: '', code: 'rate_limit_exceeded', message, details: message }]);
    },
  });
}

/** The custom-objects interface's limit (its own count), its refusal in that interface's style. */
export async function limitSupportRate(api: FastifyInstance, engine: Engine, max: number): Promise<void> {
  await api.register(rateLimit, {
    ...sharedRateLimitStore(engine, 'api-v2'),
    max,
    timeWindow: ONE_HOUR,
    keyGenerator: callerOf,
    errorResponseBuilder: (_request, context) => new SupportProblem(429, {
      error: 'TooManyRequests',
      description: `Rate limit of ${context.max} requests per hour exceeded; retry in ${retryIn(context.ttl)} seconds.`,
    }),
  });
}
