import { newRecordId, type EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { bytesEqual } from '../bytes.js';
import { notFound } from '../problems.js';

/**
 * The writes every resource table shares: insert, update, delete, each in
 * one transaction with its change-log entry and timestamps. `also` runs
 * inside the same transaction (tags, dependent records).
 */
export class RecordStore {
  constructor(
    private readonly ctx: EngineContext,
    private readonly table: string,
    private readonly resourceType: string,
    private readonly writable: readonly string[],
  ) {}

  insert(row: Record<string, unknown>, extra: Record<string, unknown>, actorId: number, also?: (id: number) => void): number {
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      // Written offline: created when the rep wrote it (never later than now), changed on the hub now.
      const values: Record<string, unknown> = { ...pick(row, this.writable), ...extra, created_at: this.ctx.writtenAt.current ?? now, updated_at: now };
      values.id = newRecordId(this.ctx, this.table, this.resourceType);
      const columns = Object.keys(values);
      const info = this.ctx.statements
        .get(`INSERT INTO ${this.table} (${columns.join(', ')}) VALUES (${columns.map((c) => `@${c}`).join(', ')})`)
        .run(values);
      const id = Number(info.lastInsertRowid);
      also?.(id);
      this.ctx.changes.record(this.resourceType, id, 'created', actorId);
      return id;
    })();
  }

  /**
   * Writes the columns whose value differs from the stored one, plus
   * `updated_at` always (a PUT that changes nothing still bumps it and logs
   * 'updated'). Narrowing the SET list matters: SQLite rewrites an entry in
   * every index holding a SET column and fires every `AFTER UPDATE OF` trigger
   * naming one (FTS), even when the value is the same, and each page that
   * dirties costs a WAL frame at commit and again at checkpoint.
   */
  update(id: number, row: Record<string, unknown>, actorId: number, also?: () => void): void {
    const values = { ...pick(row, this.writable), id, updated_at: isoSeconds(this.ctx.clock.now()) };
    this.ctx.db.transaction(() => {
      const changed = this.changedColumns(id, values);
      this.ctx.statements
        .get(`UPDATE ${this.table} SET ${changed.map((c) => `${c} = @${c}, `).join('')}updated_at = @updated_at WHERE id = @id`)
        .run(values);
      also?.();
      this.ctx.changes.record(this.resourceType, id, 'updated', actorId);
    })();
  }

  /** The writable columns (in their declared order, so each set has one cached statement) whose new value differs from the stored one. */
  private changedColumns(id: number, values: Record<string, unknown>): string[] {
    const stored = this.ctx.statements.get(`SELECT ${this.writable.join(', ')} FROM ${this.table} WHERE id = ?`).get(id) as
      | Record<string, unknown>
      | undefined;
    // No such row: the UPDATE matches nothing whatever it sets, exactly as before.
    if (stored === undefined) return [...this.writable];
    return this.writable.filter((c) => !sameStoredValue(stored[c], values[c]));
  }

  /** Deletes one record; call inside a transaction when it is part of a larger change. */
  remove(id: number, actorId: number, before?: () => void): void {
    this.ctx.db.transaction(() => {
      before?.();
      this.ctx.statements.get(`DELETE FROM ${this.table} WHERE id = ?`).run(id);
      this.ctx.changes.record(this.resourceType, id, 'deleted', actorId);
    })();
  }
}

/** The writable columns of a row, unset ones as NULL. */
function pick(row: Record<string, unknown>, columns: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(columns.map((c) => [c, row[c] ?? null]));
}

/**
 * Whether binding `next` would store what the column already holds, as far
 * as the values better-sqlite3 returns and binds can tell (numbers, strings,
 * null, bigint, bytes: a Buffer on Node, a Uint8Array in the browser). Anything else counts as changed: writing an
 * unchanged value is only slower, skipping a changed one would be wrong.
 */
function sameStoredValue(stored: unknown, next: unknown): boolean {
  if (stored === next) return true;
  return stored instanceof Uint8Array && next instanceof Uint8Array && bytesEqual(stored, next);
}

/** A record's JSON from the SELECT that builds it (`SELECT <json> FROM … WHERE x.id = ?`), or a 404 of `type`. */
export function recordJson(ctx: EngineContext, type: string, sql: string, id: number): string {
  const json = ctx.statements.get(sql).pluck().get(id) as string | undefined;
  if (json === undefined) throw notFound(type, id);
  return json;
}
