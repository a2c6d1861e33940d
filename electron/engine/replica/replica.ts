import { randomUUID } from '../platform/crypto.js';
import { isTransportError } from '../platform/hubTransport.js';
import type { Engine } from '../engine.js';
import { isoSeconds } from '../clock.js';
import { LocalRecords } from './localRecords.js';
import type { Outbox, OutboxEntry } from '../changes/outbox.js';
import { pullOnce, SyncHttpError, type PullResult, type PullTimings, type SyncItem } from './pull.js';
import { UpstreamCredentials } from './upstream.js';
import { hubFetch, type HubFetch, type HubResponse } from './hubFetch.js';
import { asBulkLoad, finishBulkLoad, type BulkLoadEnd } from './bulkLoad.js';
import { WriteGate } from './writeGate.js';
import { boundHeapGrowth } from '../platform/heap.js';
import { HubEvents } from './hubEvents.js';
import { WatchedValue } from '../watchedValue.js';
import type { SignInResult } from '../auth/signIn.js';
import type { ReplicaState, ReplicaStatus, SyncConflict, SyncIssue } from '../../../shared/resources/replica.js';
import type { SyncConflicts } from '../changes/conflicts.js';
import { editOf, pathsOf, valueAt, type Json } from '../changes/fieldPaths.js';
import { updateLocally } from '../sync/localWrites.js';
import type { Actor, LocalRecordService } from '../context.js';
import { sqliteOf } from '../db/database.js';
import { HubUnreachableError } from './hubUnreachable.js';

export interface ReplicaOptions {
  /** The hub's base URL (`https://crm.example.com`). */
  hubUrl: string;
  /** An access token of the hub with the read, write and sync scopes (a personal one, say)… */
  token?: string;
  /** …or credentials that sign in and renew (none yet: the replica connects at the first sign-in). */
  credentials?: UpstreamCredentials;
  /** The HTTP client to the hub (hubFetch; tests pass a cable they can cut). */
  fetch?: HubFetch;
  /** Where the technical side of sync failures goes (the screens get plain words); default: nowhere. */
  log?: (line: string) => void;
  /**
   * The hub ended this device's session: it refused to renew the tokens (revoked,
   * or the person deactivated). Called once the replica has stopped; the
   * browser's engine removes its data. Without it the replica says so in its
   * status and syncs again once someone signs in.
   */
  onSignedOut?: () => void;
}

/** What the rep is told when the hub ended this device's session. */
export const SESSION_ENDED = 'The hub ended this session: sign in again to sync.';

/** What the rep is told when the hub is out of reach; the technical reason goes to the log. */
export const HUB_UNREACHABLE = 'The hub cannot be reached. Your changes are kept on this device and sent when it is back.';

/** How soon after a local change the replica syncs, and how often it looks for the hub's changes otherwise. */
export const SYNC_DELAY_AFTER_CHANGE_MS = 1000;
export const SYNC_INTERVAL_MS = 5_000;
/** How often the status is looked at for watchers (the status events of open screens). */
const WATCH_MS = 250;
/** Changes in flight to the hub at once while pushing (each request costs the hub a transaction; overlapping hides the round trips). */
export const PUSH_WINDOW = 32;

/** How one push went: everything it could send was sent, or the hub was out of reach. */
export type PushOutcome = 'done' | 'unreachable';

/** How long a sync status may keep "up to date" after the hub's change stream dropped, while it is asked again. */
export const HUB_LOST_GRACE_MS = 500;

/** The hub could not be asked for something an operation needs (a discard, while offline). */
export { HubUnreachableError };

/**
 * Where a first sync's time went (ms): the pull's parts, then `finishingMs`,
 * the bulk load's end (secondary indexes and search tables built at once).
 */
export interface FirstSyncTimings extends PullTimings {
  records: number;
  finishingMs: number;
  /** The end's parts, when it ran on two threads (bulkLoad.ts). */
  end: BulkLoadEnd | null;
}

/** A first sync's time split as one line (the replica's log, the bench). */
export function describeFirstSync(t: FirstSyncTimings): string {
  const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const part = (ms: number) => `${seconds(ms)} (${Math.round((ms / t.totalMs) * 100)} %)`;
  const commit = (ms: number | null) => (ms === null ? ' with its commit' : ` and the commit ${seconds(ms)}`);
  const end = t.end === null ? ''
    : ` (secondary indexes ${seconds(t.end.indexesMs)} ${t.end.on.indexes} beside search indexes ${seconds(t.end.searchMs)} ${t.end.on.search},`
      + ` then their copy ${seconds(t.end.copyMs)}${commit(t.end.commitMs)})`;
  return `first sync of ${t.records} records in ${seconds(t.totalMs)}: waiting on the hub ${part(t.waitingMs)}, parsing ${part(t.parsingMs)}, `
    + `writing rows ${part(t.applyingMs)}, indexes and search at the end ${part(t.finishingMs)}${end}`;
}

/**
 * The desktop replica: the rep's own engine, kept in step with a hub.
 * `sync()` pushes the outbox (each local change replayed in order as its REST
 * call, with the entry's Idempotency-Key, so a retry never applies twice),
 * then pulls what changed on the hub (start → pages → apply → ack). Records
 * created here carry negative ids until the hub answers; then the id is
 * rewritten everywhere. Pulled state is written to the visible tables only
 * for records without local changes in flight, so a local edit stays visible
 * until the hub has it (the hub's newer state comes with the next pull after
 * the push; a discarded change asks the hub for its current state). A change the
 * hub refuses stays in the outbox as an issue; nothing is dropped.
 */
export class Replica {
  private readonly outbox: Outbox;
  private readonly conflicts: SyncConflicts;
  /** Read once: it never changes, and every pushed change sends it. */
  private knownDeviceUuid: string | null = null;
  private readonly local: LocalRecords;
  private readonly fetch: HubFetch;
  private readonly credentials: UpstreamCredentials;
  private running: Promise<void> | null = null;
  /** A sync asked for while one ran: it runs right after, so a change made meanwhile is not left to the next poll. */
  private queued: Promise<ReplicaStatus> | null = null;
  private lastSyncedAt: string | null;
  private lastError: string | null = null;
  private reachable = true;
  private readonly watched = new WatchedValue(() => this.status(), WATCH_MS, (status) => JSON.stringify(status));
  /** Pages pulled and changes accepted in this run: with the change log's revision, what `local_revision` is made of. */
  private applied = 0;
  private timer: NodeJS.Timeout | null = null;
  /** The hub user the credentials belong to, once asked (`connectedAs`). */
  private hubUserId: number | null = null;
  private soon: NodeJS.Timeout | null = null;
  /** The hub's change stream, while started. */
  private events: HubEvents | null = null;
  private lostTimer: NodeJS.Timeout | null = null;
  /** The last technical failure logged, so a hub that stays down is logged once, not every few seconds. */
  private lastLogged = '';
  /** How this run's first sync spent its time, once it has run (for the log and the bench). */
  firstSync: FirstSyncTimings | null = null;
  /** Where the app's local writes wait while the first sync's end holds the write lock (routes/replica.ts). */
  readonly writes = new WriteGate();

  constructor(private readonly engine: Engine, private readonly options: ReplicaOptions) {
    if (!engine.ctx.replica) throw new Error('Replica needs an engine opened with { replica: true }.');
    this.outbox = engine.ctx.replica.outbox;
    this.conflicts = engine.ctx.replica.conflicts;
    this.local = new LocalRecords(engine.ctx);
    this.fetch = options.fetch ?? hubFetch;
    this.credentials = options.credentials ?? new UpstreamCredentials(options.hubUrl, options.token ?? null, null, this.fetch);
    this.credentials.onRefused = () => this.sessionEnded();
    // A first sync that was cut off by the process ending: put its indexes right before anything reads them.
    finishBulkLoad(sqliteOf(engine.db));
    boundHeapGrowth();
    this.lastSyncedAt = this.setting('last_synced_at');
  }

  /**
   * Signs a person in to this replica by asking the hub (a replica keeps no
   * passwords): their user record comes from the hub, and the first sign-in
   * connects the replica if it had no credentials.
   */
  async signIn(email: string, password: string): Promise<SignInResult> {
    let answer;
    try {
      answer = await this.credentials.signIn(email, password);
    } catch (err) {
      this.log(`sign-in: the hub cannot be reached (${(err as Error).message})`);
      return { ok: false, unavailable: true, message: 'The hub cannot be reached to check your password. Try again when this device is online.' };
    }
    if (!answer.user) return { ok: false, message: answer.message };
    this.adoptUser(answer.user);
    void this.sync();
    return { ok: true, userId: answer.user.id };
  }

  /** Whether the replica holds hub tokens (kept from a sign-in, or given): without them it cannot sync. */
  hasCredentials(): boolean {
    return this.credentials.token !== null;
  }

  /** Stops syncing and asks the hub to revoke the replica's tokens (best effort: see UpstreamCredentials.revoke). */
  async signOut(): Promise<void> {
    await this.stop();
    await this.credentials.revoke();
  }

  /**
   * The hub refused to renew the tokens: nothing more can sync until someone
   * signs in again, and the person is told; in a browser the session ends.
   */
  private sessionEnded(): void {
    this.lastError = SESSION_ENDED;
    this.log('sign-in: the hub refused to renew this device\'s tokens; nothing syncs until someone signs in again');
    const { onSignedOut } = this.options;
    if (onSignedOut) void this.stop().then(onSignedOut);
  }

  /** Keeps the hub's record of the person using this replica, so it can act for them before its first sync. */
  adoptUser(user: { id: number } & Record<string, unknown>): void {
    this.engine.db.transaction(() => this.local.apply('user', user))();
  }

  /** This device's UUID: created once, kept for good (across restarts and sign-ins). */
  get deviceUuid(): string {
    if (this.knownDeviceUuid === null) {
      const { db } = this.engine;
      db.prepare("INSERT OR IGNORE INTO replica_settings (name, value) VALUES ('device_uuid', ?)").run(randomUUID());
      this.knownDeviceUuid = db.prepare("SELECT value FROM replica_settings WHERE name = 'device_uuid'").pluck().get() as string;
    }
    return this.knownDeviceUuid;
  }

  /** Pushes, then pulls. One sync at a time: a call while one runs waits for it. */
  sync(): Promise<ReplicaStatus> {
    if (this.running) {
      this.queued ??= this.running.then(() => {
        this.queued = null;
        return this.sync();
      });
      return this.queued;
    }
    this.running = this.syncNow().finally(() => {
      this.running = null;
    });
    return this.running.then(() => this.status());
  }

  status(): ReplicaStatus {
    const { pending, rejected } = this.outbox.counts();
    // Offline wins over syncing: a retry while the hub is out of reach is not news to the rep.
    const state: ReplicaState = !this.reachable ? 'offline' : this.running ? 'syncing' : pending > 0 ? 'pending' : 'up_to_date';
    return { state, pending, issues: rejected, conflicts: this.conflicts.count(), last_synced_at: this.lastSyncedAt, last_error: this.lastError, local_revision: this.engine.ctx.changes.currentRevision() + this.applied };
  }

  /**
   * Calls `listener` with the status whenever it changes (its data: a local
   * write, a pull, an id made right; or its state: syncing, offline, issues),
   * so open screens can be told instead of asking. The status is cheap to read
   * (two counts), so one check every WATCH_MS serves every watcher. Returns the unsubscribe.
   */
  watch(listener: (status: ReplicaStatus) => void): () => void {
    return this.watched.listen(listener);
  }

  /**
   * Syncs now, every SYNC_INTERVAL_MS, shortly after every local change, and
   * whenever the hub's change stream says its data changed, until stopped.
   */
  start(intervalMs = SYNC_INTERVAL_MS): void {
    void this.stop();
    this.outbox.onAdd = () => {
      this.soon ??= setTimeout(() => {
        this.soon = null;
        void this.sync();
      }, SYNC_DELAY_AFTER_CHANGE_MS);
    };
    this.timer = setInterval(() => void this.sync(), intervalMs);
    this.events = new HubEvents({
      url: `${this.hubBase}/v2/sync/events`,
      headers: () => (this.credentials.token === null ? null : { Authorization: `Bearer ${this.credentials.token}`, 'X-Service-Device-UUID': this.deviceUuid }),
      renew: () => this.renewQuietly(),
      log: (line) => this.log(line),
    }, {
      opened: () => {
        this.clearLostTimer();
        void this.sync();
      },
      changed: () => void this.sync(),
      lost: () => this.hubLost(),
    });
    this.events.start();
    void this.sync();
  }

  /** Stops the timers and the change stream; resolves once a sync in progress (and one asked for after it) has finished. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.soon) clearTimeout(this.soon);
    this.clearLostTimer();
    this.timer = this.soon = null;
    this.events?.stop();
    this.events = null;
    this.outbox.onAdd = null;
    await this.running;
    await this.queued;
  }

  /**
   * The change stream lost the hub: it stopped, crashed, or the network fell
   * silent. Shown as offline after a short grace, unless the stream is back
   * by then (a hub restarting in place, a busy moment here).
   */
  private hubLost(): void {
    this.lostTimer ??= setTimeout(() => {
      this.lostTimer = null;
      this.reachable = false;
      this.lastError = HUB_UNREACHABLE;
    }, HUB_LOST_GRACE_MS);
    this.lostTimer.unref?.();
  }

  private clearLostTimer(): void {
    if (this.lostTimer) clearTimeout(this.lostTimer);
    this.lostTimer = null;
  }

  /**
   * The changes the hub refused, oldest first. `recordOf` reads a record as
   * this device holds it (for the reader's eyes): shown with a change to a
   * record the hub deleted, as what would be lost.
   */
  issues(recordOf: (collection: string, id: number) => Record<string, unknown> | null = () => null): SyncIssue[] {
    return this.outbox.all().filter((e) => e.state === 'rejected').map((e) => {
      const deletedOnHub = isDeletedOnHub(e);
      return {
        id: e.seq, method: e.method, resource_type: e.resource_type, record_id: e.record_id,
        data: e.data === null ? null : (JSON.parse(e.data) as Record<string, unknown>), error: parseError(e.error), created_at: e.created_at,
        deleted_on_hub: deletedOnHub, record: deletedOnHub ? recordOf(e.collection, e.record_id) : null,
      };
    });
  }

  /**
   * A change to a record deleted on the hub, made again as the record's
   * creation: `record` is the record as this device holds it (its JSON; what
   * the hub ignores on a create, like `id`, goes along harmlessly). Once the
   * hub answers, the record takes its new id here too, and later changes follow.
   * False when the issue is no such change.
   */
  recreate(issueId: number, record: Record<string, unknown>): boolean {
    const entry = this.outbox.get(issueId);
    if (!entry || entry.state !== 'rejected' || !isDeletedOnHub(entry)) return false;
    const { id: _id, ...data } = record;
    const recreated = this.outbox.recreate(issueId, data);
    if (recreated) this.outbox.onAdd?.();
    return recreated;
  }

  /** Open conflicts (all, or one record's), oldest first. */
  conflictList(record?: { type: string; id: number }): SyncConflict[] {
    return this.conflicts.list(record);
  }

  /**
   * The rep's choice for a conflict: the hub's value (`theirs`: nothing to
   * send), or a value of the rep's (`yours`, or a third), which is edited here
   * and sent like any edit, its base the hub's value. False when there is no
   * such conflict; a value the field does not take throws the usual 422.
   */
  resolve(conflictId: number, choice: { keep: 'theirs' } | { value: unknown }, actor: Actor): boolean {
    const conflict = this.conflicts.get(conflictId);
    if (!conflict) return false;
    if ('keep' in choice) return this.conflicts.close(conflictId);
    const records = this.recordsOf(conflict.resource_type);
    if (!records?.[1].update) return this.conflicts.close(conflictId);
    const [collection, service] = records;
    const update = service.update!.bind(service);
    this.engine.db.transaction(() => {
      const current = JSON.parse(service.json(conflict.record_id, actor)) as Json;
      const data = editOf(current, conflict.field, choice.value);
      updateLocally(this.engine.ctx, { json: (id, by) => service.json(id, by), update }, { type: conflict.resource_type, collection, id: conflict.record_id, data, actor });
      this.conflicts.close(conflictId);
    })();
    return true;
  }

  /** The collection path and service through which this replica reads and edits records of a type (none for a type it does not edit). */
  recordsOf(type: string): [string, LocalRecordService] | undefined {
    return [...this.engine.ctx.replica!.records.entries()].find(([, service]) => service.type === type);
  }

  /** Sends a refused change again at the next sync; false when there is no such issue. */
  retry(issueId: number): boolean {
    const retried = this.outbox.retry(issueId);
    if (retried) this.outbox.onAdd?.();
    return retried;
  }

  /**
   * Gives up a refused change and every later change to the same record: the
   * record shows the hub's current state again (asked of the hub now), or
   * goes if the hub does not have it. False when there is no such issue;
   * rejects when the hub cannot be reached to say what its state is.
   */
  async discard(issueId: number): Promise<boolean> {
    const entry = this.outbox.get(issueId);
    if (!entry || entry.state !== 'rejected') return false;
    let hubState;
    try {
      hubState = await this.hubStateOf(entry);
    } catch (err) {
      this.log(`discard: ${(err as Error).message}`);
      throw new HubUnreachableError('Discarding restores the record as the hub has it, and the hub cannot be reached now. Try again when online.');
    }
    this.engine.db.transaction(() => {
      this.outbox.dropRecord(entry.resource_type, entry.record_id);
      if (hubState) this.local.apply(entry.resource_type, hubState);
      else this.local.remove(entry.resource_type, entry.record_id);
      // Its open conflicts follow: settled by the hub's state, or gone with the record.
      if (hubState) this.conflicts.pulled(entry.resource_type, hubState);
      else this.conflicts.removeRecord(entry.resource_type, entry.record_id);
      this.engine.ctx.changes.record(entry.resource_type, entry.record_id, hubState ? 'updated' : 'deleted', null);
    })();
    return true;
  }

  /** The record as the hub has it now, or null when the hub has no such record (or never had it). */
  private async hubStateOf(entry: OutboxEntry): Promise<({ id: number } & Record<string, unknown>) | null> {
    const id = this.hubId(entry.resource_type, entry.record_id);
    if (id === null) return null;
    const response = await this.fetch(`${this.hubBase}${entry.collection}/${id}`, {
      headers: { Accept: 'application/json', Authorization: `Bearer ${this.credentials.token}` },
    });
    if (response.status === 404) return null;
    if (!response.ok) throw new Error(`the hub answered ${response.status}`);
    return ((await response.json()) as { data: { id: number } & Record<string, unknown> }).data;
  }

  private async syncNow(): Promise<void> {
    const token = this.credentials.token;
    if (token === null) {
      this.reachable = false;
      this.lastError = 'Not connected to the hub yet: sign in with your hub account.';
      return;
    }
    try {
      // Pull only after a push that reached the hub: an answer lost in flight is replayed first, so a record
      // created here never also arrives as a stranger under its hub id.
      if ((await this.push()) === 'done') {
        const pull = (pageWritten?: () => void) => pullOnce({
          hubUrl: this.options.hubUrl, token, deviceUuid: this.deviceUuid, fetch: this.fetch,
          apply: (items) => {
            this.applyPulled(items);
            pageWritten?.();
          },
        });
        // The first sync copies the whole hub: a bulk load (search and secondary indexes built once at the end).
        if (this.neverSynced()) await this.firstPull(pull);
        else await pull();
        this.synced();
      }
    } catch (err) {
      if (err instanceof SyncHttpError && err.status === 401) await this.renewQuietly();
      this.reachable = !isNetworkError(err) && !(err instanceof SyncHttpError && err.status >= 500);
      this.lastError = syncFailure(err);
      this.log(`sync failed: ${(err as Error).message}`);
    }
  }

  /** The first sync: a bulk load of the whole hub, its time split kept and logged. */
  private async firstPull(pull: (pageWritten: () => void) => Promise<PullResult>): Promise<void> {
    const began = performance.now();
    const { loaded: pulled, end } = await asBulkLoad(sqliteOf(this.engine.db), pull, { nativeBinding: this.engine.ctx.replica!.nativeBinding, writes: this.writes });
    this.engine.db.prepare("INSERT OR REPLACE INTO replica_settings (name, value) VALUES ('first_sync_done', '1')").run();
    const { timings } = pulled;
    const totalMs = performance.now() - began;
    const firstSync = { records: pulled.items, ...timings, totalMs, finishingMs: totalMs - timings.totalMs, end };
    this.firstSync = firstSync;
    this.options.log?.(`replica: ${describeFirstSync(firstSync)}`);
  }

  /** A sync reached the hub and finished: when is kept (across restarts, for the screens that say it). */
  private synced(): void {
    this.lastSyncedAt = isoSeconds(this.engine.clock.now());
    this.engine.db.prepare("INSERT OR REPLACE INTO replica_settings (name, value) VALUES ('last_synced_at', ?)").run(this.lastSyncedAt);
    this.clearLostTimer();
    this.reachable = true;
    this.lastError = null;
    this.lastLogged = '';
  }

  /** A replica setting, or null. */
  private setting(name: string): string | null {
    return (this.engine.db.prepare('SELECT value FROM replica_settings WHERE name = ?').pluck().get(name) as string | undefined) ?? null;
  }

  /** Logs a technical failure once while it stays the same. */
  private log(line: string): void {
    if (line === this.lastLogged) return;
    this.lastLogged = line;
    this.options.log?.(`replica: ${line}`);
  }

  private get hubBase(): string {
    return this.options.hubUrl.replace(/\/+$/, '');
  }

  /**
   * Replays pending changes until done or the hub is out of reach (`sync`
   * does this first). Up to PUSH_WINDOW changes are in flight at once, each
   * after every earlier change to the same record; a delete waits for all
   * before it and holds all after it (the hub's cascades must not be
   * reordered), and a change naming a record created here waits for its create.
   */
  async push(): Promise<PushOutcome> {
    const inFlight = new Set<Promise<void>>();
    const busy = new Set<string>();
    let unreachable = false;
    const drain = () => Promise.all(inFlight);
    for (const { seq } of this.outbox.pending()) {
      if (unreachable) break;
      const first = this.outbox.get(seq);
      // Gone meanwhile (discarded from the Sync issues view while this push ran).
      if (!first) continue;
      const recordKey = `${first.resource_type}:${first.record_id}`;
      while (inFlight.size > 0 && (first.method === 'DELETE' || busy.has(recordKey) || inFlight.size >= PUSH_WINDOW)) await Promise.race(inFlight);
      let entry = this.outbox.get(seq);
      if (!entry || entry.state !== 'pending' || this.outbox.waitsOnIssue(entry)) continue;
      let request = this.requestFor(entry);
      if (request === 'waits' && inFlight.size > 0) {
        await drain();
        entry = this.outbox.get(seq)!;
        request = this.requestFor(entry);
      }
      if (unreachable) break;
      if (request === 'waits') continue;
      if ('orphan' in request) {
        this.outbox.reject(seq, localError(request.orphan));
        continue;
      }
      const sending = this.send(entry, request).then((outcome) => {
        if (outcome === 'unreachable') unreachable = true;
      });
      const tracked = sending.finally(() => {
        inFlight.delete(tracked);
        busy.delete(recordKey);
      });
      busy.add(recordKey);
      inFlight.add(tracked);
      if (entry.method === 'DELETE') await drain();
    }
    await drain();
    return unreachable ? 'unreachable' : 'done';
  }

  /** Sends one change; settles the outbox entry by the hub's answer. */
  private async send(entry: OutboxEntry, request: { path: string; body?: string }): Promise<'sent' | 'unreachable'> {
    let response: HubResponse;
    try {
      response = await this.fetch(`${this.hubBase}${request.path}`, {
        method: entry.method,
        headers: {
          Accept: 'application/json', Authorization: `Bearer ${this.credentials.token}`, 'Idempotency-Key': entry.op_key,
          // The hub then knows this device holds the record, so its later deletion reaches this device.
          'X-Service-Device-UUID': this.deviceUuid,
          ...(request.body ? { 'Content-Type': 'application/json' } : {}),
        },
        body: request.body,
      });
    } catch (err) {
      this.outbox.tried(entry.seq);
      this.reachable = false;
      this.lastError = HUB_UNREACHABLE;
      this.log(`push: ${(err as Error).message}`);
      return 'unreachable';
    }
    const text = await response.text();
    if (response.status >= 500 || response.status === 409 || response.status === 429 || response.status === 401) {
      // Not a verdict on the change: try again later (401: the token needs renewing).
      this.outbox.tried(entry.seq);
      if (response.status === 401) await this.renewQuietly();
      this.lastError = 'The hub could not take a change just now. It is kept on this device and sent again shortly.';
      this.log(`push: the hub answered ${response.status} to ${entry.method} ${request.path}`);
      return 'unreachable';
    }
    // Deleting what the hub has deleted already: the rep's wish is the hub's state, nothing to report.
    const alreadyGone = entry.method === 'DELETE' && response.status === 404;
    if (response.ok || alreadyGone) this.accepted(entry, text);
    else this.outbox.reject(entry.seq, text);
    return 'sent';
  }

  /**
   * Whether this replica's hub credentials are this user's: requests sent on
   * with them act as that user at the hub, so only that user's may go.
   */
  async connectedAs(userId: number): Promise<boolean> {
    if (this.hubUserId === null) {
      const answer = await this.forward({ method: 'GET', path: '/v2/users/self' });
      if (answer?.ok) this.hubUserId = ((await answer.json()) as { data: { id: number } }).data.id;
    }
    return this.hubUserId === userId;
  }

  /**
   * A document's file, which stays on the hub (a replica syncs documents'
   * records only): the hub's fresh download link, then the file. Null when the
   * hub has no such document; rejects with HubUnreachableError when offline.
   */
  async documentFile(id: number): Promise<Uint8Array | null> {
    const unreachable = () => new HubUnreachableError('This document’s file is kept on the hub, which cannot be reached now. Try again when online.');
    const record = await this.forward({ method: 'GET', path: `/v2/documents/${id}` });
    if (!record) throw unreachable();
    if (!record.ok) return null;
    const link = new URL(((await record.json()) as { data: { download_url: string } }).data.download_url);
    // The hub may name itself differently (behind a proxy): its path and query, on the address this replica uses.
    const file = await this.fetch(`${this.hubBase}${link.pathname}${link.search}`).catch(() => null);
    if (!file) throw unreachable();
    return file.ok ? file.bytes() : null;
  }

  /**
   * A request the hub alone answers (the custom-objects interface, whose data
   * is not replicated), sent with this replica's hub credentials and renewed
   * once on a 401. Null when there are no credentials yet or the hub is out of reach.
   */
  async forward(request: ForwardedRequest): Promise<HubResponse | null> {
    const send = () => {
      if (this.credentials.token === null) return Promise.resolve(null);
      const headers: Record<string, string> = { Accept: 'application/json', Authorization: `Bearer ${this.credentials.token}` };
      if (request.body !== undefined) headers['Content-Type'] = request.contentType ?? 'application/json';
      if (request.idempotencyKey !== undefined) headers['Idempotency-Key'] = request.idempotencyKey;
      return this.fetch(`${this.hubBase}${request.path}`, { method: request.method, headers, body: request.body });
    };
    try {
      let response = await send();
      if (response?.status === 401 && (await this.credentials.renew())) response = await send();
      return response;
    } catch {
      this.reachable = false;
      return null;
    }
  }

  private async renewQuietly(): Promise<void> {
    try {
      await this.credentials.renew();
    } catch {
      // Still unreachable: the next sync tries again.
    }
  }

  private neverSynced(): boolean {
    return this.engine.db.prepare("SELECT 1 FROM replica_settings WHERE name = 'first_sync_done'").get() === undefined;
  }

  /**
   * The hub has the change: the entry goes, and a new record takes its hub id
   * and the hub's answer (its timestamps, say). An update's answer is the
   * record as the hub now holds it, written here unless more local changes to
   * it wait (the pull that saw the hub's earlier state skipped the record);
   * the fields the hub kept against the rep's change become conflicts.
   */
  private accepted(entry: OutboxEntry, text: string): void {
    const answer = entry.method === 'DELETE' ? null : (JSON.parse(text) as { data: Json & { id: number }; meta?: { conflicts?: HubConflict[]; merged_into?: number } });
    const data = answer?.data ?? null;
    // In the commit group with the other answers of the push window: if it is lost before the commit, the
    // change is still in the outbox, and sending it again gets the same answer (its Idempotency-Key).
    this.engine.ctx.commits.join(() => {
      this.outbox.done(entry.seq);
      let id = entry.record_id;
      // Removed here since (its contact deleted, say): the hub's answer must not bring it back.
      const stillHere = this.local.exists(entry.resource_type, entry.record_id);
      if (entry.method === 'POST' && data && !isAction(entry)) {
        id = data.id;
        this.engine.db.prepare('INSERT OR REPLACE INTO id_map (resource_type, temp_id, hub_id) VALUES (?, ?, ?)').run(entry.resource_type, entry.record_id, id);
        this.local.remap(entry.resource_type, entry.record_id, id);
        this.outbox.renumber(entry.resource_type, entry.record_id, id);
        this.conflicts.renumber(entry.resource_type, entry.record_id, id);
      }
      // The record was merged into another on the hub, which took the edit: here too, the other one takes its place.
      const mergedInto = answer?.meta?.merged_into;
      if (entry.method === 'PUT' && typeof mergedInto === 'number' && mergedInto !== entry.record_id) {
        this.followMerge(entry.resource_type, entry.record_id, mergedInto);
        id = mergedInto;
      }
      if (entry.method === 'PUT') this.keepConflicts({ ...entry, record_id: id }, answer?.meta?.conflicts ?? []);
      if (entry.method === 'DELETE') this.conflicts.removeRecord(entry.resource_type, entry.record_id);
      const survivorHere = id !== entry.record_id && this.local.exists(entry.resource_type, id);
      if (data && (stillHere || survivorHere) && !this.outbox.holds(entry.resource_type, id)) this.local.apply(entry.resource_type, data);
    });
    this.applied += 1;
  }

  /**
   * A record merged into another on the hub: what names it here (records
   * made offline, later edits waiting, open conflicts) names the survivor,
   * and the merged record goes. A waiting deletion of it is left as it is: the
   * hub answers it as done, and it must not delete the survivor.
   */
  private followMerge(type: string, fromId: number, toId: number): void {
    this.local.redirect(type, fromId, toId);
    this.outbox.renumberEdits(type, fromId, toId);
    this.conflicts.renumber(type, fromId, toId);
    // Remembered here as on the hub: a screen still showing the merged record edits the survivor.
    if (type === 'contact' || type === 'lead') this.engine.ctx.mergedIds.record(type, fromId, toId, 0);
  }

  /**
   * The fields of a pushed update the hub kept: each an open conflict, the
   * rep's value beside the hub's. The fields it took are the rep's latest word
   * on them: a conflict an earlier change of theirs left open there is settled
   * (this change was made before the hub answered that one, offline, so its
   * edit could not close the conflict then, as an edit made after it does).
   */
  private keepConflicts(entry: OutboxEntry, conflicts: HubConflict[]): void {
    const sent = entry.data === null ? {} : (JSON.parse(entry.data) as Json);
    const kept = new Set(conflicts.map((conflict) => conflict.field));
    this.conflicts.closeFields(entry.resource_type, entry.record_id, pathsOf(sent).filter((path) => !kept.has(path)));
    for (const conflict of conflicts) {
      this.conflicts.open({
        type: entry.resource_type, recordId: entry.record_id, field: conflict.field, yours: valueAt(sent, conflict.field), yoursAt: entry.created_at,
        theirs: conflict.value, theirsBy: conflict.changed_by_id, theirsAt: conflict.changed_at,
      });
    }
  }

  /** Applies one pulled page in one transaction; records with local changes in flight keep showing those. */
  private applyPulled(items: SyncItem[]): void {
    // Its own commit, not the group's: the page is acknowledged as soon as this returns.
    this.engine.ctx.commits.flush();
    this.engine.db.transaction(() => {
      // Most pages meet an empty outbox (a first sync always does): then no record needs the look-up.
      const { pending, rejected } = this.outbox.counts();
      const anyLocal = pending + rejected > 0;
      const anyConflicts = this.conflicts.count() > 0;
      this.local.writePage(() => {
        for (const { data, meta } of items) {
          if (anyLocal && this.outbox.holds(meta.type, data.id)) continue;
          if (meta.sync.event_type === 'deleted') this.local.remove(meta.type, data.id);
          else this.local.apply(meta.type, data);
          if (!anyConflicts) continue;
          if (meta.sync.event_type === 'deleted') this.conflicts.removeRecord(meta.type, data.id);
          else this.conflicts.pulled(meta.type, data);
        }
      });
    })();
    this.applied += 1;
  }

  /**
   * The REST call for an entry with every temporary id replaced by its hub
   * id (resolved now, when sent, not when queued); null while one has none yet.
   */
  private requestFor(entry: OutboxEntry): { path: string; body?: string } | { orphan: string } | 'waits' {
    const id = this.hubId(entry.resource_type, entry.record_id);
    const action = isAction(entry);
    if ((entry.method !== 'POST' || action) && id === null) return this.unresolved(entry.resource_type, entry.record_id);
    const path = action ? entry.collection.replace(':id', String(id)) : entry.method === 'POST' ? entry.collection : `${entry.collection}/${id}`;
    if (entry.data === null) return { path };
    const data = JSON.parse(entry.data) as Json;
    const resolved = action ? this.mergeWithHubId(entry, data) : this.withHubIds(entry, data);
    if (resolved !== null) return resolved;
    // The rep's time of writing (a note written offline keeps it), and an update's base (the hub merges field by field).
    const meta: Json = { written_at: entry.created_at };
    if (entry.base !== null) {
      const base = JSON.parse(entry.base) as Json;
      // A base naming a record created here whose create has not gone yet is left as it is: the hub holds no such value anyway.
      this.withHubIds(entry, base);
      meta.base = base;
    }
    return { path, body: JSON.stringify({ data, meta }) };
  }

  /** Replaces, in place, every temporary id the fields of a change name by its hub id; null when all could be, else why not. */
  private withHubIds(entry: OutboxEntry, data: Json): { orphan: string } | 'waits' | null {
    for (const [field, type] of Object.entries(this.local.referencesOf(entry.resource_type, entry.record_id, data))) {
      if (!Object.hasOwn(data, field)) continue;
      const ids = Array.isArray(data[field]) ? (data[field] as unknown[]) : [data[field]];
      const resolved: unknown[] = [];
      for (const id of ids) {
        // Only ids are resolved; a null (no reference) goes as it is.
        const hubId = typeof id === 'number' ? this.hubId(type, id) : id;
        if (typeof id === 'number' && hubId === null) return this.unresolved(type, id);
        resolved.push(hubId);
      }
      data[field] = Array.isArray(data[field]) ? resolved : resolved[0];
    }
    return null;
  }

  /** A merge's other record (`merge_with_id`, of the entry's type) by its hub id, in place; null when it has one. */
  private mergeWithHubId(entry: OutboxEntry, data: Json): { orphan: string } | 'waits' | null {
    if (typeof data.merge_with_id !== 'number') return null;
    const hubId = this.hubId(entry.resource_type, data.merge_with_id);
    if (hubId === null) return this.unresolved(entry.resource_type, data.merge_with_id);
    data.merge_with_id = hubId;
    return null;
  }

  /** A temporary id without a hub id yet: its create is still to go (wait), or it was discarded (the change cannot be sent). */
  private unresolved(type: string, id: number): { orphan: string } | 'waits' {
    if (this.outbox.hasCreate(type, id)) return 'waits';
    return { orphan: `This change refers to a ${type.replace('_', ' ')} created on this device that never reached the hub (its creation was discarded).` };
  }

  /**
   * The hub's id a record created here got, once it has one, or the new id of
   * a record recreated after its deletion on the hub (so a screen showing the
   * old id can follow it); null when there is none.
   */
  hubIdOf(type: string, localId: number): number | null {
    return this.mappedId(type, localId) ?? null;
  }

  /**
   * The hub's id of a local record id: from the id map (a temporary id, or a
   * record recreated under a new id), else itself when positive, else null (not yet known).
   */
  private hubId(type: string, id: number): number | null {
    return this.mappedId(type, id) ?? (id > 0 ? id : null);
  }

  private mappedId(type: string, id: number): number | undefined {
    return this.engine.ctx.statements.get('SELECT hub_id FROM id_map WHERE resource_type = ? AND temp_id = ?').pluck().get(type, id) as number | undefined;
  }
}

/** A request sent on to the hub as it came (Replica.forward). */
export interface ForwardedRequest {
  method: string;
  /** Path and query, as on the hub. */
  path: string;
  /** JSON text, or a file's bytes. */
  body?: string | Uint8Array;
  contentType?: string;
  /** The caller's, passed on: a retried write is done once on the hub too. */
  idempotencyKey?: string;
}

/** A field the hub kept against a pushed update (`meta.conflicts` of its answer, sync/mergedUpdate.ts). */
interface HubConflict {
  field: string;
  value: unknown;
  changed_by_id: number | null;
  changed_at: string | null;
}

/** A change addressed to one record with its own path (`/v2/contacts/:id/merge`): the hub id goes in place of `:id` when sent. */
function isAction(entry: OutboxEntry): boolean {
  return entry.collection.includes('/:id/');
}

/** A refused update of a record the hub no longer has: it answered 404 (deleted there, or never known to it). */
function isDeletedOnHub(entry: OutboxEntry): boolean {
  if (entry.method !== 'PUT' || entry.error === null) return false;
  const answer = parseError(entry.error) as { meta?: { http_status?: unknown }; errors?: { error?: { code?: unknown } }[] } | null;
  return answer?.errors?.[0]?.error?.code === 'not_found';
}

function parseError(text: string | null): unknown {
  if (text === null) return null;
  try {
    return JSON.parse(text);
  } catch {
    return { message: text };
  }
}

/** What the rep is told of a failed sync: plain words; the technical reason goes to the log. */
function syncFailure(err: unknown): string {
  if (isNetworkError(err)) return HUB_UNREACHABLE;
  if (!(err instanceof SyncHttpError)) return 'Syncing stopped on a problem on this device. It is tried again shortly.';
  if (err.status === 401) return 'The hub no longer accepts this device’s sign-in. Sign out and sign in again.';
  if (err.status === 403) return 'Your hub account may not sync this device. Ask your hub’s administrator.';
  if (err.status >= 500) return 'The hub ran into a problem. Syncing again shortly.';
  return 'The hub refused to sync. Syncing again shortly.';
}

/** The hub was not reached at all: refused, reset, timed out, not found (which errors say so is the platform's). */
function isNetworkError(err: unknown): boolean {
  return isTransportError(err);
}

/** A refusal decided here, in the shape of the hub's error envelope, so the issues view reads both alike. */
function localError(message: string): string {
  return JSON.stringify({ errors: [{ error: { resource: 'request', field: '', code: 'incorrect_value', message, details: message } }], meta: { type: 'errors', http_status: 'local' } });
}
