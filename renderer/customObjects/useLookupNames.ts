import { useEffect, useState } from 'react';
import { targetNames } from './lookupTargets.js';
import type { CustomObjectField, CustomObjectRecord } from './types.js';

/** The key of a lookup value in the names map: its target and id. */
export const lookupKey = (target: string, id: string) => `${target} ${id}`;

/** The ids each target's lookups name in these records, as a stable text (so the effect below runs only when they change). */
function wantedOf(fields: readonly CustomObjectField[], records: readonly CustomObjectRecord[]): string {
  const wanted: Record<string, Set<string>> = {};
  for (const field of fields) {
    if (field.type !== 'lookup' || !field.relationship_target_type) continue;
    for (const record of records) {
      const value = record.custom_object_fields[field.key];
      if (typeof value === 'string' && value !== '') (wanted[field.relationship_target_type] ??= new Set()).add(value);
    }
  }
  return JSON.stringify(Object.entries(wanted).map(([target, ids]) => [target, [...ids].sort()]).sort());
}

/**
 * The names of the records the lookups of `records` point at (a contact's
 * name, a user's, another object's record's), fetched in batches per
 * target. A lookup whose target is gone gets an empty name.
 */
export function useLookupNames(fields: readonly CustomObjectField[], records: readonly CustomObjectRecord[]): Map<string, string> {
  const [names, setNames] = useState(new Map<string, string>());
  const wanted = wantedOf(fields, records);

  useEffect(() => {
    const targets = JSON.parse(wanted) as [string, string[]][];
    if (targets.length === 0) return;
    let live = true;
    Promise.all(targets.map(async ([target, ids]) => [target, await targetNames(target, ids).catch(() => new Map<string, string>())] as const))
      .then((found) => {
        if (!live) return;
        const next = new Map<string, string>();
        // An id asked for and not answered names a record that is gone: an empty name says so.
        for (const [target, ids] of targets) for (const id of ids) next.set(lookupKey(target, id), '');
        for (const [target, byId] of found) for (const [id, name] of byId) next.set(lookupKey(target, id), name);
        setNames(next);
      });
    return () => {
      live = false;
    };
  }, [wanted]);

  return names;
}
