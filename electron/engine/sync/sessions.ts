import { randomUUID } from 'node:crypto';
import type { Statement } from '../db/database.js';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { ApiProblem, notFound } from '../problems.js';
import { formatAckKey } from './acks.js';
import type { Acknowledgements, AckKey } from './acks.js';
import type { SyncSources } from './sources.js';

/**
 * Items per queue page. Large enough that a 300 000-record initial sync is a
 * few hundred round trips (each page costs a request, an ack and a local
 * transaction on the device), small enough that a page of the largest
 * documents (contacts, about 1.5 KB each) stays near 1.5 MB in memory on
 * both sides and one page's database work stays in the tens of
 * milliseconds, so other requests to the hub are never held up for long.
 */
export const QUEUE_PAGE_SIZE = 1000;
/** A session not used for this long expires: its id answers 404 and it no longer counts as active. */
export const SESSION_IDLE_SECONDS = 10 * 60;
/** Active (open, not expired) sessions per user: one per device, so a user's devices are limited to this. */
export const MAX_ACTIVE_SESSIONS = 100;

export interface SyncSessionInfo {
  id: string;
  pages: number;
  totalCount: number;
}

export interface QueuePage {
  /** Item envelopes as JSON text. */
  items: string[];
  countLeft: number;
  failedObjects: { id: number; type: string }[];
}

interface SessionRow {
  id: string;
  device_id: number;
  snapshot: number;
  cursor: number;
  total_count: number;
  served_count: number;
  state: 'open' | 'drained' | 'closed';
  last_used_at: string;
}

interface Candidate {
  revision: number;
  type: string;
  id: number;
  /** The revision the device acknowledged; 0 = served, unacknowledged; null = not held. */
  held: number | null;
}

/**
 * The hub side of the sync protocol. A session is a snapshot: the records
 * whose latest revision (record_revisions) is above the device's watermark
 * and at or below the snapshot revision, that the device does not hold at
 * that revision, and that it may see — or that it holds and may no longer
 * see (deleted, or hidden from its user), which become `deleted` items.
 * Pages are read in revision order from a cursor, so the hub never holds
 * more than one page in memory, whatever the backlog.
 */
export class SyncSessions {
  private readonly candidates: Statement;
  private readonly summary: Statement;
  private readonly statements;

  constructor(private readonly ctx: EngineContext, private readonly sources: SyncSources, private readonly acks: Acknowledgements) {
    const { db } = ctx;
    const where = `FROM record_revisions rev
      LEFT JOIN sync_device_records held
        ON held.device_id = @device AND held.resource_type = rev.resource_type AND held.resource_id = rev.resource_id
      WHERE rev.revision > @after AND rev.revision <= @snapshot
        AND (held.revision IS NULL OR held.revision < rev.revision)
        AND (held.revision IS NOT NULL OR ${sources.visibleSql('rev')})`;
    this.candidates = db.prepare(`SELECT rev.revision, rev.resource_type AS type, rev.resource_id AS id, held.revision AS held ${where} ORDER BY rev.revision LIMIT @limit`);
    this.summary = db.prepare(`SELECT COUNT(*) AS total, MIN(rev.revision) AS first ${where}`);
    this.statements = {
      findDevice: db.prepare('SELECT id, watermark, last_seen_at FROM sync_devices WHERE user_id = ? AND uuid = ?'),
      seen: db.prepare('UPDATE sync_devices SET last_seen_at = ? WHERE id = ?'),
      device: db.prepare(`INSERT INTO sync_devices (user_id, uuid, created_at, last_seen_at) VALUES (?, ?, @now, @now)
        ON CONFLICT (user_id, uuid) DO UPDATE SET last_seen_at = excluded.last_seen_at RETURNING id, watermark`),
      setWatermark: db.prepare('UPDATE sync_devices SET watermark = ? WHERE id = ?'),
      expire: db.prepare("UPDATE sync_sessions SET state = 'closed' WHERE user_id = ? AND state = 'open' AND last_used_at < ?"),
      closeDevice: db.prepare("UPDATE sync_sessions SET state = 'closed' WHERE device_id = ? AND state = 'open'"),
      // Sessions are kept a day after their last use (so late requests get a clear 404), then removed.
      purge: db.prepare('DELETE FROM sync_sessions WHERE user_id = ? AND last_used_at < ?'),
      active: db.prepare("SELECT COUNT(*) AS count, MIN(last_used_at) AS oldest FROM sync_sessions WHERE user_id = ? AND state = 'open'"),
      insert: db.prepare(`INSERT INTO sync_sessions (id, device_id, user_id, snapshot, cursor, total_count, created_at, last_used_at)
        VALUES (@id, @device, @user, @snapshot, @cursor, @total, @now, @now)`),
      find: db.prepare('SELECT id, device_id, snapshot, cursor, total_count, served_count, state, last_used_at FROM sync_sessions WHERE id = ? AND device_id = ?'),
      advance: db.prepare('UPDATE sync_sessions SET cursor = ?, served_count = served_count + ?, last_used_at = ? WHERE id = ?'),
      drain: db.prepare("UPDATE sync_sessions SET state = 'drained', last_used_at = ? WHERE id = ?"),
      served: db.prepare(`INSERT OR IGNORE INTO sync_device_records (device_id, resource_type, resource_id, revision)
        SELECT ?, ?, CAST(value AS INTEGER), 0 FROM json_each(?)`),
    };
  }

  /**
   * The device's row (created on first contact); one per user and device
   * UUID. Its last_seen_at is written once a second at most: every request
   * of a sync asks, and a write is a commit.
   */
  device(actor: Actor, uuid: string): { id: number; watermark: number } {
    const now = this.now();
    const known = this.statements.findDevice.get(actor.userId, uuid) as { id: number; watermark: number; last_seen_at: string } | undefined;
    if (!known) return this.statements.device.get(actor.userId, uuid, { now }) as { id: number; watermark: number };
    if (known.last_seen_at !== now) this.statements.seen.run(now, known.id);
    return known;
  }

  /** POST /v2/sync/start: a new session, or null (204) when the device holds everything. */
  start(actor: Actor, uuid: string): SyncSessionInfo | null {
    this.acks.flush();
    return this.ctx.db.transaction(() => {
      const device = this.device(actor, uuid);
      this.retireSessions(actor.userId, device.id);
      const snapshot = this.ctx.changes.currentRevision();
      // Nothing changed since the device last held everything (a device polling an idle hub): nothing to count.
      if (device.watermark >= snapshot) return null;
      const bounds = { device: device.id, user: actor.userId, after: device.watermark, snapshot };
      const { total, first } = this.summary.get(bounds) as { total: number; first: number | null };
      // Everything up to just before the first item is held: later starts look only above it.
      const watermark = first === null ? snapshot : first - 1;
      // Unchanged on a device that is current: then a start writes nothing (within a second of its last request).
      if (watermark !== device.watermark) this.statements.setWatermark.run(watermark, device.id);
      if (total === 0) return null;
      const id = randomUUID();
      this.statements.insert.run({ id, device: device.id, user: actor.userId, snapshot, cursor: first! - 1, total, now: this.now() });
      return { id, pages: Math.ceil(total / QUEUE_PAGE_SIZE), totalCount: total };
    })();
  }

  /** GET /v2/sync/:id/queues/main: the next page, or null (204) when the session has no more data. */
  page(actor: Actor, uuid: string, sessionId: string, origin: string): QueuePage | null {
    return this.ctx.db.transaction(() => {
      const device = this.device(actor, uuid);
      const session = this.statements.find.get(sessionId, device.id) as SessionRow | undefined;
      if (!session || this.expired(session)) throw notFound('sync_session', sessionId);
      if (session.state === 'drained') return null;
      const candidates = this.candidates.all({
        device: device.id, user: actor.userId, after: session.cursor, snapshot: session.snapshot, limit: QUEUE_PAGE_SIZE,
      }) as Candidate[];
      if (candidates.length === 0) {
        this.statements.drain.run(this.now(), session.id);
        return null;
      }
      const page = this.build(candidates, device.id, actor.userId, origin);
      this.statements.advance.run(candidates[candidates.length - 1].revision, candidates.length, this.now(), session.id);
      return { ...page, countLeft: Math.max(0, session.total_count - session.served_count - candidates.length) };
    })();
  }

  /**
   * A device wrote a record through the REST interface (a replica replaying
   * its outbox): it holds that record now, so a later delete reaches it even
   * if it never pulled the record. Noted as served, not acknowledged, so the
   * record also comes once through its queue, which it applies idempotently.
   */
  noteHeld(actor: Actor, uuid: string, type: string, id: number): void {
    if (!this.sources.types.includes(type)) return;
    const device = this.device(actor, uuid);
    this.statements.served.run(device.id, type, JSON.stringify([id]));
  }

  /** POST /v2/sync/ack: answered at once; the keys are written in the background. */
  acknowledge(actor: Actor, uuid: string, keys: AckKey[]): void {
    this.acks.enqueue(this.device(actor, uuid).id, keys);
  }

  /** Writes pending acknowledgements (before the engine closes). */
  flush(): void {
    this.acks.flush();
  }

  /** The page's envelopes, in revision order; records it now may hold are noted as served. */
  private build(candidates: Candidate[], deviceId: number, userId: number, origin: string): Omit<QueuePage, 'countLeft'> {
    const docs = new Map<string, Map<number, string> | null>();
    for (const type of new Set(candidates.map((c) => c.type))) {
      const ids = candidates.filter((c) => c.type === type).map((c) => c.id);
      const found = this.sources.fetch(type, ids, userId, origin);
      docs.set(type, found);
      if (found && found.size > 0) this.statements.served.run(deviceId, type, JSON.stringify([...found.keys()]));
    }
    const items: string[] = [];
    const failedObjects: { id: number; type: string }[] = [];
    for (const c of candidates) {
      const found = docs.get(c.type);
      if (!found) {
        failedObjects.push({ id: c.id, type: c.type });
        continue;
      }
      const doc = found.get(c.id);
      // Gone, or hidden from this user since the device got it: the device deletes its copy.
      if (doc === undefined && c.held === null) continue;
      const deleted = doc === undefined;
      const event = deleted ? 'deleted' : c.held ? 'updated' : 'created';
      const ackKey = formatAckKey({ type: c.type, id: c.id, revision: c.revision, deleted });
      // Written out rather than JSON.stringify'd (a fifth of a page's build): type and key are [a-z_0-9:] only.
      const sync = `{"event_type":"${event}","ack_key":"${ackKey}","revision":${c.revision}}`;
      items.push(`{"data":${deleted ? `{"id":${c.id}}` : doc},"meta":{"type":"${c.type}","sync":${sync}}}`);
    }
    return { items, failedObjects };
  }

  /** Expires idle sessions, closes the device's previous one, and refuses a start beyond the limit. */
  private retireSessions(userId: number, deviceId: number): void {
    const now = this.ctx.clock.now().getTime();
    this.statements.expire.run(userId, isoSeconds(new Date(now - SESSION_IDLE_SECONDS * 1000)));
    this.statements.purge.run(userId, isoSeconds(new Date(now - 24 * 3600 * 1000)));
    // A device has one session at a time: starting again abandons the previous one.
    this.statements.closeDevice.run(deviceId);
    const { count, oldest } = this.statements.active.get(userId) as { count: number; oldest: string | null };
    if (count >= MAX_ACTIVE_SESSIONS) {
      const retryAfter = Math.max(1, Math.ceil((Date.parse(oldest!) + SESSION_IDLE_SECONDS * 1000 - now) / 1000));
      const message = `This user already has ${count} active sync sessions, the most allowed (one per device); the oldest idle one expires in ${retryAfter} seconds.`;
      throw new ApiProblem([{ resource: 'sync_session', field: '', code: 'too_many_sessions', message, details: message }], { retryAfter });
    }
  }

  private expired(session: SessionRow): boolean {
    if (session.state === 'closed') return true;
    return Date.parse(session.last_used_at) + SESSION_IDLE_SECONDS * 1000 < this.ctx.clock.now().getTime();
  }

  private now(): string {
    return isoSeconds(this.ctx.clock.now());
  }
}
