import type { Actor, EngineContext } from '../context.js';
import { FieldErrors, notFound, problem } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import type { SyncSource } from '../sync/sources.js';

export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  name: { kind: 'string' },
  disabled: { kind: 'boolean' },
};

const PIPELINE_JSON = jsonObject({
  id: 'p.id', name: 'p.name', disabled: jsonBool('p.disabled'), created_at: 'p.created_at', updated_at: 'p.updated_at',
});

/** Pipelines as devices receive them (sync/). */
export const PIPELINE_SYNC: SyncSource = { type: 'pipeline', from: 'pipelines p', idColumn: 'p.id', json: PIPELINE_JSON };

interface PipelineRow {
  id: number;
  name: string;
  disabled: number;
}

/**
 * Sales pipelines: read by everyone, as the real service lists them; admins
 * create, rename, disable and delete them (an Outpost extension). A hub
 * starts with "Sales Pipeline" (migration 12).
 */
export class Pipelines {
  private readonly list: ListDefinition;
  private readonly store: RecordStore;
  private readonly byId;

  constructor(private readonly ctx: EngineContext) {
    this.store = new RecordStore(ctx, 'pipelines', 'pipeline', ['name', 'disabled']);
    this.byId = ctx.db.prepare('SELECT * FROM pipelines WHERE id = ?');
    this.list = {
      resource: 'pipeline',
      from: 'pipelines p',
      json: PIPELINE_JSON,
      idColumn: 'p.id',
      filters: { name: { kind: 'string', column: 'p.name' }, disabled: { kind: 'bool', column: 'p.disabled' } },
      sorts: { id: 'p.id', name: 'p.name', created_at: 'p.created_at', updated_at: 'p.updated_at' },
      defaultOrder: 'p.id ASC',
    };
  }

  json(id: number): string {
    return recordJson(this.ctx, 'pipeline', `SELECT ${PIPELINE_JSON} FROM pipelines p WHERE p.id = ?`, id);
  }

  exists(id: number): boolean {
    return this.byId.get(id) !== undefined;
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('pipeline', FIELDS, data);
    if (values.name === undefined && !errors.has('/name')) errors.add('/name', 'missing', 'name is required.');
    const row = this.apply({ disabled: 0 }, values, errors);
    return this.store.insert(row, {}, actor.userId);
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.byId.get(id) as PipelineRow | undefined;
    if (!current) throw notFound('pipeline', id);
    const { values, errors } = checkFields('pipeline', FIELDS, data);
    this.store.update(id, this.apply({ ...current }, values, errors), actor.userId);
  }

  /** A pipeline goes with its stages, but only when none of them holds a deal (move the deals first). */
  delete(id: number, actor: Actor): void {
    if (!this.exists(id)) throw notFound('pipeline', id);
    const deals = this.ctx.db.prepare('SELECT COUNT(*) FROM deals WHERE stage_id IN (SELECT id FROM stages WHERE pipeline_id = ?)').pluck().get(id) as number;
    if (deals > 0) {
      throw problem('incorrect_value', `The pipeline holds ${deals} deal(s): move them to another pipeline's stages before deleting it.`, '/id', 'pipeline');
    }
    this.store.remove(id, actor.userId, () => {
      const stages = this.ctx.db.prepare('SELECT id FROM stages WHERE pipeline_id = ?').pluck().all(id) as number[];
      for (const stage of stages) {
        this.ctx.db.prepare('DELETE FROM stages WHERE id = ?').run(stage);
        this.ctx.changes.record('stage', stage, 'deleted', actor.userId);
      }
    });
  }

  private apply(row: Partial<PipelineRow>, values: Record<string, unknown>, errors: FieldErrors): Partial<PipelineRow> {
    const out = { ...row };
    if (values.name !== undefined && !errors.has('/name')) {
      if (isBlank(values.name)) errors.add('/name', 'blank', "name can't be blank.");
      else out.name = (values.name as string).trim();
    }
    if (values.disabled !== undefined) out.disabled = values.disabled ? 1 : 0;
    if (out.name !== undefined && !errors.has('/name')
      && this.ctx.db.prepare('SELECT 1 FROM pipelines WHERE name = ? AND id != ?').get(out.name, out.id ?? 0) !== undefined) {
      errors.add('/name', 'already_exists', `A pipeline named ${out.name} already exists.`);
    }
    errors.throwIfAny();
    return out;
  }
}
