import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { notFound } from '../problems.js';
import { checkFields, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonObject } from './sqlJson.js';
import { checkResourceLink, removeLinkedOnDelete } from './resourceLinks.js';
import { RecordStore } from './recordStore.js';
import type { NamedList } from './namedLists.js';
import { VISIT_VERIFICATION_STATUSES } from '../../../shared/resources/visit.js';
import type { SyncSource } from '../sync/sources.js';

/** What a rep records about a visit (POST is an Outpost extension; the spec's API is read-only). */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  outcome_id: { kind: 'id' },
  resource_type: { kind: 'enum', values: ['lead', 'contact'], nullable: true },
  resource_id: { kind: 'id' },
  visited_at: { kind: 'datetime' },
  resource_address: { kind: 'string' },
  rep_location_verification_status: { kind: 'enum', values: VISIT_VERIFICATION_STATUSES },
  summary: { kind: 'string', maxLength: 65535 },
};

const VISIT_JSON = jsonObject({
  id: 'v.id', creator_id: 'v.creator_id', outcome_id: 'v.outcome_id', resource_type: 'v.resource_type',
  resource_id: 'v.resource_id', visited_at: 'v.visited_at', resource_address: 'v.resource_address',
  rep_location_verification_status: 'v.rep_location_verification_status', summary: 'v.summary',
  created_at: 'v.created_at', updated_at: 'v.updated_at',
});

/** Visits as devices receive them (sync/). */
export const VISIT_SYNC: SyncSource = { type: 'visit', from: 'visits v', idColumn: 'v.id', json: VISIT_JSON };

const WRITABLE = ['outcome_id', 'resource_type', 'resource_id', 'visited_at', 'resource_address', 'rep_location_verification_status', 'summary'] as const;

export const LIST: ListDefinition = {
  resource: 'visit',
  from: 'visits v',
  json: VISIT_JSON,
  idColumn: 'v.id',
  filters: {
    outcome_id: { kind: 'id', column: 'v.outcome_id' },
    creator_id: { kind: 'id', column: 'v.creator_id' },
    resource_type: { kind: 'enum', column: 'v.resource_type', values: ['lead', 'contact'] },
    resource_id: { kind: 'id', column: 'v.resource_id' },
    rep_location_verification_status: { kind: 'enum', column: 'v.rep_location_verification_status', values: VISIT_VERIFICATION_STATUSES },
  },
  sorts: { id: 'v.id', visited_at: 'v.visited_at' },
  defaultOrder: 'v.id ASC',
  maxPage: 100,
  maxPerPage: 100,
};

export class Visits {
  private readonly store: RecordStore;

  constructor(private readonly ctx: EngineContext, private readonly outcomes: NamedList) {
    this.store = new RecordStore(ctx, 'visits', 'visit', WRITABLE);
    removeLinkedOnDelete(ctx, 'visits', (id, actorId) => this.store.remove(id, actorId));
  }

  json(id: number): string {
    const json = this.ctx.db.prepare(`SELECT ${VISIT_JSON} FROM visits v WHERE v.id = ?`).pluck().get(id) as string | undefined;
    if (json === undefined) throw notFound('visit', id);
    return json;
  }

  /** `resource_id` needs `resource_type` (spec); `resource_type` alone is fine. */
  listPage(query: RawQuery): ListPage {
    return runList(query.resource_id !== undefined ? { ...LIST, together: [['resource_type', 'resource_id']] } : LIST, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('visit', FIELDS, data);
    if (typeof values.outcome_id === 'number' && !this.outcomes.exists(values.outcome_id)) {
      errors.add('/outcome_id', 'incorrect_value', `There is no visit outcome with id ${values.outcome_id}.`);
    }
    checkResourceLink(this.ctx.db, values as { resource_type?: string | null; resource_id?: number | null }, errors, { required: true, changed: true });
    errors.throwIfAny();
    const row = { rep_location_verification_status: 'location_unknown', ...values, visited_at: values.visited_at ?? isoSeconds(this.ctx.clock.now()) };
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId);
  }
}
