import type { Actor, EngineContext } from '../context.js';
import { FieldErrors, notFound, problem } from '../problems.js';
import { RecordStore, recordJson } from './recordStore.js';
import { checkFields, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonObject } from '../db/sqlJson.js';
import { recordExists, removeLinkedOnDelete } from './resourceLinks.js';
import type { Users } from './users.js';
import type { SyncSource } from '../sync/sources.js';

export const COLLABORATION_RESOURCE_TYPES = ['lead', 'contact', 'deal', 'sales_account'] as const;

/** The spec's Collaboration field table: everything is set at creation; a collaboration is never updated. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  resource_type: { kind: 'enum', values: COLLABORATION_RESOURCE_TYPES },
  resource_id: { kind: 'id' },
  collaborator_id: { kind: 'id' },
};

const COLLABORATION_JSON = jsonObject({
  id: 'cb.id', creator_id: 'cb.creator_id', resource_type: 'cb.resource_type', resource_id: 'cb.resource_id',
  collaborator_id: 'cb.collaborator_id', created_at: 'cb.created_at', updated_at: 'cb.updated_at',
});

/** Collaborations as devices receive them (sync/). */
export const COLLABORATION_SYNC: SyncSource = { type: 'collaboration', from: 'collaborations cb', idColumn: 'cb.id', json: COLLABORATION_JSON };

interface CollaborationRow {
  id: number;
  creator_id: number;
  resource_type: (typeof COLLABORATION_RESOURCE_TYPES)[number];
  resource_id: number;
  collaborator_id: number;
}

/**
 * Collaborations: a user working on a lead, contact, deal or sales account
 * alongside its owner. A `sales_account` is the customer account of an
 * organization, so its id is an organization contact's id.
 */
export class Collaborations {
  private readonly store: RecordStore;
  private readonly list: ListDefinition;

  constructor(private readonly ctx: EngineContext, private readonly users: Users) {
    this.store = new RecordStore(ctx, 'collaborations', 'collaboration', ['resource_type', 'resource_id', 'collaborator_id']);
    this.list = {
      resource: 'collaboration',
      from: 'collaborations cb',
      json: COLLABORATION_JSON,
      idColumn: 'cb.id',
      filters: {
        creator_id: { kind: 'id', column: 'cb.creator_id' },
        resource_type: { kind: 'enum', column: 'cb.resource_type', values: COLLABORATION_RESOURCE_TYPES },
        resource_id: { kind: 'id', column: 'cb.resource_id' },
        // Extension: the records a user collaborates on.
        collaborator_id: { kind: 'id', column: 'cb.collaborator_id' },
      },
      sorts: { id: 'cb.id', created_at: 'cb.created_at', updated_at: 'cb.updated_at' },
      defaultOrder: 'cb.id ASC',
      // `includes` is accepted and ignored: the spec marks it unsupported.
      extraFilter: (name) => (name === 'includes' ? { sql: '1 = 1', params: [] } : undefined),
    };
    // A deleted record takes its collaborations with it.
    removeLinkedOnDelete(ctx, 'collaborations', (id, actorId) => this.store.remove(id, actorId));
  }

  json(id: number): string {
    return recordJson(this.ctx, 'collaboration', `SELECT ${COLLABORATION_JSON} FROM collaborations cb WHERE cb.id = ?`, id);
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('collaboration', FIELDS, data);
    for (const field of ['resource_type', 'resource_id', 'collaborator_id']) {
      if (!errors.has(`/${field}`) && (values[field] === undefined || values[field] === null)) errors.add(`/${field}`, 'missing', `${field} is required.`);
    }
    this.checkTarget(values, errors);
    errors.throwIfAny();
    return this.store.insert(values, { creator_id: actor.userId }, actor.userId);
  }

  /**
   * The spec leaves who may end a collaboration open: an admin, whoever
   * created it, or the collaborator themself (leaving a record).
   */
  delete(id: number, actor: Actor): void {
    const row = this.ctx.statements.get('SELECT * FROM collaborations WHERE id = ?').get(id) as CollaborationRow | undefined;
    if (!row) throw notFound('collaboration', id);
    if (actor.role !== 'admin' && actor.userId !== row.creator_id && actor.userId !== row.collaborator_id) {
      throw problem('forbidden', 'Only an admin, the user who added the collaborator, or the collaborator can remove a collaboration.');
    }
    this.store.remove(id, actor.userId);
  }

  private checkTarget(values: Record<string, unknown>, errors: FieldErrors): void {
    this.users.checkReference('collaborator_id', values.collaborator_id, errors);
    const type = values.resource_type as string | undefined;
    const id = values.resource_id as number | undefined;
    if (errors.has('/resource_type') || errors.has('/resource_id') || type === undefined || id === undefined || id === null) return;
    if (!recordExists(this.ctx.db, type, id)) {
      errors.add('/resource_id', 'incorrect_value', `There is no ${type.replace('_', ' ')} with id ${id}.`);
      return;
    }
    if (errors.has('/collaborator_id')) return;
    const taken = this.ctx.statements.get('SELECT 1 FROM collaborations WHERE resource_type = ? AND resource_id = ? AND collaborator_id = ?')
      .get(type, id, values.collaborator_id);
    if (taken !== undefined) errors.add('/collaborator_id', 'already_exists', `User ${String(values.collaborator_id)} already collaborates on this ${type.replace('_', ' ')}.`);
  }
}
