import type { Actor, EngineContext } from '../context.js';
import type { LocalChange } from '../changes/outbox.js';
import { changedPaths, deltaOf, type Json } from '../changes/fieldPaths.js';
import { updateByFields, type EditOrigin, type FieldConflict, type UpdatableRecords } from './mergedUpdate.js';

/**
 * Runs a write; on a replica, also queues the REST call that replays it on
 * the hub, in the same transaction (so the change and its outbox entry are
 * durable together or not at all).
 */
export function writeLocally<T>(ctx: EngineContext, write: () => T, change: (result: T) => LocalChange): T {
  const replica = ctx.replica;
  if (!replica) return write();
  return ctx.db.transaction(() => {
    const result = write();
    replica.outbox.add(change(result));
    return result;
  })();
}

/**
 * An update on a replica: applied here at once; what travels to
 * the hub is only the fields whose value it changed, each with its base, the
 * value the rep changed it from, so the hub can tell the rep's change from a
 * colleague's. A field edited here decides its open conflict. An edit that
 * changes nothing queues nothing.
 */
export function updateLocally(ctx: EngineContext, records: UpdatableRecords, change: { type: string; collection: string; id: number; data: Json; actor: Actor }): void {
  const replica = ctx.replica;
  const { type, collection, id, data, actor } = change;
  if (!replica) {
    records.update(id, data, actor);
    return;
  }
  ctx.db.transaction(() => {
    const before = JSON.parse(records.json(id, actor)) as Json;
    records.update(id, data, actor);
    const paths = changedPaths(before, JSON.parse(records.json(id, actor)) as Json, data);
    replica.conflicts.closeFields(type, id, paths);
    if (paths.length === 0) return;
    replica.outbox.add({ method: 'PUT', type, collection, id, ...deltaOf(before, data, paths) });
  })();
}

/** One record's edit, as a PUT and a bulk edit make it. */
export interface RecordEdit {
  type: string;
  collection: string;
  id: number;
  data: Json;
  actor: Actor;
}

/**
 * An update wherever the engine runs: a replica applies it and queues what it
 * changed; a hub merges it field by field (answering the fields it kept).
 */
export function applyUpdate(ctx: EngineContext, records: UpdatableRecords, edit: RecordEdit, origin: EditOrigin = {}): FieldConflict[] {
  if (ctx.replica) {
    updateLocally(ctx, records, edit);
    return [];
  }
  return updateByFields(ctx, records, edit.type, edit.id, edit.data, edit.actor, origin);
}

/** A delete wherever the engine runs: on a replica also queued for the hub. */
export function applyDelete(ctx: EngineContext, remove: (id: number, actor: Actor) => void, edit: Omit<RecordEdit, 'data'>): void {
  const { type, collection, id, actor } = edit;
  writeLocally(ctx, () => remove(id, actor), () => ({ method: 'DELETE', type, collection, id }));
}
