import type { Actor, EngineContext } from '../context.js';
import { FieldErrors, notFound, problem } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import { enumParam, type RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { isoSeconds } from '../clock.js';
import type { Pipelines } from './pipelines.js';
import { STAGE_CATEGORIES, type StageCategory } from '../../../shared/resources/deal.js';
import type { SyncSource } from '../sync/sources.js';

export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  name: { kind: 'string' },
  category: { kind: 'enum', values: STAGE_CATEGORIES },
  position: { kind: 'integer', min: 1 },
  likelihood: { kind: 'integer', min: 0 },
  active: { kind: 'boolean' },
  pipeline_id: { kind: 'id', createOnly: true },
};

const STAGE_JSON = jsonObject({
  id: 's.id', name: 's.name', category: 's.category', position: 's.position', likelihood: 's.likelihood',
  active: jsonBool('s.active'), pipeline_id: 's.pipeline_id', created_at: 's.created_at', updated_at: 's.updated_at',
});

/** Stages as devices receive them (sync/). */
export const STAGE_SYNC: SyncSource = { type: 'stage', from: 'stages s', idColumn: 's.id', json: STAGE_JSON };

export interface StageRow {
  id: number;
  pipeline_id: number;
  name: string;
  category: StageCategory;
  position: number;
  likelihood: number;
  active: number;
}

/** Deals in won, lost and unqualified stages are finished: such stages are not active unless said otherwise. */
const isOpenCategory = (category: StageCategory) => category === 'incoming' || category === 'in_progress';

/**
 * The stages of the pipelines, in pipeline order (`position`). Everyone
 * reads them; admins manage them (an Outpost extension). A stage that holds
 * deals cannot be deleted: the deals are moved first, so none is left
 * without a stage or moved somewhere nobody chose.
 */
export class Stages {
  private readonly list: ListDefinition;
  private readonly store: RecordStore;
  private readonly byId;
  private readonly firstOfDefaultPipeline;

  constructor(private readonly ctx: EngineContext, private readonly pipelines: Pipelines) {
    this.store = new RecordStore(ctx, 'stages', 'stage', ['pipeline_id', 'name', 'category', 'position', 'likelihood', 'active']);
    this.byId = ctx.db.prepare('SELECT * FROM stages WHERE id = ?');
    // The default pipeline is the oldest one not disabled; its first stage receives new deals.
    this.firstOfDefaultPipeline = ctx.db.prepare(`SELECT s.id FROM stages s WHERE s.pipeline_id =
      (SELECT p.id FROM pipelines p WHERE p.disabled = 0 AND EXISTS (SELECT 1 FROM stages x WHERE x.pipeline_id = p.id) ORDER BY p.id LIMIT 1)
      ORDER BY s.position, s.id LIMIT 1`).pluck();
    this.list = {
      resource: 'stage',
      from: 'stages s',
      json: STAGE_JSON,
      idColumn: 's.id',
      filters: {
        pipeline_id: { kind: 'id', column: 's.pipeline_id' },
        name: { kind: 'string', column: 's.name' },
        active: { kind: 'bool', column: 's.active' },
      },
      sorts: {
        id: 's.id', name: 's.name', position: 's.position', likelihood: 's.likelihood',
        created_at: 's.created_at', updated_at: 's.updated_at',
      },
      defaultOrder: 's.pipeline_id ASC, s.position ASC',
      // Extension: the stages of one kind (`category=won`).
      extraFilter: (name, value) => name === 'category'
        ? { sql: 's.category = ?', params: [enumParam(name, value, STAGE_CATEGORIES)] }
        : undefined,
    };
  }

  json(id: number): string {
    return recordJson(this.ctx, 'stage', `SELECT ${STAGE_JSON} FROM stages s WHERE s.id = ?`, id);
  }

  find(id: number): StageRow | undefined {
    return this.byId.get(id) as StageRow | undefined;
  }

  /** Where a deal created without a stage goes; undefined when no pipeline has stages. */
  defaultStageId(): number | undefined {
    return this.firstOfDefaultPipeline.get() as number | undefined;
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('stage', FIELDS, data);
    for (const field of ['name', 'category', 'pipeline_id']) {
      if (values[field] === undefined && !errors.has(`/${field}`)) errors.add(`/${field}`, 'missing', `${field} is required.`);
    }
    const pipelineId = values.pipeline_id as number | undefined;
    if (typeof pipelineId === 'number' && !this.pipelines.exists(pipelineId)) {
      errors.add('/pipeline_id', 'incorrect_value', `There is no pipeline with id ${pipelineId}.`);
    }
    const category = values.category as StageCategory | undefined;
    const defaults: Partial<StageRow> = {
      pipeline_id: pipelineId,
      likelihood: category === 'won' ? 100 : 0,
      active: category && isOpenCategory(category) ? 1 : 0,
      position: typeof pipelineId === 'number' ? this.nextPosition(pipelineId) : 1,
    };
    const row = this.apply(defaults, values, errors);
    // A position given on create places the stage there and moves the later ones down.
    const place = values.position === undefined ? undefined : (id: number) => this.renumber(row.pipeline_id!, actor.userId, { id, position: row.position! });
    return this.store.insert(row, {}, actor.userId, place);
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.find(id);
    if (!current) throw notFound('stage', id);
    const { values, errors } = checkFields('stage', FIELDS, data);
    if (values.pipeline_id !== undefined && values.pipeline_id !== current.pipeline_id && !errors.has('/pipeline_id')) {
      errors.add('/pipeline_id', 'incorrect_value', 'A stage stays in its pipeline: pipeline_id can be set only when the stage is created.');
    }
    const row = this.apply({ ...current }, values, errors);
    // Moving a stage shifts the ones between its old and new place, in the same transaction.
    const place = values.position === undefined ? undefined : () => this.renumber(current.pipeline_id, actor.userId, { id, position: row.position! });
    this.store.update(id, row, actor.userId, place);
  }

  delete(id: number, actor: Actor): void {
    if (!this.find(id)) throw notFound('stage', id);
    const deals = this.ctx.db.prepare('SELECT COUNT(*) FROM deals WHERE stage_id = ?').pluck().get(id) as number;
    if (deals > 0) {
      throw problem('incorrect_value', `The stage holds ${deals} deal(s): move them to another stage before deleting it.`, '/id', 'stage');
    }
    const stage = this.find(id)!;
    // The later stages move up, so positions stay 1…n with no gap.
    this.store.remove(id, actor.userId, () => this.renumber(stage.pipeline_id, actor.userId, undefined, id));
  }

  /**
   * Numbers a pipeline's stages 1…n in their order (position, then id),
   * with `moved` put at its position (clamped to 1…n) and `without` left
   * out; each other stage whose position changes is logged as updated, so
   * devices follow. Runs inside the caller's transaction.
   */
  private renumber(pipelineId: number, actorId: number, moved?: { id: number; position: number }, without?: number): void {
    const ids = (this.ctx.db.prepare('SELECT id FROM stages WHERE pipeline_id = ? ORDER BY position, id').pluck().all(pipelineId) as number[])
      .filter((stage) => stage !== without && stage !== moved?.id);
    if (moved) ids.splice(Math.min(Math.max(moved.position, 1), ids.length + 1) - 1, 0, moved.id);
    const now = isoSeconds(this.ctx.clock.now());
    const setPosition = this.ctx.db.prepare('UPDATE stages SET position = ?, updated_at = ? WHERE id = ? AND position != ?');
    ids.forEach((stage, index) => {
      const changed = setPosition.run(index + 1, now, stage, index + 1).changes > 0;
      if (changed && stage !== moved?.id) this.ctx.changes.record('stage', stage, 'updated', actorId);
    });
  }

  private nextPosition(pipelineId: number): number {
    return (this.ctx.db.prepare('SELECT COALESCE(MAX(position), 0) + 1 FROM stages WHERE pipeline_id = ?').pluck().get(pipelineId) as number);
  }

  private apply(row: Partial<StageRow>, values: Record<string, unknown>, errors: FieldErrors): Partial<StageRow> {
    const out = { ...row };
    if (values.name !== undefined && !errors.has('/name')) {
      if (isBlank(values.name)) errors.add('/name', 'blank', "name can't be blank.");
      else out.name = (values.name as string).trim();
    }
    if (values.category !== undefined) out.category = values.category as StageCategory;
    for (const field of ['position', 'likelihood'] as const) {
      if (values[field] === null) errors.add(`/${field}`, 'blank', `${field} can't be blank.`);
      else if (values[field] !== undefined) out[field] = values[field] as number;
    }
    if (typeof out.likelihood === 'number' && out.likelihood > 100 && !errors.has('/likelihood')) {
      errors.add('/likelihood', 'incorrect_value', 'likelihood is a percentage: at most 100.');
    }
    if (values.active !== undefined) out.active = values.active ? 1 : 0;
    if (out.name !== undefined && out.pipeline_id !== undefined && !errors.has('/name')
      && this.ctx.db.prepare('SELECT 1 FROM stages WHERE pipeline_id = ? AND name = ? AND id != ?').get(out.pipeline_id, out.name, out.id ?? 0) !== undefined) {
      errors.add('/name', 'already_exists', `The pipeline already has a stage named ${out.name}.`);
    }
    errors.throwIfAny();
    return out;
  }
}
