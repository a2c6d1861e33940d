import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, notFound } from '../problems.js';
import { requireAuthorOrAdmin } from '../auth/permissions.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import { recordIdParam, type RawQuery } from './params.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { checkRecordsExist, checkResourceLink, removeLinkedOnDelete } from './resourceLinks.js';
import { RecordStore } from './recordStore.js';
import type { Users } from './users.js';
import type { NamedList } from './namedLists.js';
import { CALL_RESOURCE_TYPES } from '../../../shared/resources/call.js';
import type { SyncSource } from '../sync/sources.js';

/** The spec's Call field table, and who recorded the call (`creator_id`, an extension: only they or an admin change it). */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  user_id: { kind: 'id' },
  summary: { kind: 'string', maxLength: 65535 },
  recording_url: { kind: 'string', maxLength: 2048 },
  outcome_id: { kind: 'id' },
  duration: { kind: 'integer', min: 0 },
  phone_number: { kind: 'string' },
  incoming: { kind: 'boolean' },
  missed: { kind: 'boolean' },
  resource_type: { kind: 'enum', values: CALL_RESOURCE_TYPES, nullable: true },
  resource_id: { kind: 'id' },
  associated_deal_ids: { kind: 'idList' },
  made_at: { kind: 'datetime' },
  external_id: { kind: 'string' },
};

const CALL_JSON = jsonObject({
  id: 'k.id',
  creator_id: 'k.creator_id',
  user_id: 'k.user_id',
  summary: 'k.summary',
  recording_url: 'k.recording_url',
  outcome_id: 'k.outcome_id',
  duration: 'k.duration',
  phone_number: 'k.phone_number',
  incoming: jsonBool('k.incoming'),
  missed: jsonBool('k.missed'),
  resource_type: 'k.resource_type',
  resource_id: 'k.resource_id',
  associated_deal_ids: 'json(k.associated_deal_ids)',
  made_at: 'k.made_at',
  external_id: 'k.external_id',
  updated_at: 'k.updated_at',
});

/** Calls as devices receive them (sync/). */
export const CALL_SYNC: SyncSource = { type: 'call', from: 'calls k', idColumn: 'k.id', json: CALL_JSON };

const WRITABLE = [
  'user_id', 'summary', 'recording_url', 'outcome_id', 'duration', 'phone_number', 'incoming', 'missed',
  'resource_type', 'resource_id', 'associated_deal_ids', 'made_at', 'external_id',
] as const;

type CallRow = Record<(typeof WRITABLE)[number], unknown>;

/** Calls at /v2/calls (the real service's paths), newest first. */
export class Calls {
  private readonly list: ListDefinition;
  private readonly store: RecordStore;

  constructor(private readonly ctx: EngineContext, private readonly users: Users, private readonly outcomes: NamedList) {
    this.store = new RecordStore(ctx, 'calls', 'call', WRITABLE);
    this.list = {
      resource: 'call',
      from: 'calls k',
      json: CALL_JSON,
      idColumn: 'k.id',
      filters: {
        resource_type: { kind: 'enum', column: 'k.resource_type', values: CALL_RESOURCE_TYPES },
        resource_id: { kind: 'id', column: 'k.resource_id' },
      },
      // The spec offers no sort_by: calls are sorted by made_at, newest first.
      sorts: {},
      defaultOrder: 'k.made_at DESC',
      maxPage: 1000,
      extraFilter: (name, value) => name === 'associated_deal_id'
        ? { sql: 'EXISTS (SELECT 1 FROM json_each(k.associated_deal_ids) WHERE value = ?)', params: [recordIdParam(name, value)] }
        : undefined,
    };
    removeLinkedOnDelete(ctx, 'calls', (id, actorId) => this.store.remove(id, actorId));
  }

  json(id: number): string {
    const json = this.ctx.db.prepare(`SELECT ${CALL_JSON} FROM calls k WHERE k.id = ?`).pluck().get(id) as string | undefined;
    if (json === undefined) throw notFound('call', id);
    return json;
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('call', FIELDS, data);
    if (!errors.has('/phone_number')) {
      if (values.phone_number === undefined) errors.add('/phone_number', 'missing', 'phone_number is required.');
      else if (isBlank(values.phone_number)) errors.add('/phone_number', 'blank', "phone_number can't be blank.");
    }
    const defaults = { user_id: actor.userId, incoming: 0, missed: 0, associated_deal_ids: '[]', made_at: isoSeconds(this.ctx.clock.now()) };
    const row = this.apply(defaults, values, errors, true);
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId);
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.changeable(id, actor);
    const { values, errors } = checkFields('call', FIELDS, data);
    if (values.phone_number !== undefined && isBlank(values.phone_number) && !errors.has('/phone_number')) {
      errors.add('/phone_number', 'blank', "phone_number can't be blank.");
    }
    this.store.update(id, this.apply({ ...current }, values, errors, false), actor.userId);
  }

  delete(id: number, actor: Actor): void {
    this.changeable(id, actor);
    this.store.remove(id, actor.userId);
  }

  /** The call, if the actor may change it: its creator's or, for an admin, anyone's (others 403). */
  private changeable(id: number, actor: Actor): CallRow {
    const current = this.ctx.db.prepare('SELECT * FROM calls WHERE id = ?').get(id) as (CallRow & { creator_id: number | null }) | undefined;
    if (!current) throw notFound('call', id);
    requireAuthorOrAdmin(actor, current.creator_id, 'call');
    return current;
  }

  private apply(row: Partial<CallRow>, values: Record<string, unknown>, errors: FieldErrors, creating: boolean): Partial<CallRow> {
    const out: Partial<CallRow> = { ...row };
    for (const field of WRITABLE) {
      const value = values[field];
      if (value === undefined) continue;
      if (field === 'incoming' || field === 'missed') out[field] = value ? 1 : 0;
      else if (field === 'associated_deal_ids') out[field] = JSON.stringify([...new Set((value as number[] | null) ?? [])]);
      else out[field] = value;
    }
    if (values.made_at === null && !errors.has('/made_at')) errors.add('/made_at', 'blank', "made_at can't be blank.");
    this.users.checkReference('user_id', values.user_id, errors);
    if (typeof values.outcome_id === 'number' && !this.outcomes.exists(values.outcome_id)) {
      errors.add('/outcome_id', 'incorrect_value', `There is no call outcome with id ${values.outcome_id}.`);
    }
    if (Array.isArray(values.associated_deal_ids)) checkRecordsExist(this.ctx.db, 'deal', values.associated_deal_ids as number[], '/associated_deal_ids', errors);
    const linkChanged = creating || values.resource_type !== undefined || values.resource_id !== undefined;
    checkResourceLink(this.ctx.db, out as { resource_type?: string | null; resource_id?: number | null }, errors, { required: false, changed: linkChanged });
    errors.throwIfAny();
    return out;
  }
}
