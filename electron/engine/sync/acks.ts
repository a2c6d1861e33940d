import type { Db } from '../db/database.js';
import { unrefTimer } from '../platform/timers.js';

/**
 * What one queue item asks the device to acknowledge: this record at this
 * revision, or its deletion. Keys read `contact:17:2045` and
 * `note:3:2050:deleted`; clients treat them as opaque strings.
 */
export interface AckKey {
  type: string;
  id: number;
  revision: number;
  deleted: boolean;
}

const KEY = /^([a-z][a-z_]{0,63}):(\d{1,15}):(\d{1,15})(:deleted)?$/;

export function formatAckKey(key: AckKey): string {
  return `${key.type}:${key.id}:${key.revision}${key.deleted ? ':deleted' : ''}`;
}

/** The key, or null when the text is not one this hub issued. */
export function parseAckKey(text: string): AckKey | null {
  const match = KEY.exec(text);
  if (!match) return null;
  const [id, revision] = [Number(match[2]), Number(match[3])];
  if (id < 1 || revision < 1) return null;
  return { type: match[1], id, revision, deleted: match[4] !== undefined };
}

/**
 * How long acknowledgements wait to be written in a transaction of their
 * own. A device's next page request (or session start) writes its pending
 * ones first, inside its own transaction, so a device syncing without pause
 * costs no transaction per acknowledgement (three statements on PostgreSQL).
 */
export const ACK_WRITE_DELAY_MS = 50;

/**
 * Acknowledgements, processed in the background as the spec says: the
 * request is answered 202 at once and the keys are written shortly after,
 * all pending ones in one transaction. A key never lowers what a device is
 * known to hold, so an ack racing with a newer change leaves that change to
 * be delivered again; an acknowledged delete forgets the record for the device.
 */
export class Acknowledgements {
  private pending: { deviceId: number; keys: AckKey[] }[] = [];
  private timer: NodeJS.Timeout | null = null;
  private readonly hold;
  private readonly holdMany;
  private readonly forget;

  constructor(private readonly db: Db) {
    const upsert = 'ON CONFLICT (device_id, resource_type, resource_id) DO UPDATE SET revision = MAX(sync_device_records.revision, excluded.revision)';
    this.hold = db.prepare(`INSERT INTO sync_device_records (device_id, resource_type, resource_id, revision) VALUES (?, ?, ?, ?) ${upsert}`);
    // On PostgreSQL a statement is a round trip: a page's keys (a thousand) go in one (SQLite's per-key inserts cost microseconds).
    this.holdMany = db.dialect === 'postgres'
      ? db.prepare(`INSERT INTO sync_device_records (device_id, resource_type, resource_id, revision)
          SELECT ?, k.type, k.id, k.revision FROM json_to_recordset(CAST(? AS json)) AS k(type text, id bigint, revision bigint) ${upsert}`)
      : null;
    this.forget = db.prepare('DELETE FROM sync_device_records WHERE device_id = ? AND resource_type = ? AND resource_id = ? AND revision < ?');
  }

  enqueue(deviceId: number, keys: AckKey[]): void {
    if (keys.length === 0) return;
    this.pending.push({ deviceId, keys });
    if (!this.timer) {
      this.timer = setTimeout(() => this.flushSafely(), ACK_WRITE_DELAY_MS);
      // Pending keys are written when the engine closes (SyncSessions.flush); they keep no process alive.
      unrefTimer(this.timer);
    }
  }

  /** Writes every pending acknowledgement now (a new session starts from what is acknowledged). */
  flush(): void {
    this.cancelTimer();
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.db.transaction(() => {
      for (const { deviceId, keys } of batch) this.writeAll(deviceId, keys);
    })();
  }

  /** Writes one device's pending acknowledgements in the caller's transaction (its page's). */
  writePendingOf(deviceId: number): void {
    const own = this.pending.filter((entry) => entry.deviceId === deviceId);
    if (own.length === 0) return;
    this.pending = this.pending.filter((entry) => entry.deviceId !== deviceId);
    if (this.pending.length === 0) this.cancelTimer();
    for (const { keys } of own) this.writeAll(deviceId, keys);
  }

  private cancelTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private writeAll(deviceId: number, keys: AckKey[]): void {
    if (this.holdMany) this.writeMany(deviceId, keys);
    else for (const key of keys) this.write(deviceId, key);
  }

  private write(deviceId: number, key: AckKey): void {
    if (key.deleted) this.forget.run(deviceId, key.type, key.id, key.revision);
    else this.hold.run(deviceId, key.type, key.id, key.revision);
  }

  /**
   * The same writes, the holds gathered into one statement. In order: a
   * delete of a record whose hold is gathered writes the holds first; one
   * record held twice keeps its higher revision (a statement may not change
   * a row twice).
   */
  private writeMany(deviceId: number, keys: AckKey[]): void {
    const holds = new Map<string, AckKey>();
    const writeHolds = () => {
      if (holds.size > 0) this.holdMany!.run(deviceId, JSON.stringify([...holds.values()].map(({ type, id, revision }) => ({ type, id, revision }))));
      holds.clear();
    };
    for (const key of keys) {
      const record = `${key.type}:${key.id}`;
      if (key.deleted) {
        if (holds.has(record)) writeHolds();
        this.forget.run(deviceId, key.type, key.id, key.revision);
      } else if ((holds.get(record)?.revision ?? 0) < key.revision) holds.set(record, key);
    }
    writeHolds();
  }

  private flushSafely(): void {
    try {
      this.flush();
    } catch (err) {
      // Nothing is lost for the device: unacknowledged items come again in its next session.
      console.error('outpost: sync acknowledgements could not be written:', err);
    }
  }
}
