import type { Db } from '../db/database.js';
import { isoSeconds, type Clock } from '../clock.js';

/** The fields of a write that name a contact or a lead by id (besides `resource_type` + `resource_id`). */
const REFERENCE_FIELDS: Record<string, 'contact' | 'lead'> = {
  contact_id: 'contact', organization_id: 'contact', individual_id: 'contact', parent_organization_id: 'contact', lead_id: 'lead',
};
/** Types a `resource_type` names whose ids are contacts' or leads' (a sales account is an organization). */
const RESOURCE_TYPES: Record<string, 'contact' | 'lead'> = { contact: 'contact', sales_account: 'contact', lead: 'lead' };

/**
 * The ids of contacts and leads merged into others (migration 30), so a
 * write that still names a merged record, sent by a device that held it
 * offline, reaches the survivor instead of being refused (docs/sync.md,
 * "Merged records").
 */
export class MergedIds {
  private readonly survivor;
  private readonly insert;
  private readonly repoint;

  constructor(db: Db, private readonly clock: Clock) {
    this.survivor = db.prepare('SELECT survivor_id FROM merged_records WHERE resource_type = ? AND merged_id = ?').pluck();
    this.insert = db.prepare('INSERT INTO merged_records (resource_type, merged_id, survivor_id, merged_at, merged_by_id) VALUES (?, ?, ?, ?, ?)');
    this.repoint = db.prepare('UPDATE merged_records SET survivor_id = ? WHERE resource_type = ? AND survivor_id = ?');
  }

  /** The record that took the place of a merged one; undefined when the id was never merged. */
  survivorOf(type: string, id: number): number | undefined {
    const kind = RESOURCE_TYPES[type];
    // Only an id can have been merged; anything else (0.1, 1e300) is left for the write's own checks to refuse,
    // never sent to a bigint column (PostgreSQL refuses such a value with an error, not a miss).
    if (!kind || !Number.isSafeInteger(id)) return undefined;
    return this.survivor.get(kind, id) as number | undefined;
  }

  /** The id itself, or its survivor's when it was merged. */
  resolve(type: string, id: number): number {
    return this.survivorOf(type, id) ?? id;
  }

  /** Remembers a merge (inside its transaction); earlier merges into the merged record now point at its survivor. */
  record(type: 'contact' | 'lead', mergedId: number, survivorId: number, actorId: number): void {
    this.repoint.run(survivorId, type, mergedId);
    this.insert.run(type, mergedId, survivorId, isoSeconds(this.clock.now()), actorId);
  }

  /** Replaces, in a write's fields, every id of a merged contact or lead by its survivor's (in place). */
  resolveReferences(data: Record<string, unknown>): void {
    for (const [field, type] of Object.entries(REFERENCE_FIELDS)) {
      if (typeof data[field] === 'number') data[field] = this.resolve(type, data[field]);
    }
    if (typeof data.resource_type === 'string' && typeof data.resource_id === 'number') data.resource_id = this.resolve(data.resource_type, data.resource_id);
  }
}
