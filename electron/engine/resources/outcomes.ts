import { z } from 'zod';
import { newRecordId, type Actor, type EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, notFound } from '../http/problem.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonObject } from './sqlJson.js';
import type { SyncSource } from '../sync/sources.js';

const OUTCOME_JSON = jsonObject({ id: 'o.id', creator_id: 'o.creator_id', name: 'o.name', created_at: 'o.created_at', updated_at: 'o.updated_at' });

/** Where a list of outcomes lives and which records refer to it. */
export interface OutcomeKind {
  /** `call_outcome`, `visit_outcome`. */
  type: string;
  table: string;
  usedBy: { table: string; type: string };
}

export const CALL_OUTCOMES: OutcomeKind = { type: 'call_outcome', table: 'call_outcomes', usedBy: { table: 'calls', type: 'call' } };
export const VISIT_OUTCOMES: OutcomeKind = { type: 'visit_outcome', table: 'visit_outcomes', usedBy: { table: 'visits', type: 'visit' } };

const inputSchema = z.strictObject({ name: z.string().trim().min(1).max(255) });

/**
 * Call and visit outcomes: read by everyone (sorted by id, as the spec
 * says); a default set comes with every hub, and admins manage the list (extension).
 */
export class Outcomes {
  private readonly list: ListDefinition;

  constructor(private readonly ctx: EngineContext, private readonly kind: OutcomeKind) {
    this.list = { resource: kind.type, from: `${kind.table} o`, json: OUTCOME_JSON, idColumn: 'o.id', filters: {}, sorts: {}, defaultOrder: 'o.id ASC' };
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  /** The outcomes as devices receive them (sync/). */
  get syncSource(): SyncSource {
    return { type: this.kind.type, from: `${this.kind.table} o`, idColumn: 'o.id', json: OUTCOME_JSON };
  }

  json(id: number): string {
    const json = this.ctx.db.prepare(`SELECT ${OUTCOME_JSON} FROM ${this.kind.table} o WHERE o.id = ?`).pluck().get(id) as string | undefined;
    if (json === undefined) throw notFound(this.kind.type, id);
    return json;
  }

  exists(id: number): boolean {
    return this.ctx.db.prepare(`SELECT 1 FROM ${this.kind.table} WHERE id = ?`).get(id) !== undefined;
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const name = this.checkName(data);
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      const id = newRecordId(this.ctx, this.kind.table, this.kind.type);
      this.ctx.db.prepare(`INSERT INTO ${this.kind.table} (id, creator_id, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)`).run(id, actor.userId, name, now, now);
      this.ctx.changes.record(this.kind.type, id, 'created', actor.userId);
      return id;
    })();
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    if (!this.exists(id)) throw notFound(this.kind.type, id);
    const name = this.checkName(data, id);
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare(`UPDATE ${this.kind.table} SET name = ?, updated_at = ? WHERE id = ?`).run(name, isoSeconds(this.ctx.clock.now()), id);
      this.ctx.changes.record(this.kind.type, id, 'updated', actor.userId);
    })();
  }

  /** Records that had this outcome keep existing, with no outcome (each logged as updated). */
  delete(id: number, actor: Actor): void {
    if (!this.exists(id)) throw notFound(this.kind.type, id);
    const { db } = this.ctx;
    db.transaction(() => {
      const { table, type } = this.kind.usedBy;
      const users = db.prepare(`SELECT id FROM ${table} WHERE outcome_id = ?`).pluck().all(id) as number[];
      db.prepare(`UPDATE ${table} SET outcome_id = NULL, updated_at = ? WHERE outcome_id = ?`).run(isoSeconds(this.ctx.clock.now()), id);
      for (const record of users) this.ctx.changes.record(type, record, 'updated', actor.userId);
      db.prepare(`DELETE FROM ${this.kind.table} WHERE id = ?`).run(id);
      this.ctx.changes.record(this.kind.type, id, 'deleted', actor.userId);
    })();
  }

  private checkName(data: Record<string, unknown>, exceptId = 0): string {
    const errors = new FieldErrors(this.kind.type);
    const parsed = inputSchema.safeParse(data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.code === 'unrecognized_keys') issue.keys.forEach((k) => errors.add(`/${k}`, 'unknown', `${k} is not an attribute of ${this.kind.type}.`));
        else errors.add('/name', data.name === undefined ? 'missing' : 'blank', 'name is required.');
      }
      errors.throwIfAny();
    }
    const name = parsed.data!.name;
    if (this.ctx.db.prepare(`SELECT 1 FROM ${this.kind.table} WHERE name = ? AND id != ?`).get(name, exceptId) !== undefined) {
      errors.add('/name', 'already_exists', `A ${this.kind.type.replace('_', ' ')} named ${name} already exists.`);
    }
    errors.throwIfAny();
    return name;
  }
}
