import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { changedPaths, mergeOnto, sameValue, valueAt, withoutPaths, type Json } from '../changes/fieldPaths.js';
import { FieldHistory, type FieldChange } from './fieldHistory.js';

/** What an update needs of a resource's service. */
export interface UpdatableRecords {
  json(id: number, actor: Actor): string;
  update(id: number, data: Json, actor: Actor): void;
}

/** How an edit was made: against which values (`base`, from a device), and when (`writtenAt`, a device's time). */
export interface EditOrigin {
  base?: Json;
  writtenAt?: string | null;
}

/** A field the hub kept: changed here since the editor saw `base`. `value` is the hub's. */
export interface FieldConflict extends FieldChange {
  field: string;
  value: unknown;
  base: unknown;
}

/** Thrown inside a trial update's savepoint to roll it back. */
class ConflictingFields extends Error {
  constructor(readonly paths: string[]) {
    super('fields changed on both sides');
  }
}

/**
 * An update on the hub, field by field. Without a base it is an
 * ordinary PUT. With one, each field named in `base` is taken only if the
 * record still holds the base value there (or the edit's value already); list
 * fields merge item by item. The other fields of the edit are applied; the
 * conflicting ones keep the hub's value and are answered, with who changed
 * them and when. Who changed which field is noted for later conflicts.
 */
export function updateByFields(ctx: EngineContext, records: UpdatableRecords, type: string, id: number, data: Json, actor: Actor, origin: EditOrigin = {}): FieldConflict[] {
  const history = new FieldHistory(ctx);
  const before = JSON.parse(records.json(id, actor)) as Json;
  const { data: merged, suspects } = origin.base ? mergeOnto(before, data, origin.base) : { data, suspects: [] };
  const conflicted = suspects.length === 0 ? applyAll(records, id, merged, actor) : applyAround(ctx, records, id, merged, before, suspects, actor);
  const conflicts = conflicted.map((field) => ({ field, value: valueAt(before, field), base: valueAt(origin.base ?? {}, field), ...history.lastChange(type, id, field) }));
  const after = JSON.parse(records.json(id, actor)) as Json;
  history.record(type, id, changedPaths(before, after, data), actor.userId, origin.writtenAt ?? isoSeconds(ctx.clock.now()));
  return conflicts;
}

function applyAll(records: UpdatableRecords, id: number, data: Json, actor: Actor): string[] {
  records.update(id, data, actor);
  return [];
}

/**
 * Fields whose current value is not their base: the whole edit is tried in
 * a savepoint first, since both sides may have made the same change (no
 * conflict), which only the record's values after it can tell. If some
 * really differ, the trial is rolled back and the edit applied without them.
 */
function applyAround(ctx: EngineContext, records: UpdatableRecords, id: number, merged: Json, before: Json, suspects: string[], actor: Actor): string[] {
  try {
    ctx.db.transaction(() => {
      records.update(id, merged, actor);
      const tried = JSON.parse(records.json(id, actor)) as Json;
      const differing = suspects.filter((path) => !sameValue(valueAt(tried, path), valueAt(before, path)));
      if (differing.length > 0) throw new ConflictingFields(differing);
    })();
    return [];
  } catch (err) {
    if (!(err instanceof ConflictingFields)) throw err;
    const rest = withoutPaths(merged, before, err.paths);
    if (Object.keys(rest).length > 0) records.update(id, rest, actor);
    return err.paths;
  }
}
