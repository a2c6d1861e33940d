import { z } from 'zod';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, notFound } from '../http/problem.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonObject } from './sqlJson.js';

const OUTCOME_JSON = jsonObject({ id: 'o.id', creator_id: 'o.creator_id', name: 'o.name', created_at: 'o.created_at', updated_at: 'o.updated_at' });

const LIST: ListDefinition = {
  resource: 'call_outcome',
  from: 'call_outcomes o',
  json: OUTCOME_JSON,
  idColumn: 'o.id',
  filters: {},
  sorts: {},
  defaultOrder: 'o.id ASC',
};

const inputSchema = z.strictObject({ name: z.string().trim().min(1).max(255) });

/**
 * Call outcomes: read by everyone (sorted by id, as the spec says); a
 * default set comes with every hub, and admins manage the list (extension).
 */
export class CallOutcomes {
  constructor(private readonly ctx: EngineContext) {}

  listPage(query: RawQuery): ListPage {
    return runList(LIST, query, this.ctx.statements);
  }

  json(id: number): string {
    const json = this.ctx.db.prepare(`SELECT ${OUTCOME_JSON} FROM call_outcomes o WHERE o.id = ?`).pluck().get(id) as string | undefined;
    if (json === undefined) throw notFound('call_outcome', id);
    return json;
  }

  exists(id: number): boolean {
    return this.ctx.db.prepare('SELECT 1 FROM call_outcomes WHERE id = ?').get(id) !== undefined;
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const name = this.checkName(data);
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      const id = Number(this.ctx.db.prepare('INSERT INTO call_outcomes (creator_id, name, created_at, updated_at) VALUES (?, ?, ?, ?)').run(actor.userId, name, now, now).lastInsertRowid);
      this.ctx.changes.record('call_outcome', id, 'created', actor.userId);
      return id;
    })();
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    if (!this.exists(id)) throw notFound('call_outcome', id);
    const name = this.checkName(data, id);
    this.ctx.db.transaction(() => {
      this.ctx.db.prepare('UPDATE call_outcomes SET name = ?, updated_at = ? WHERE id = ?').run(name, isoSeconds(this.ctx.clock.now()), id);
      this.ctx.changes.record('call_outcome', id, 'updated', actor.userId);
    })();
  }

  /** Calls that had this outcome keep existing, with no outcome (each logged as updated). */
  delete(id: number, actor: Actor): void {
    if (!this.exists(id)) throw notFound('call_outcome', id);
    const { db } = this.ctx;
    db.transaction(() => {
      const calls = db.prepare('SELECT id FROM calls WHERE outcome_id = ?').pluck().all(id) as number[];
      db.prepare('UPDATE calls SET outcome_id = NULL, updated_at = ? WHERE outcome_id = ?').run(isoSeconds(this.ctx.clock.now()), id);
      for (const call of calls) this.ctx.changes.record('call', call, 'updated', actor.userId);
      db.prepare('DELETE FROM call_outcomes WHERE id = ?').run(id);
      this.ctx.changes.record('call_outcome', id, 'deleted', actor.userId);
    })();
  }

  private checkName(data: Record<string, unknown>, exceptId = 0): string {
    const errors = new FieldErrors('call_outcome');
    const parsed = inputSchema.safeParse(data);
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        if (issue.code === 'unrecognized_keys') issue.keys.forEach((k) => errors.add(`/${k}`, 'unknown', `${k} is not an attribute of call_outcome.`));
        else errors.add('/name', data.name === undefined ? 'missing' : 'blank', 'name is required.');
      }
      errors.throwIfAny();
    }
    const name = parsed.data!.name;
    if (this.ctx.db.prepare('SELECT 1 FROM call_outcomes WHERE name = ? AND id != ?').get(name, exceptId) !== undefined) {
      errors.add('/name', 'already_exists', `A call outcome named ${name} already exists.`);
    }
    errors.throwIfAny();
    return name;
  }
}
