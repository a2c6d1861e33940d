import type { Db } from '../db/database.js';

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
 * Acknowledgements, processed in the background as the spec says: the
 * request is answered 202 at once and the keys are written shortly after,
 * all pending ones in one transaction. A key never lowers what a device is
 * known to hold, so an ack racing with a newer change leaves that change to
 * be delivered again; an acknowledged delete forgets the record for the device.
 */
export class Acknowledgements {
  private pending: { deviceId: number; keys: AckKey[] }[] = [];
  private scheduled = false;
  private readonly hold;
  private readonly forget;

  constructor(private readonly db: Db) {
    this.hold = db.prepare(`INSERT INTO sync_device_records (device_id, resource_type, resource_id, revision) VALUES (?, ?, ?, ?)
      ON CONFLICT (device_id, resource_type, resource_id) DO UPDATE SET revision = MAX(sync_device_records.revision, excluded.revision)`);
    this.forget = db.prepare('DELETE FROM sync_device_records WHERE device_id = ? AND resource_type = ? AND resource_id = ? AND revision < ?');
  }

  enqueue(deviceId: number, keys: AckKey[]): void {
    if (keys.length === 0) return;
    this.pending.push({ deviceId, keys });
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flushSafely());
    }
  }

  /** Writes every pending acknowledgement now (a new session starts from what is acknowledged). */
  flush(): void {
    this.scheduled = false;
    const batch = this.pending;
    if (batch.length === 0) return;
    this.pending = [];
    this.db.transaction(() => {
      for (const { deviceId, keys } of batch) {
        for (const key of keys) {
          if (key.deleted) this.forget.run(deviceId, key.type, key.id, key.revision);
          else this.hold.run(deviceId, key.type, key.id, key.revision);
        }
      }
    })();
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
