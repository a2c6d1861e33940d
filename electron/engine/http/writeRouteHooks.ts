import type { FastifyBaseLogger, FastifyInstance, FastifyReply, FastifyRequest, preHandlerAsyncHookHandler, onSendAsyncHookHandler, RouteOptions } from 'fastify';
import { CommitFailedError, type CommitGroups } from '../db/commitGroups.js';
import { DATABASE_RETRY_AFTER_SECONDS, faultOf, temporarilyUnavailable } from '../problems.js';
import { JSON_TYPE } from './reply.js';

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** A write's answer, as the hooks that keep a record of it see it. */
export interface WriteAnswer {
  status: number;
  contentType: string | null;
  body: string | null;
}

/** Records something about a write's answer in the database (its replay, the record a device now holds). */
export type AnswerKeeper = (request: FastifyRequest, answer: WriteAnswer) => void;

declare module 'fastify' {
  interface FastifyRequest {
    /** True once the keepers ran inside the write's own transaction (answerInTransaction). */
    answerKept: boolean;
  }
  interface FastifyContextConfig {
    answerKeepers?: AnswerKeeper[];
  }
}

/**
 * Hooks that only concern writes (idempotency keys, what a device wrote),
 * attached to the write routes registered after this call — reads, the bulk
 * of the traffic, do not pay for them. Call before registering routes.
 *
 * `keep` records the answer: inside the write's transaction when the route
 * answers through `answerInTransaction` (one commit for the change and its
 * records, which is most of what a pushed edit costs the hub), otherwise when
 * the answer is sent (errors, and routes that write in other ways). It runs
 * before this call's `onSend`.
 */
export function onWriteRoutes(app: FastifyInstance, hooks: { preHandler?: preHandlerAsyncHookHandler; onSend?: onSendAsyncHookHandler; keep?: AnswerKeeper }, methods = WRITES): void {
  if (!app.hasRequestDecorator('answerKept')) app.decorateRequest('answerKept', false);
  const { keep } = hooks;
  const keepOnSend: onSendAsyncHookHandler | undefined = keep && (async (request, reply, payload) => {
    if (request.answerKept) return payload;
    try {
      keep(request, { status: reply.statusCode, contentType: String(reply.getHeader('content-type') ?? '') || null, body: typeof payload === 'string' ? payload : null });
    } catch (err) {
      // The answer is decided (and what it did, done or rolled back): a record of it that fails must not replace it with another.
      request.log.error({ err }, 'the record of a write\'s answer could not be kept');
    }
    return payload;
  });
  const onSend = [keepOnSend, hooks.onSend].filter((hook) => hook !== undefined);
  app.addHook('onRoute', (route: RouteOptions) => {
    const routeMethods = Array.isArray(route.method) ? route.method : [route.method];
    if (!routeMethods.some((m) => methods.has(m))) return;
    if (hooks.preHandler) route.preHandler = [...asList(route.preHandler), hooks.preHandler];
    if (onSend.length > 0) route.onSend = [...asList(route.onSend), ...onSend];
    if (keep) route.config = { ...route.config, answerKeepers: [...(route.config?.answerKeepers ?? []), keep] };
  });
}

/**
 * Runs a write and builds its JSON answer in one transaction (a savepoint of
 * the commit group, db/commitGroups.ts), in which the route's keepers also
 * record the answer; sends it once committed. If anything throws, all of it
 * rolls back and the error answer is kept when sent.
 */
export async function answerInTransaction(commits: CommitGroups, request: FastifyRequest, reply: FastifyReply, write: () => string | null, status = 200): Promise<FastifyReply> {
  const keepers = request.routeOptions.config.answerKeepers ?? [];
  const body = await unsavedAsProblem(commits.run(() => {
    const answer = write();
    for (const keep of keepers) keep(request, { status, contentType: answer === null ? null : JSON_TYPE, body: answer });
    return answer;
  }), request.log);
  request.answerKept = true;
  reply.code(status);
  return body === null ? reply.send() : reply.type(JSON_TYPE).send(body);
}

/**
 * Answers wait for the commit group open when they are sent: a read may have
 * seen its writes, which must not be shown unless they are kept.
 */
export function answerAfterCommit(app: FastifyInstance, commits: CommitGroups): void {
  // A callback hook, not an async one: every answer passes here, and most find no group open.
  app.addHook('onSend', (request, reply, payload, done) => {
    const pending = commits.pending();
    if (!pending) return done(null, payload);
    // An error answer shows nothing of the group's writes, and is already the error handler's: it goes as it is
    // (an error here would make Fastify answer with its own body, outside the envelope).
    const keep = (err: Error) => (reply.statusCode >= 400 ? done(null, payload) : done(err));
    unsavedAsProblem(pending, request.log).then(() => done(null, payload), keep);
  });
}

/** A failed commit is the server's trouble, not the request's: a 503 to try again (its cause named where known: a full disk, a database gone). */
async function unsavedAsProblem<T>(work: Promise<T>, log: FastifyBaseLogger): Promise<T> {
  try {
    return await work;
  } catch (err) {
    if (!(err instanceof CommitFailedError)) throw err;
    log.warn({ err }, 'a commit failed');
    throw faultOf(err)?.problem ?? temporarilyUnavailable('The change could not be saved, and nothing of it was kept; try again.', DATABASE_RETRY_AFTER_SECONDS);
  }
}

function asList<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}
