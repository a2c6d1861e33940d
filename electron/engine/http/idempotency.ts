import { sha256Hex } from '../platform/crypto.js';
import { utf8Bytes } from '../bytes.js';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { onWriteRoutes, type AnswerKeeper } from './writeRouteHooks.js';
import type { Engine } from '../engine.js';
import { isoSeconds } from '../clock.js';
import { ApiProblem, problem } from '../problems.js';
import { actorOf } from './auth.js';

/** How long an answer is kept for replays. */
export const IDEMPOTENCY_KEY_SECONDS = 24 * 3600;
/** Old keys are removed at most this often (a sweep of the index by age). */
const PURGE_EVERY_MS = 60_000;
/** A request still unanswered after this long is taken as lost (its connection gone before the answer): its key may run again. */
const IN_FLIGHT_MS = 60_000;
const KEY = /^[\x21-\x7e]{1,255}$/;

declare module 'fastify' {
  interface FastifyRequest {
    idempotencyKey: string | null;
    idempotencyFingerprint: string;
    /** When this request claimed its key (the claim row's created_at). */
    idempotencyClaimedAt: string;
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
 * kept, so a retry runs again. The answer is written in the write's own
 * transaction where the route allows it, else when it is sent. A request
 * still running holds its key in the table (a row without a status, claimed
 * by one statement before the request runs), so that every engine worker and
 * every node of a PostgreSQL hub sees it, not only the process that took it;
 * a claim whose request never answered (its process died) lapses after
 * IN_FLIGHT_MS. The replica sends one key per outbox entry, so a create whose
 * answer was lost is never made twice.
 *
 * A request that failed for a fault of the storage (the database restarting,
 * a full disk: problems.ts, faultOf) must let its key run again at once, so
 * the client's retry succeeds exactly once. Its write was rolled back, and its
 * claim is released when its answer is sent; but that release can fail for
 * the same fault. Then the claim is remembered here (ClaimsToRelease) and
 * released as soon as the database answers again: before this process's next
 * request with a key, and by a timer every RELEASE_RETRY_MS meanwhile (a
 * retry may come to another node, which only sees the claim). The release is
 * of that claim only (its fingerprint and time), never of a newer one. A
 * failed release is never an error of the answer (it would replace the 503
 * the client must see).
 */
export function idempotentWrites(app: FastifyInstance, engine: Engine): void {
  const { db } = engine;
  const find = db.prepare('SELECT fingerprint, status, content_type, body, created_at FROM idempotency_keys WHERE user_id = ? AND key = ?');
  // Only the request's own claim (still unanswered, its time and fingerprint), never a newer one another request took since.
  const release = db.prepare('DELETE FROM idempotency_keys WHERE user_id = ? AND key = ? AND status IS NULL AND fingerprint = ? AND created_at = ?');
  const unreleased = new ClaimsToRelease((claim) => release.run(claim.userId, claim.key, claim.fingerprint, claim.claimedAt), app.log);
  const save = db.prepare(`INSERT INTO idempotency_keys (user_id, key, fingerprint, status, content_type, body, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (user_id, key) DO UPDATE SET fingerprint = excluded.fingerprint, status = excluded.status, content_type = excluded.content_type, body = excluded.body, created_at = excluded.created_at`);
  const purge = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  // A key taken for a request about to run: one statement, so two requests (on two workers or nodes) cannot both win.
  const claim = db.prepare(`INSERT INTO idempotency_keys (user_id, key, fingerprint, status, content_type, body, created_at) VALUES (?, ?, ?, NULL, NULL, NULL, ?)
    ON CONFLICT (user_id, key) DO NOTHING`);
  // A lapsed claim or a day-old answer, taken over only if nobody else took it meanwhile (its time unchanged).
  const takeOver = db.prepare(`UPDATE idempotency_keys SET fingerprint = ?, status = NULL, content_type = NULL, body = NULL, created_at = ?
    WHERE user_id = ? AND key = ? AND created_at = ?`);
  let purgedAt = 0;
  app.decorateRequest('idempotencyKey', null);
  app.decorateRequest('idempotencyFingerprint', '');
  app.decorateRequest('idempotencyClaimedAt', '');

  const preHandler: preHandlerAsyncHookHandler = async (request, reply) => {
    const header = request.headers['idempotency-key'];
    if (header === undefined) return;
    const key = Array.isArray(header) ? null : header.trim();
    if (!key || !KEY.test(key)) throw problem('invalid_header', 'Idempotency-Key must be 1 to 255 visible ASCII characters, sent once.', 'Idempotency-Key');
    const userId = actorOf(request).userId;
    // Claims whose release failed while the database could not answer go first, if it answers now.
    unreleased.retry();
    const fingerprint = fingerprintOf(request);
    const now = engine.clock.now().getTime();
    const found = find.get(userId, key) as StoredAnswer | undefined;
    // Answers are kept a day, claims a minute: an older row starts afresh.
    const live = found && Date.parse(found.created_at) + (found.status === null ? IN_FLIGHT_MS : IDEMPOTENCY_KEY_SECONDS * 1000) > now ? found : undefined;
    if (live && live.fingerprint !== fingerprint) throw problem('incorrect_value', 'This Idempotency-Key was already used for a different request.', 'Idempotency-Key');
    if (live && live.status === null) throw stillRunning();
    if (live) {
      reply.header('Idempotent-Replayed', 'true').code(live.status!);
      if (live.content_type) reply.type(live.content_type);
      return reply.send(live.body ?? undefined);
    }
    if (now - purgedAt > PURGE_EVERY_MS) {
      purgedAt = now;
      purge.run(isoSeconds(new Date(now - IDEMPOTENCY_KEY_SECONDS * 1000)));
    }
    const at = isoSeconds(new Date(now));
    // An old row is taken over, or claimed afresh if the purge just removed it; neither: another request took the key.
    const taken = (found !== undefined && takeOver.run(fingerprint, at, userId, key, found.created_at).changes === 1) || claim.run(userId, key, fingerprint, at).changes === 1;
    if (!taken) throw stillRunning();
    request.idempotencyKey = key;
    request.idempotencyFingerprint = fingerprint;
    request.idempotencyClaimedAt = at;
  };

  // The answer is kept in the write's transaction where the route allows it (writeRouteHooks.ts), else when sent.
  const keep: AnswerKeeper = (request, answer) => {
    const key = request.idempotencyKey;
    if (key === null || !request.actor) return;
    const userId = request.actor.userId;
    if (answer.status >= 500 || answer.status === 409 || answer.status === 429) {
      unreleased.release({ userId, key, fingerprint: request.idempotencyFingerprint, claimedAt: request.idempotencyClaimedAt }, request.log);
    } else {
      save.run(userId, key, request.idempotencyFingerprint, answer.status, answer.contentType, answer.body, isoSeconds(engine.clock.now()));
    }
  };
  onWriteRoutes(app, { preHandler, keep });
}

interface Claim {
  userId: number;
  key: string;
  fingerprint: string;
  claimedAt: string;
}

/** How often claims whose release failed are tried again while the database cannot answer. */
const RELEASE_RETRY_MS = 1_000;

/**
 * Claims of requests that failed, whose release failed too (the database
 * could not answer: it restarted, or the disk was full): released as soon
 * as it answers again, by `retry` (before a request with a key) or the timer.
 */
class ClaimsToRelease {
  /** By user and key, with when each was remembered: one older than IN_FLIGHT_MS has lapsed anyway, and is let go. */
  private readonly pending = new Map<string, Claim & { since: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(private readonly releaseOne: (claim: Claim) => void, private readonly log: FastifyBaseLogger) {}

  /** Releases the claim now, or remembers it for later if the database cannot take it. Never throws. */
  release(claim: Claim, log: FastifyBaseLogger): void {
    try {
      this.releaseOne(claim);
    } catch (err) {
      log.warn({ err }, 'the Idempotency-Key of a failed request could not be released yet; it will be as soon as the database answers');
      this.pending.set(JSON.stringify([claim.userId, claim.key]), { ...claim, since: performance.now() });
      this.schedule();
    }
  }

  /** Releases the remembered claims, in order, until one fails (the database still cannot answer). */
  retry(): void {
    for (const [id, claim] of this.pending) {
      if (performance.now() - claim.since > IN_FLIGHT_MS) {
        this.pending.delete(id);
        continue;
      }
      try {
        this.releaseOne(claim);
      } catch (err) {
        this.log.debug({ err }, 'releasing a remembered Idempotency-Key failed again');
        this.schedule();
        return;
      }
      this.pending.delete(id);
    }
  }

  private schedule(): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.retry();
    }, RELEASE_RETRY_MS);
    // Nothing to keep a closing process alive for: a claim left lapses after IN_FLIGHT_MS anyway (and the timer stops then).
    this.timer.unref();
  }
}

/** The answer to a key whose first request is still running: retry in a moment. */
function stillRunning(): ApiProblem {
  return new ApiProblem([{ resource: 'request', field: 'Idempotency-Key', code: 'conflict', message: 'A request with this Idempotency-Key is still being handled; retry shortly.', details: '' }], { retryAfter: 1 });
}

/** The request a key stands for: method, path with query, and body. */
function fingerprintOf(request: FastifyRequest): string {
  const head = utf8Bytes(`${request.method} ${request.url}\n`);
  // Uploads arrive as raw bytes; everything else as parsed JSON or form fields.
  const body = request.body instanceof Uint8Array ? request.body : utf8Bytes(JSON.stringify(request.body ?? null));
  const whole = new Uint8Array(head.length + body.length);
  whole.set(head);
  whole.set(body, head.length);
  return sha256Hex(whole);
}
