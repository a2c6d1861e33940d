import type { EngineContext } from '../context.js';

/** Who last changed a field of a record, and when (null when nobody is known). */
export interface FieldChange {
  changed_by_id: number | null;
  changed_at: string | null;
}

/**
 * Who last changed each field of a record through the REST interface, and
 * when (migration 27): a replica whose edit meets a colleague's change of the
 * same field is told whose it was. A field changed in other ways (a lead
 * conversion, an import) has no entry: the record's last change stands in.
 */
export class FieldHistory {
  constructor(private readonly ctx: EngineContext) {}

  /** Notes the changed paths of one update, inside its transaction. */
  record(type: string, id: number, paths: string[], userId: number, at: string): void {
    const upsert = this.ctx.statements.get(`INSERT INTO field_changes (resource_type, resource_id, field, user_id, changed_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (resource_type, resource_id, field) DO UPDATE SET user_id = excluded.user_id, changed_at = excluded.changed_at`);
    for (const path of paths) upsert.run(type, id, path, userId, at);
  }

  lastChange(type: string, id: number, path: string): FieldChange {
    const field = this.ctx.statements.get('SELECT user_id AS changed_by_id, changed_at FROM field_changes WHERE resource_type = ? AND resource_id = ? AND field = ?')
      .get(type, id, path) as FieldChange | undefined;
    if (field) return field;
    const record = this.ctx.statements.get(`SELECT c.actor_id AS changed_by_id, c.changed_at FROM record_revisions r JOIN change_log c ON c.revision = r.revision
      WHERE r.resource_type = ? AND r.resource_id = ?`).get(type, id) as FieldChange | undefined;
    return record ?? { changed_by_id: null, changed_at: null };
  }
}
