import type { Db } from '../db/database.js';
import { isoSeconds, type Clock } from '../clock.js';
import { sameValue, valueAt, type Json } from './fieldPaths.js';
import type { SyncConflict } from '../../../shared/resources/replica.js';

interface ConflictRow {
  id: number;
  resource_type: string;
  record_id: number;
  field: string;
  yours: string | null;
  yours_at: string;
  theirs: string | null;
  theirs_by: number | null;
  theirs_at: string | null;
  created_at: string;
}

/** A field the hub would not take from this replica: a colleague changed it since the replica last saw it. */
export interface NewConflict {
  type: string;
  recordId: number;
  field: string;
  /** The value the rep sent, as sent. */
  yours: unknown;
  /** When the rep made the change (the outbox entry's time). */
  yoursAt: string;
  /** The hub's value, as served, and who set it when (null when the hub does not know). */
  theirs: unknown;
  theirsBy: number | null;
  theirsAt: string | null;
}

const parsed = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

/**
 * A replica's open conflicts: fields changed both here and on the
 * hub since this replica last saw them. The hub kept its value and told the
 * replica; the rep's value is kept here until the rep keeps one of the two or
 * types a third (an edit of the field here closes its conflict), or the hub
 * comes to hold the rep's value anyway. One open conflict a field: a later one
 * replaces it.
 */
export class SyncConflicts {
  private readonly statements;

  constructor(private readonly db: Db, private readonly clock: Clock) {
    this.statements = {
      open: db.prepare(`INSERT INTO sync_conflicts (resource_type, record_id, field, yours, yours_at, theirs, theirs_by, theirs_at, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (resource_type, record_id, field) DO UPDATE SET yours = excluded.yours, yours_at = excluded.yours_at,
          theirs = excluded.theirs, theirs_by = excluded.theirs_by, theirs_at = excluded.theirs_at, created_at = excluded.created_at`),
      closeField: db.prepare('DELETE FROM sync_conflicts WHERE resource_type = ? AND record_id = ? AND field = ?'),
      close: db.prepare('DELETE FROM sync_conflicts WHERE id = ?'),
      get: db.prepare('SELECT * FROM sync_conflicts WHERE id = ?'),
      all: db.prepare('SELECT * FROM sync_conflicts ORDER BY id'),
      ofRecord: db.prepare('SELECT * FROM sync_conflicts WHERE resource_type = ? AND record_id = ? ORDER BY id'),
      count: db.prepare('SELECT COUNT(*) FROM sync_conflicts').pluck(),
      removeRecord: db.prepare('DELETE FROM sync_conflicts WHERE resource_type = ? AND record_id = ?'),
      renumber: db.prepare('UPDATE sync_conflicts SET record_id = ? WHERE resource_type = ? AND record_id = ?'),
      theirsNow: db.prepare('UPDATE sync_conflicts SET theirs = ?, theirs_by = NULL, theirs_at = ? WHERE id = ?'),
    };
  }

  open(conflict: NewConflict): void {
    this.statements.open.run(conflict.type, conflict.recordId, conflict.field, JSON.stringify(conflict.yours ?? null), conflict.yoursAt,
      JSON.stringify(conflict.theirs ?? null), conflict.theirsBy, conflict.theirsAt, isoSeconds(this.clock.now()));
  }

  /** The rep changed these fields here: their conflicts are decided. */
  closeFields(type: string, recordId: number, fields: string[]): void {
    for (const field of fields) this.statements.closeField.run(type, recordId, field);
  }

  /** Keeps the hub's value; false when there is no such conflict. */
  close(id: number): boolean {
    return this.statements.close.run(id).changes > 0;
  }

  get(id: number): SyncConflict | undefined {
    const row = this.statements.get.get(id) as ConflictRow | undefined;
    return row && shown(row);
  }

  list(record?: { type: string; id: number }): SyncConflict[] {
    const rows = (record ? this.statements.ofRecord.all(record.type, record.id) : this.statements.all.all()) as ConflictRow[];
    return rows.map(shown);
  }

  count(): number {
    return this.statements.count.get() as number;
  }

  /** The record is gone here (deleted on the hub): nothing is left to choose. */
  removeRecord(type: string, recordId: number): void {
    this.statements.removeRecord.run(type, recordId);
  }

  renumber(type: string, from: number, to: number): void {
    this.statements.renumber.run(to, type, from);
  }

  /**
   * The hub's newer state of a record with open conflicts: a field the hub now
   * holds with the rep's value is settled; otherwise "theirs" is what the hub holds now.
   */
  pulled(type: string, record: Json): void {
    for (const row of this.statements.ofRecord.all(type, record.id) as ConflictRow[]) {
      const now = valueAt(record, row.field);
      if (sameValue(now, parsed(row.yours))) this.statements.close.run(row.id);
      else if (!sameValue(now, parsed(row.theirs))) this.statements.theirsNow.run(JSON.stringify(now ?? null), (record.updated_at as string | undefined) ?? null, row.id);
    }
  }
}

function shown(row: ConflictRow): SyncConflict {
  return {
    id: row.id, resource_type: row.resource_type, record_id: row.record_id, field: row.field,
    yours: { value: parsed(row.yours), changed_at: row.yours_at },
    theirs: { value: parsed(row.theirs), changed_by_id: row.theirs_by, changed_at: row.theirs_at },
    created_at: row.created_at,
  };
}
