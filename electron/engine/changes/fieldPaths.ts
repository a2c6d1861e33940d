/**
 * Field-by-field changes: what an edit changed, as paths, and how
 * an edit made against an older state of a record merges onto its current one.
 *
 * A path names one field (`email`), one key of an object field
 * (`address.city`, `custom_fields.Size`), or a list field as a whole (`tags`,
 * merged item by item, so it never conflicts). Values are compared as the API
 * serves them; the values an edit sends are kept as the client sent them.
 */

export type Json = Record<string, unknown>;

/** Object fields whose keys are fields of their own. */
const OBJECT_FIELDS = new Set(['custom_fields', 'address', 'billing_address', 'shipping_address']);
/** Object fields a PUT replaces whole (keys left out become null); custom_fields merges the keys given. */
const REPLACED_WHOLE = new Set(['address', 'billing_address', 'shipping_address']);

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const keysOf = (value: unknown): string[] => (isObject(value) ? Object.keys(value) : []);

/** Equal as JSON values: objects key by key in any order, lists item by item in any order (a list field is a set). */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if ((a ?? null) === null || (b ?? null) === null) return (a ?? null) === (b ?? null);
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length !== b.length) return false;
    const rest = [...b];
    return a.every((item) => {
      const at = rest.findIndex((other) => sameValue(item, other));
      return at >= 0 && rest.splice(at, 1).length === 1;
    });
  }
  if (isObject(a) && isObject(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((key) => sameValue(a[key], b[key]));
  }
  return false;
}

/** The value at a path (null where there is none). */
export function valueAt(record: Json, path: string): unknown {
  const dot = path.indexOf('.');
  if (dot < 0 || !OBJECT_FIELDS.has(path.slice(0, dot))) return record[path] ?? null;
  const object = record[path.slice(0, dot)];
  return isObject(object) ? (object[path.slice(dot + 1)] ?? null) : null;
}

/** Sets a path's value in a nested object shaped like a request's `data`. */
function setAt(target: Json, path: string, value: unknown): void {
  const dot = path.indexOf('.');
  if (dot < 0 || !OBJECT_FIELDS.has(path.slice(0, dot))) {
    target[path] = value;
    return;
  }
  const field = path.slice(0, dot);
  const object = isObject(target[field]) ? (target[field] as Json) : (target[field] = {});
  object[path.slice(dot + 1)] = value;
}

/**
 * The paths of the fields an edit named (`data`'s keys) whose value differs
 * between the record before and after it: an object field by its keys, the
 * others whole. Fields the edit did not name (timestamps, computed ones) are
 * never among them.
 */
export function changedPaths(before: Json, after: Json, data: Json): string[] {
  const paths: string[] = [];
  for (const field of Object.keys(data)) {
    if (!OBJECT_FIELDS.has(field)) {
      if (!sameValue(before[field], after[field])) paths.push(field);
      continue;
    }
    const keys = new Set([...keysOf(before[field]), ...keysOf(after[field]), ...keysOf(data[field])]);
    for (const key of keys) {
      const path = `${field}.${key}`;
      if (!sameValue(valueAt(before, path), valueAt(after, path))) paths.push(path);
    }
  }
  return paths;
}

/**
 * What an edit sends to the hub: for each changed path, the value the client
 * gave (a key an address replaced whole left out is null), and the base, the
 * value the record had before, as served.
 */
export function deltaOf(before: Json, data: Json, paths: string[]): { data: Json; base: Json } {
  const sent: Json = {};
  const base: Json = {};
  for (const path of paths) {
    setAt(sent, path, valueAt(data, path));
    setAt(base, path, valueAt(before, path));
  }
  return { data: sent, base };
}

/** The paths an edit's `data` names: object fields by their keys. */
export function pathsOf(data: Json): string[] {
  return Object.keys(data).flatMap((field) =>
    OBJECT_FIELDS.has(field) && isObject(data[field]) ? Object.keys(data[field]).map((key) => `${field}.${key}`) : [field]);
}

const hasPath = (base: Json, path: string): boolean => {
  const dot = path.indexOf('.');
  if (dot < 0 || !OBJECT_FIELDS.has(path.slice(0, dot))) return Object.hasOwn(base, path);
  const object = base[path.slice(0, dot)];
  return isObject(object) && Object.hasOwn(object, path.slice(dot + 1));
};

/** A list merged item by item: what the edit removed from its base goes, what it added comes, the rest stays as it is now. */
function mergedList(current: unknown[], base: unknown[], edited: unknown[]): unknown[] {
  const removed = base.filter((item) => !edited.some((e) => sameValue(e, item)));
  const added = edited.filter((item) => !base.some((b) => sameValue(b, item)));
  const kept = current.filter((item) => !removed.some((r) => sameValue(r, item)));
  return [...kept, ...added.filter((item) => !kept.some((k) => sameValue(k, item)))];
}

/**
 * An edit made against `base` (the values the client saw), merged onto the
 * record as it is now: list fields item by item, an address whole with the
 * edited keys over the current ones, the rest as sent. `suspects` are the
 * paths whose current value is no longer the base: changed on both sides,
 * unless both made the same change (the caller finds out by applying).
 */
export function mergeOnto(current: Json, data: Json, base: Json): { data: Json; suspects: string[] } {
  // A list (tags, a multi-select custom field) edited against a known base merges; anything else goes as sent.
  const itemwise = (path: string, edited: unknown): unknown => {
    const [was, now] = [valueAt(base, path), valueAt(current, path)];
    const listed = Array.isArray(edited) && Array.isArray(now) && (was === null || Array.isArray(was));
    return listed ? mergedList(now, (was ?? []) as unknown[], edited) : edited;
  };
  const merged: Json = {};
  for (const [field, value] of Object.entries(data)) {
    if (!OBJECT_FIELDS.has(field) || !isObject(value)) {
      merged[field] = itemwise(field, value);
      continue;
    }
    const object: Json = REPLACED_WHOLE.has(field) && isObject(current[field]) ? { ...current[field] } : {};
    for (const [key, edited] of Object.entries(value)) object[key] = itemwise(`${field}.${key}`, edited);
    merged[field] = object;
  }
  const suspects = pathsOf(data).filter((path) => !Array.isArray(valueAt(data, path))
    && hasPath(base, path) && !sameValue(valueAt(current, path), valueAt(base, path)));
  return { data: merged, suspects };
}

/** The merged edit without the given paths: they keep the record's current value. */
export function withoutPaths(merged: Json, current: Json, paths: string[]): Json {
  const out: Json = { ...merged };
  for (const path of paths) {
    const dot = path.indexOf('.');
    const field = dot < 0 || !OBJECT_FIELDS.has(path.slice(0, dot)) ? path : path.slice(0, dot);
    if (field === path) {
      delete out[path];
      continue;
    }
    if (!isObject(out[field])) continue;
    const object = { ...(out[field] as Json) };
    if (REPLACED_WHOLE.has(field)) object[path.slice(dot + 1)] = valueAt(current, path);
    else delete object[path.slice(dot + 1)];
    out[field] = object;
  }
  for (const field of Object.keys(out)) if (OBJECT_FIELDS.has(field) && !REPLACED_WHOLE.has(field) && isObject(out[field]) && keysOf(out[field]).length === 0) delete out[field];
  return out;
}

/** The `data` of an update that sets one path to `value` (an address keeps its other keys: a PUT replaces it whole). */
export function editOf(current: Json, path: string, value: unknown): Json {
  const dot = path.indexOf('.');
  const field = path.slice(0, dot);
  if (dot < 0 || !OBJECT_FIELDS.has(field)) return { [path]: value };
  const kept = REPLACED_WHOLE.has(field) && isObject(current[field]) ? current[field] : {};
  return { [field]: { ...kept, [path.slice(dot + 1)]: value } };
}
