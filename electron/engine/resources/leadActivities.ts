import type { EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { atTurnEnd } from '../platform/timers.js';

/**
 * Tables whose records attach to a lead with resource_type + resource_id,
 * with their change-log type. `deals`: the record also lists associated deals,
 * and gets the conversion's deal there.
 */
const ACTIVITY_TABLES: readonly { table: string; type: string; deals?: boolean }[] = [
  { table: 'tasks', type: 'task' },
  { table: 'notes', type: 'note' },
  { table: 'calls', type: 'call', deals: true },
  { table: 'text_messages', type: 'text_message', deals: true },
  { table: 'visits', type: 'visit' },
  { table: 'documents', type: 'document' },
  { table: 'collaborations', type: 'collaboration' },
];

interface PendingConversion {
  id: number;
  lead_id: number;
  individual_id: number | null;
  organization_id: number | null;
  deal_id: number | null;
  creator_id: number;
}

/**
 * Moves a converted lead's activities (tasks, notes, calls, text messages,
 * visits, documents, collaborations) to the contact it became, in the
 * background, as the real service does: the individual if one was created,
 * else the organization. Calls and text messages also get the new deal among
 * their associated deals. A conversion stays marked pending in the database
 * until its move is committed, so an engine closed in between finishes the
 * move when it opens again. Each moved record is logged as updated.
 */
export class LeadActivityMover {
  /** Cancels the pass planned for the turn's end, if any. */
  private scheduled: (() => void) | null = null;
  private stopped = false;
  private readonly tables;

  constructor(private readonly ctx: EngineContext) {
    const exists = ctx.db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?");
    this.tables = ACTIVITY_TABLES.filter(({ table }) => exists.get(table) !== undefined);
  }

  /**
   * Runs the pending moves right after the current request. A replica leaves
   * them to its hub, whose moved records it receives through sync.
   */
  schedule(): void {
    if (this.stopped || this.scheduled || this.ctx.replica) return;
    this.scheduled = atTurnEnd(() => {
      this.scheduled = null;
      this.runPending();
    });
  }

  /** No more moves: the engine is closing (pending ones are finished when it opens again). */
  stop(): void {
    this.stopped = true;
    this.scheduled?.();
    this.scheduled = null;
  }

  /**
   * Moves the activities of every pending conversion, one transaction each.
   * A failure is logged and leaves its conversion pending, for the next open
   * of the engine to try again; it never escapes into the event loop.
   */
  runPending(): void {
    try {
      const pending = this.ctx.statements
        .get('SELECT id, lead_id, individual_id, organization_id, deal_id, creator_id FROM lead_conversions WHERE activities_pending = 1 ORDER BY id')
        .all() as PendingConversion[];
      for (const conversion of pending) {
        if (this.stopped) return;
        this.moveSafely(conversion);
      }
    } catch (err) {
      console.error('outpost: pending lead conversions could not be read:', err);
    }
  }

  private moveSafely(conversion: PendingConversion): void {
    try {
      this.move(conversion);
    } catch (err) {
      console.error(`outpost: the activities of converted lead ${conversion.lead_id} could not be moved:`, err);
    }
  }

  private move(conversion: PendingConversion): void {
    const { statements } = this.ctx;
    this.ctx.db.transaction(() => {
      const target = this.target(conversion);
      if (target !== null) {
        const dealId = conversion.deal_id !== null && this.recordExists('deals', conversion.deal_id) ? conversion.deal_id : null;
        const now = isoSeconds(this.ctx.clock.now());
        for (const { table, type, deals } of this.tables) {
          const ids = statements.get(`SELECT id FROM ${table} WHERE resource_type = 'lead' AND resource_id = ?`).pluck().all(conversion.lead_id) as number[];
          const addDeal = deals && dealId !== null
            ? ", associated_deal_ids = CASE WHEN EXISTS (SELECT 1 FROM json_each(associated_deal_ids) WHERE CAST(value AS INTEGER) = @deal) THEN associated_deal_ids ELSE json_insert(associated_deal_ids, '$[#]', @deal) END"
            : '';
          // OR IGNORE: a record the contact already has (a collaborator on both) stays on the lead.
          const update = statements.get(`UPDATE OR IGNORE ${table} SET resource_type = 'contact', resource_id = @target, updated_at = @now${addDeal} WHERE id = @id`);
          for (const id of ids) {
            const params = addDeal ? { target, now, id, deal: dealId } : { target, now, id };
            if (update.run(params).changes > 0) this.ctx.changes.record(type, id, 'updated', conversion.creator_id);
          }
        }
      }
      statements.get('UPDATE lead_conversions SET activities_pending = 0 WHERE id = ?').run(conversion.id);
    })();
  }

  /** The individual if it still exists, else the organization; null when neither is left. */
  private target(conversion: PendingConversion): number | null {
    for (const id of [conversion.individual_id, conversion.organization_id]) {
      if (id !== null && this.recordExists('contacts', id)) return id;
    }
    return null;
  }

  private recordExists(table: string, id: number): boolean {
    const exists = this.ctx.statements.get("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(table) !== undefined;
    return exists && this.ctx.statements.get(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== undefined;
  }
}
