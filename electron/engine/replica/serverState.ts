import type { Db } from '../db/database.js';
import type { SyncItem } from './pull.js';

/**
 * The simplest device store of the sync protocol: one JSON document per
 * record, as the hub sent it. The benchmark's sync client and the pull tests
 * use it; the desktop replica writes into its engine's own tables instead
 * (localRecords.ts). Applying a page is one transaction and idempotent: the
 * same item twice, or the delete of a record never seen, leave the same state.
 */
export class ServerState {
  private readonly upsert;
  private readonly remove;
  private readonly one;
  private readonly ofType;

  constructor(private readonly db: Db) {
    db.exec(`CREATE TABLE IF NOT EXISTS server_records (
      resource_type  TEXT NOT NULL,
      resource_id    INTEGER NOT NULL,
      revision       INTEGER NOT NULL,
      doc            TEXT NOT NULL,
      PRIMARY KEY (resource_type, resource_id)
    ) WITHOUT ROWID`);
    // An older revision arriving late (a page served again) never overwrites a newer one.
    this.upsert = db.prepare(`INSERT INTO server_records (resource_type, resource_id, revision, doc) VALUES (?, ?, ?, ?)
      ON CONFLICT (resource_type, resource_id) DO UPDATE SET revision = excluded.revision, doc = excluded.doc WHERE excluded.revision >= revision`);
    this.remove = db.prepare('DELETE FROM server_records WHERE resource_type = ? AND resource_id = ? AND revision <= ?');
    this.one = db.prepare('SELECT doc FROM server_records WHERE resource_type = ? AND resource_id = ?').pluck();
    this.ofType = db.prepare('SELECT doc FROM server_records WHERE resource_type = ? ORDER BY resource_id').pluck();
  }

  /** Applies one queue page in one transaction. */
  apply(items: SyncItem[]): void {
    this.db.transaction(() => {
      for (const { data, meta } of items) {
        if (meta.sync.event_type === 'deleted') this.remove.run(meta.type, data.id, meta.sync.revision);
        else this.upsert.run(meta.type, data.id, meta.sync.revision, JSON.stringify(data));
      }
    })();
  }

  get(type: string, id: number): Record<string, unknown> | undefined {
    const doc = this.one.get(type, id) as string | undefined;
    return doc === undefined ? undefined : (JSON.parse(doc) as Record<string, unknown>);
  }

  /** Every record of a type, by id. */
  all(type: string): Record<string, unknown>[] {
    return (this.ofType.all(type) as string[]).map((doc) => JSON.parse(doc) as Record<string, unknown>);
  }
}
