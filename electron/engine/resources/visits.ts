import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { notFound, type FieldErrors } from '../problems.js';
import { requireAuthorOrAdmin } from '../auth/permissions.js';
import { checkFields, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonObject } from '../db/sqlJson.js';
import { checkResourceLink, removeLinkedOnDelete } from './resourceLinks.js';
import { RecordStore } from './recordStore.js';
import type { NamedList } from './namedLists.js';
import { VISIT_VERIFICATION_STATUSES } from '../../../shared/resources/visit.js';
import type { SyncSource } from '../sync/sources.js';

/** What a rep records about a visit (POST, PUT and DELETE are Outpost extensions; the spec's API is read-only). */
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
    this.check(values, errors, true);
    const row = { rep_location_verification_status: 'location_unknown', ...values, visited_at: values.visited_at ?? isoSeconds(this.ctx.clock.now()) };
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId);
  }

  /** A correction by the rep who recorded it (or an admin): the fields given, checked as on create. */
  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.changeable(id, actor);
    const { values, errors } = checkFields('visit', FIELDS, data);
    if (values.visited_at === null && !errors.has('/visited_at')) errors.add('/visited_at', 'blank', "visited_at can't be blank.");
    if (values.rep_location_verification_status === null && !errors.has('/rep_location_verification_status')) {
      errors.add('/rep_location_verification_status', 'blank', "rep_location_verification_status can't be blank.");
    }
    const row = { ...current, ...values };
    this.check(row, errors, values.resource_type !== undefined || values.resource_id !== undefined);
    this.store.update(id, row, actor.userId);
  }

  delete(id: number, actor: Actor): void {
    this.changeable(id, actor);
    this.store.remove(id, actor.userId);
  }

  /** The outcome named must exist, and the lead or contact visited (when it is given or changed). One 422 with every problem. */
  private check(values: Record<string, unknown>, errors: FieldErrors, linkChanged: boolean): void {
    if (typeof values.outcome_id === 'number' && !this.outcomes.exists(values.outcome_id)) {
      errors.add('/outcome_id', 'incorrect_value', `There is no visit outcome with id ${values.outcome_id}.`);
    }
    checkResourceLink(this.ctx.db, values as { resource_type?: string | null; resource_id?: number | null }, errors, { required: true, changed: linkChanged });
    errors.throwIfAny();
  }

  /** The visit, if the actor may change it: its creator's or, for an admin, anyone's (others 403). */
  private changeable(id: number, actor: Actor): Record<string, unknown> {
    const current = this.ctx.db.prepare('SELECT * FROM visits WHERE id = ?').get(id) as (Record<string, unknown> & { creator_id: number | null }) | undefined;
    if (!current) throw notFound('visit', id);
    requireAuthorOrAdmin(actor, current.creator_id, 'visit');
    return current;
  }
}
