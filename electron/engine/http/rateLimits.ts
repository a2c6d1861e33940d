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

/** An answer when the limit is reached, in words of `max` and the seconds `ttl` until it opens again. */
type Refusal = (max: number, ttl: number) => Error;

async function limitRate(api: FastifyInstance, engine: Engine, scope: string, max: number, refusal: Refusal): Promise<void> {
  await api.register(rateLimit, {
    ...sharedRateLimitStore(engine, scope),
    max,
    timeWindow: '1 hour',
    keyGenerator: (request) => request.headers.authorization ?? request.ip,
    errorResponseBuilder: (_request, context) => refusal(context.max, context.ttl),
  });
}

const exceeded = (max: number, ttl: number) => `Rate limit of ${max} requests per hour exceeded; retry in ${Math.ceil(ttl / 1000)} seconds.`;

/** The /v2 limit, its refusal in the /v2 error envelope. */
export function limitV2Rate(api: FastifyInstance, engine: Engine, max: number): Promise<void> {
  return limitRate(api, engine, 'v2', max, (limit, ttl) => {
    const message = exceeded(limit, ttl);
    return new ApiProblem([{ resource: 'request', field: '', code: 'rate_limit_exceeded', message, details: message }]);
  });
}

/** The custom-objects interface's limit (its own count), its refusal in that interface's style. */
export function limitSupportRate(api: FastifyInstance, engine: Engine, max: number): Promise<void> {
  return limitRate(api, engine, 'api-v2', max, (limit, ttl) => new SupportProblem(429, { error: 'TooManyRequests', description: exceeded(limit, ttl) }));
}
