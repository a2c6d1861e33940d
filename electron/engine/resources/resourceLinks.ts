import type { Db } from '../db/database.js';
import type { FieldErrors } from '../problems.js';
import type { EngineContext } from '../context.js';

/** Tables of the records other records can point at with resource_type + resource_id. */
const RESOURCE_TABLES: Partial<Record<string, string>> = { contact: 'contacts', lead: 'leads', deal: 'deals' };

/** Types whose records are contacts of one kind: a sales account is the customer account of an organization, with its id. */
const ORGANIZATION_TYPES = new Set(['organization', 'sales_account']);

/** Whether a record of `type` exists. */
export function recordExists(db: Db, type: string, id: number): boolean {
  if (ORGANIZATION_TYPES.has(type)) return db.prepare('SELECT 1 FROM contacts WHERE id = ? AND is_organization = 1').get(id) !== undefined;
  const table = RESOURCE_TABLES[type];
  return table !== undefined && db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`).get(id) !== undefined;
}

export interface ResourceLink {
  resource_type?: string | null;
  resource_id?: number | null;
}

/**
 * Checks a `resource_type` + `resource_id` pair after a change: both or
 * neither (or both required), naming a record that exists. `changed` says
 * whether the request touched either field (unchanged links are not re-checked).
 */
export function checkResourceLink(db: Db, link: ResourceLink, errors: FieldErrors, options: { required: boolean; changed: boolean }): void {
  if (!options.changed || errors.has('/resource_type') || errors.has('/resource_id')) return;
  const type = link.resource_type ?? null;
  const id = link.resource_id ?? null;
  if (type === null && id === null) {
    if (options.required) {
      errors.add('/resource_type', 'missing', 'resource_type is required.');
      errors.add('/resource_id', 'missing', 'resource_id is required.');
    }
    return;
  }
  if (type === null || id === null) {
    const missing = type === null ? 'resource_type' : 'resource_id';
    errors.add(`/${missing}`, 'missing', 'resource_type and resource_id are given together.');
    return;
  }
  if (!RESOURCE_TABLES[type] && !ORGANIZATION_TYPES.has(type)) errors.add('/resource_type', 'incorrect_value', `Records cannot be attached to ${type}s.`);
  else if (!recordExists(db, type, id)) errors.add('/resource_id', 'incorrect_value', `There is no ${type.replace('_', ' ')} with id ${id}.`);
}

/** Every id must name an existing record of `type` (e.g. a call's associated_deal_ids). */
export function checkRecordsExist(db: Db, type: string, ids: number[], pointer: string, errors: FieldErrors): void {
  if (ids.length === 0 || errors.has(pointer)) return;
  const table = RESOURCE_TABLES[type];
  if (!table) {
    errors.add(pointer, 'incorrect_value', `There are no ${type}s yet to refer to.`);
    return;
  }
  const exists = db.prepare(`SELECT 1 FROM ${table} WHERE id = ?`);
  const missing = ids.filter((id) => exists.get(id) === undefined);
  if (missing.length > 0) errors.add(pointer, 'incorrect_value', `There is no ${type} with id ${missing.join(', ')}.`);
}

/** Records of `table` attached to a deleted record are removed with it (in its transaction), each through `remove`. */
export function removeLinkedOnDelete(ctx: EngineContext, table: string, remove: (id: number, actorId: number) => void): void {
  const linked = ctx.db.prepare(`SELECT id FROM ${table} WHERE resource_type = ? AND resource_id = ?`).pluck();
  ctx.dependents.onDelete((type, id, actorId) => {
    // A deleted organization also ends its sales account.
    for (const linkedType of type === 'contact' ? ['contact', 'sales_account'] : [type]) {
      for (const linkedId of linked.all(linkedType, id) as number[]) remove(linkedId, actorId);
    }
  });
}
