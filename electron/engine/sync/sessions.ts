import { randomUUID } from '../platform/crypto.js';
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
/**
 * Fewest revisions a page reads at a time: when most of a window is not for
 * the device (held already, or hidden from its user), the rest of the page
 * is not read a few revisions per statement.
 */
const MIN_WINDOW = 100;
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

/** The device does not hold the record at this revision (it may hold an older one). */
const isWanted = (c: Candidate) => c.held === null || c.held < c.revision;

/**
 * What a session of a device that holds nothing will serve (`total`: its
 * total_count) and its first revision, as the general summary counts them,
 * without its look-up per revision: at a million contacts that is a million
 * look-ups of what the device holds and of whether each record exists
 * (record_revisions keeps deleted records), 1.4 s inside the start's
 * transaction, holding a SQLite hub's writes meanwhile. Instead:
 *
 * - the records of each type with a source that `@user` may see, counted in
 *   their tables (one count each), less those whose latest revision is past
 *   the snapshot (changed or made since: they belong to the next session;
 *   on SQLite the start's transaction leaves none, on PostgreSQL another
 *   node may commit meanwhile, and one statement reads one snapshot);
 * - plus the revisions up to the snapshot of types without a source (served
 *   as failed objects); the types logged are found a seek each on
 *   record_revisions' index (`logged`), not by reading every row.
 *
 * Exact as long as every record has its row in record_revisions (its
 * creation was logged), which syncing needs anyway: a record without one is
 * never served to any device. test/api/sync.test.ts checks the count against
 * what the session serves, on both databases.
 */
function firstSyncSummarySql(sources: SyncSources): string {
  const served = sources.typesSql();
  const window = 'rev.revision > @after AND rev.revision <= @snapshot';
  return `WITH RECURSIVE logged (type) AS (
      SELECT MIN(resource_type) FROM record_revisions
      UNION ALL
      SELECT (SELECT MIN(resource_type) FROM record_revisions WHERE resource_type > logged.type) FROM logged WHERE logged.type IS NOT NULL
    )
    SELECT ${sources.visibleCountSql()}
      - (SELECT COUNT(*) FROM record_revisions rev WHERE rev.revision > @snapshot AND rev.resource_type IN (${served}) AND ${sources.visibleSql('rev')})
      + (SELECT COUNT(*) FROM record_revisions rev
          WHERE rev.resource_type IN (SELECT type FROM logged WHERE type IS NOT NULL AND type NOT IN (${served})) AND ${window}) AS total,
      (SELECT rev.revision FROM record_revisions rev WHERE ${window} AND ${sources.visibleSql('rev')}
        ORDER BY rev.revision NULLS LAST LIMIT 1) AS first`;
}

/** A page being filled: its envelopes, and the records it serves by type (noted as served when it is complete). */
interface PageFill {
  items: string[];
  failedObjects: { id: number; type: string }[];
  served: Map<string, number[]>;
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
  private readonly window: Statement;
  private readonly summary: Statement;
  /** `summary` for a device that holds nothing yet: what a first sync receives (firstSyncSummarySql). */
  private readonly firstSummary: Statement;
  private readonly statements;
  /**
   * Device ids by user and UUID. A device's row is never removed, so an
   * acknowledgement (one a page) need not read it again: on PostgreSQL each
   * read is a round trip.
   */
  private readonly deviceIds = new Map<string, number>();

  constructor(private readonly ctx: EngineContext, private readonly sources: SyncSources, private readonly acks: Acknowledgements) {
    const { db } = ctx;
    const where = `FROM record_revisions rev
      LEFT JOIN sync_device_records held
        ON held.device_id = @device AND held.resource_type = rev.resource_type AND held.resource_id = rev.resource_id
      WHERE rev.revision > @after AND rev.revision <= @snapshot
        AND (held.revision IS NULL OR held.revision < rev.revision)
        AND (held.revision IS NOT NULL OR ${sources.visibleSql('rev')})`;
    this.summary = db.prepare(`SELECT COUNT(*) AS total, MIN(rev.revision) AS first ${where}`);
    this.firstSummary = db.prepare(firstSyncSummarySql(sources));
    // The next revisions and what the device holds of each (by primary key, a lookup per row: a join is
    // planned on PostgreSQL from statistics taken while the device held little, a nested loop over all it
    // holds for every revision). Ordered as the key is: NULLS LAST is PostgreSQL's default for an ascending
    // key, which the dialect would otherwise turn into NULLS FIRST, a sort of every revision that follows.
    this.window = db.prepare(`SELECT rev.revision, rev.resource_type AS type, rev.resource_id AS id,
        (SELECT held.revision FROM sync_device_records held
          WHERE held.device_id = @device AND held.resource_type = rev.resource_type AND held.resource_id = rev.resource_id) AS held
      FROM record_revisions rev WHERE rev.revision > @after AND rev.revision <= @snapshot ORDER BY rev.revision NULLS LAST LIMIT @limit`);
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
      // The session with its device's row, in one statement (each is a round trip on PostgreSQL, and every page asks).
      find: db.prepare(`SELECT s.id, s.device_id, s.snapshot, s.cursor, s.total_count, s.served_count, s.state, s.last_used_at,
          d.last_seen_at AS device_seen_at
        FROM sync_sessions s JOIN sync_devices d ON d.id = s.device_id WHERE s.id = ? AND d.user_id = ? AND d.uuid = ?`),
      advance: db.prepare('UPDATE sync_sessions SET cursor = ?, served_count = served_count + ?, last_used_at = ? WHERE id = ?'),
      drain: db.prepare("UPDATE sync_sessions SET state = 'drained', last_used_at = ? WHERE id = ?"),
      holdsAny: db.prepare('SELECT 1 FROM sync_device_records WHERE device_id = ? LIMIT 1'),
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
    const device = known ?? this.statements.device.get(actor.userId, uuid, { now }) as { id: number; watermark: number };
    if (known) this.seen(known.id, known.last_seen_at);
    this.remember(actor.userId, uuid, device.id);
    return device;
  }

  private remember(userId: number, uuid: string, deviceId: number): void {
    // A bound on memory: ids are read again after this many devices (a hub serves far fewer).
    if (this.deviceIds.size >= 10_000) this.deviceIds.clear();
    this.deviceIds.set(`${userId}:${uuid}`, deviceId);
  }

  private seen(deviceId: number, lastSeenAt: string): void {
    const now = this.now();
    if (lastSeenAt !== now) this.statements.seen.run(now, deviceId);
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
      const { total, first } = this.summarize(device, actor.userId, snapshot);
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

  /** What a session from the device's watermark to `snapshot` serves: how many items, and the first one's revision. */
  private summarize(device: { id: number; watermark: number }, userId: number, snapshot: number): { total: number; first: number | null } {
    const bounds = { device: device.id, user: userId, after: device.watermark, snapshot };
    if (device.watermark === 0 && this.statements.holdsAny.get(device.id) === undefined) {
      const counted = this.firstSummary.get({ user: userId, after: 0, snapshot }) as { total: number; first: number | null };
      // The two parts agree unless a record lacks its revision row (firstSyncSummarySql); then count the general way.
      if ((counted.first === null) === (counted.total === 0)) return counted;
    }
    return this.summary.get(bounds) as { total: number; first: number | null };
  }

  /** GET /v2/sync/:id/queues/main: the next page, or null (204) when the session has no more data. */
  page(actor: Actor, uuid: string, sessionId: string, origin: string): QueuePage | null {
    return this.ctx.db.transaction(() => {
      // A device that does not know the session (nor has a row yet) gets its 404 without one being made.
      const session = this.statements.find.get(sessionId, actor.userId, uuid) as (SessionRow & { device_seen_at: string }) | undefined;
      if (!session || this.expired(session)) throw notFound('sync_session', sessionId);
      this.seen(session.device_id, session.device_seen_at);
      this.remember(actor.userId, uuid, session.device_id);
      if (session.state === 'drained') return null;
      this.acks.writePendingOf(session.device_id);
      const { page, cursor } = this.fill(session.device_id, actor.userId, session, origin);
      const count = page.items.length + page.failedObjects.length;
      if (count === 0) {
        this.statements.drain.run(this.now(), session.id);
        return null;
      }
      for (const [type, ids] of page.served) this.statements.served.run(session.device_id, type, JSON.stringify(ids));
      this.statements.advance.run(cursor, count, this.now(), session.id);
      return { items: page.items, failedObjects: page.failedObjects, countLeft: Math.max(0, session.total_count - session.served_count - count) };
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
    const known = this.deviceIds.get(`${actor.userId}:${uuid}`);
    this.acks.enqueue(known ?? this.device(actor, uuid).id, keys);
  }

  /** Writes pending acknowledgements (before the engine closes). */
  flush(): void {
    this.acks.flush();
  }

  /**
   * The next page: revisions read in order from the cursor, a window at a
   * time (as many as the page has room for, at least MIN_WINDOW), until the
   * page is full or the snapshot ends; the new cursor is the last revision
   * looked at. Not a query for the first wanted revisions: PostgreSQL plans
   * that (and the visibility test, a hash of each whole table) over every
   * revision above the cursor, for every page. Visibility is the fetch's.
   */
  private fill(deviceId: number, userId: number, session: SessionRow, origin: string): { page: PageFill; cursor: number } {
    const page: PageFill = { items: [], failedObjects: [], served: new Map() };
    const room = () => QUEUE_PAGE_SIZE - page.items.length - page.failedObjects.length;
    let cursor = session.cursor;
    for (;;) {
      const limit = Math.max(room(), MIN_WINDOW);
      const rows = this.window.all({ device: deviceId, after: cursor, snapshot: session.snapshot, limit }) as Candidate[];
      const docs = this.documents(rows.filter(isWanted), userId, origin);
      for (const row of rows) {
        if (room() === 0) return { page, cursor };
        cursor = row.revision;
        if (isWanted(row)) this.add(page, row, docs.get(row.type)!);
      }
      if (room() === 0 || rows.length < limit) return { page, cursor };
    }
  }

  /** The JSON of the records the user may see, by type and id; null for a type without a source. */
  private documents(candidates: Candidate[], userId: number, origin: string): Map<string, Map<number, string> | null> {
    const docs = new Map<string, Map<number, string> | null>();
    for (const type of new Set(candidates.map((c) => c.type))) {
      const ids = candidates.filter((c) => c.type === type).map((c) => c.id);
      docs.set(type, this.sources.fetch(type, ids, userId, origin));
    }
    return docs;
  }

  /** A candidate's envelope on the page (a record it now may hold is noted as served), or nothing. */
  private add(page: PageFill, c: Candidate, found: Map<number, string> | null): void {
    if (!found) {
      page.failedObjects.push({ id: c.id, type: c.type });
      return;
    }
    const doc = found.get(c.id);
    // Gone, or hidden from this user, and the device never got it: nothing to send.
    if (doc === undefined && c.held === null) return;
    // Gone or hidden since the device got it: the device deletes its copy.
    const deleted = doc === undefined;
    const event = deleted ? 'deleted' : c.held ? 'updated' : 'created';
    const ackKey = formatAckKey({ type: c.type, id: c.id, revision: c.revision, deleted });
    // Written out rather than JSON.stringify'd (a fifth of a page's build): type and key are [a-z_0-9:] only.
    const sync = `{"event_type":"${event}","ack_key":"${ackKey}","revision":${c.revision}}`;
    page.items.push(`{"data":${deleted ? `{"id":${c.id}}` : doc},"meta":{"type":"${c.type}","sync":${sync}}}`);
    if (deleted) return;
    const served = page.served.get(c.type);
    if (served) served.push(c.id);
    else page.served.set(c.type, [c.id]);
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
