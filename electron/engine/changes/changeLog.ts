import type { Db } from '../db/database.js';
import { isoSeconds, type Clock } from '../clock.js';

export type ChangeEvent = 'created' | 'updated' | 'deleted';

/**
 * The change log: every mutation appends a row with a monotonically
 * increasing revision. Callers append inside the transaction that makes the
 * change, so a record and its change are durable together or not at all.
 */
export class ChangeLog {
  private readonly insert;
  private readonly latest;

  constructor(db: Db, private readonly clock: Clock) {
    this.insert = db.prepare(
      'INSERT INTO change_log (resource_type, resource_id, event_type, actor_id, changed_at) VALUES (?, ?, ?, ?, ?)',
    );
    this.latest = db.prepare('SELECT COALESCE(MAX(revision), 0) FROM change_log').pluck();
  }

  record(resourceType: string, resourceId: number, event: ChangeEvent, actorId: number | null): number {
    const info = this.insert.run(resourceType, resourceId, event, actorId, isoSeconds(this.clock.now()));
    return Number(info.lastInsertRowid);
  }

  currentRevision(): number {
    return this.latest.get() as number;
  }
}
