/**
 * The part of an edit form's payload that the user changed: what its PUT
 * sends. A PUT that re-sent every field would put back, with the values the
 * form loaded, whatever another browser or an offline replica changed
 * meanwhile; sending only the changes lets edits of different fields of one
 * record merge.
 *
 * How much of a field goes depends on how the hub's PUT treats it:
 * - `custom_fields`: the hub merges the keys given, so only the changed keys
 *   go, and a key that lost its value goes as null (which clears it);
 * - any other object (an address, a sequence's unsubscribe settings): a
 *   change to any key sends the whole new object, since the hub replaces an
 *   address whole (keys left out become null);
 * - arrays (tags, id lists, prices, steps): sent whole when they changed;
 * - anything else: sent when it differs.
 * Keys of `before` that `after` lacks are not sent (the form does not set
 * them), nor are keys of `after` whose value is undefined.
 */
export function changedFields(before: object, after: object): Record<string, unknown> {
  const loaded = before as Record<string, unknown>;
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(after)) {
    if (value === undefined) continue;
    if (key === 'custom_fields' && isPlainObject(value)) {
      const keys = changedCustomFields(isPlainObject(loaded[key]) ? loaded[key] : {}, value);
      if (Object.keys(keys).length > 0) changed[key] = keys;
    } else if (!sameValue(loaded[key], value)) {
      changed[key] = value;
    }
  }
  return changed;
}

/** The custom fields whose value changed; one that had a value and has none any more as null. */
function changedCustomFields(before: Record<string, unknown>, after: Record<string, unknown>): Record<string, unknown> {
  const changed: Record<string, unknown> = {};
  for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
    // For the hub a null custom field and a missing one are the same: no value.
    const was = before[key] ?? null;
    const is = after[key] ?? null;
    if (!sameValue(was, is)) changed[key] = is;
  }
  return changed;
}

/**
 * Deep equality of JSON-like values: objects whatever their key order (a key
 * set to undefined is as good as missing, as in JSON); arrays of plain values
 * (tags, ids) as sets, since the hub keeps no order for them; other arrays
 * (prices, a sequence's steps) item by item, in order.
 */
export function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b)) return sameArray(a, b);
  if (isPlainObject(a) && isPlainObject(b)) return sameObject(a, b);
  return false;
}

function sameArray(a: unknown[], b: unknown[]): boolean {
  if (a.every(isPrimitive) && b.every(isPrimitive)) {
    const setA = new Set(a);
    const setB = new Set(b);
    return setA.size === setB.size && [...setA].every((item) => setB.has(item));
  }
  return a.length === b.length && a.every((item, i) => sameValue(item, b[i]));
}

function sameObject(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every((key) => sameValue(a[key], b[key]));
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || (typeof value !== 'object' && typeof value !== 'function');
}
