import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Engine } from '../engine.js';
import { isoSeconds } from '../clock.js';
import { ApiProblem, problem } from './problem.js';
import { actorOf } from './auth.js';

/** How long an answer is kept for replays. */
export const IDEMPOTENCY_KEY_SECONDS = 24 * 3600;
/** A first request still unanswered after this long is taken as lost (its process died) and may run again. */
const PENDING_SECONDS = 60;
const KEY = /^[\x21-\x7e]{1,255}$/;
const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
  }
}

interface StoredAnswer {
  fingerprint: string;
  status: number | null;
  content_type: string | null;
  body: string | null;
  created_at: string;
}

/**
 * `Idempotency-Key` on writes (the IETF httpapi draft's header): the first
 * request with a key runs and its answer is kept for a day; the same key
 * again gets that answer (with `Idempotent-Replayed: true`) without running
 * anything. Keys are per user. The same key on a different request is a 422;
 * while the first is still running, a 409. Answers of 5xx, 409 and 429 are not
 * kept, so a retry runs again. The replica sends one key per outbox entry, so
 * a create whose answer was lost is never made twice.
 */
export function idempotentWrites(app: FastifyInstance, engine: Engine): void {
  const { db } = engine;
  const find = db.prepare('SELECT fingerprint, status, content_type, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?');
  const claim = db.prepare('INSERT INTO idempotency_keys (user_id, key, fingerprint, created_at) VALUES (?, ?, ?, ?)');
  const release = db.prepare('DELETE FROM idempotency_keys WHERE user_id = ? AND key = ?');
  const save = db.prepare('UPDATE idempotency_keys SET status = ?, content_type = ?, body = ? WHERE user_id = ? AND key = ?');
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  app.decorateRequest('idempotencyKey', null);

  app.addHook('preHandler', async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined || !WRITES.has(request.method)) return;
    const key = Array.isArray(header) ? null : header.trim();
    if (!key || !KEY.test(key)) throw problem('invalid_header', 'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once.', 'Idempotency-Key');
    const userId = actorOf(request).userId;
    const fingerprint = fingerprintOf(request);
    const now = engine.clock.now().getTime();
    const found = find.get(userId, key) as StoredAnswer | undefined;
    // Answers are kept a day: an older key starts afresh.
    const stored = found && Date.parse(found.created_at) + IDEMPOTENCY_KEY_SECONDS * 1000 > now ? found : undefined;
    if (found && !stored) release.run(userId, key);
    if (stored) {
      if (stored.fingerprint !== fingerprint) {
        throw problem('incorrect_value', 'This Idempotency-Key was already used for a different request.', 'Idempotency-Key');
      }
      if (stored.status !== null) {
        reply.header('Idempotent-Replayed', 'true').code(stored.status);
        if (stored.content_type) reply.type(stored.content_type);
        return reply.send(stored.body ?? undefined);
      }
      if (Date.parse(stored.created_at) + PENDING_SECONDS * 1000 > now) {
        throw new ApiProblem([{ resource: 'request', field: 'Idempotency-Key', code: 'conflict', message: 'A request with this Idempotency-Key is still being handled; retry shortly.', details: '' }], { 'Retry-After': '1' });
      }
      release.run(userId, key);
    }
    purge.run(isoSeconds(new Date(now - IDEMPOTENCY_KEY_SECONDS * 1000)));
    claim.run(userId, key, fingerprint, isoSeconds(new Date(now)));
    request.idempotencyKey = key;
  });

  app.addHook('onSend', async (request, reply, payload) => {
    const key = request.idempotencyKey;
    if (key === null || !request.actor) return payload;
    const status = reply.statusCode;
    if (status >= 500 || status === 409 || status === 429) release.run(request.actor.userId, key);
    else save.run(status, String(reply.getHeader('content-type') ?? '') || null, typeof payload === 'string' ? payload : null, request.actor.userId, key);
    return payload;
  });
}

/** The request a key stands for: method, path with query, and body. */
function fingerprintOf(request: FastifyRequest): string {
  const hash = createHash('sha256').update(`${request.method} ${request.url}\n`);
  // Uploads arrive as raw bytes; everything else as parsed JSON or form fields.
  return hash.update(Buffer.isBuffer(request.body) ? request.body : JSON.stringify(request.body ?? null)).digest('hex');
}
