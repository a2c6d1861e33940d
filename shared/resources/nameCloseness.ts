/**
 * When two names are close enough to be likely the same person
 * (resources/duplicates.ts; docs/api.md, "Duplicates and merging"). One pure
 * rule, so the engine's finder and anything else that asks agree.
 *
 * Names are first normalized: lower case, accents dropped (NFD, then the
 * combining marks removed), apostrophes dropped ("O'Neil" is "oneil"), any
 * other run of characters that are not letters or digits made one space.
 * Two normalized names are close when
 * - they are equal, or
 * - they have the same words in another order ("smith john"), or
 * - they start with the same letter, their last words start with the same
 *   letter, and they are at most a few edits apart (Damerau–Levenshtein,
 *   optimal string alignment: insert, delete, replace, swap two neighbours):
 *   one edit when the shorter name has 5 to 9 characters, two from 10;
 *   shorter names only match when equal.
 *
 * The initials rule keeps "Ann Lee" and "Dan Lee", or "Mark Smith" and "Mark
 * Keith", apart, while "Jon Smith" / "John Smith", "Katharine Lee" /
 * "Katherine Lee" and "Smith" / "Smyth" meet. The trade-off: names one letter
 * apart that are two people ("Mark Smith" and "Mary Smith") are shown as a
 * likely pair when they are in the same organization; a rep decides.
 */

/** A name as compared: see the module's comment. */
export function normalizeName(name: string): string {
  return name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/['’‘`´]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** The words of a normalized name, sorted: names with equal keys differ only in word order. */
export function wordKey(normalized: string): string {
  return normalized.split(' ').sort().join(' ');
}

/** The first letter and the last word's first letter: close names that are not reorderings share it. */
export function initialsKey(normalized: string): string {
  return normalized.charAt(0) + normalized.charAt(normalized.lastIndexOf(' ') + 1);
}

/** The edits allowed between two normalized names, by the shorter one's length. */
export function allowedEdits(a: string, b: string): number {
  const shorter = Math.min(a.length, b.length);
  return shorter >= 10 ? 2 : shorter >= 5 ? 1 : 0;
}

/**
 * The optimal-string-alignment distance of a and b, or `limit + 1` as soon as
 * it is certainly more than limit (so most comparisons stop early).
 */
export function editDistance(a: string, b: string, limit = Infinity): number {
  if (Math.abs(a.length - b.length) > limit) return limit + 1;
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      current.push(d);
      if (d < best) best = d;
    }
    if (best > limit) return limit + 1;
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}

/** Whether two normalized names are close (the module's rule). */
export function normalizedNamesAreClose(a: string, b: string): boolean {
  if (a === '' || b === '') return false;
  if (a === b || wordKey(a) === wordKey(b)) return true;
  if (initialsKey(a) !== initialsKey(b)) return false;
  const limit = allowedEdits(a, b);
  return limit > 0 && editDistance(a, b, limit) <= limit;
}

/** Whether two names, as typed, are close. */
export function namesAreClose(a: string, b: string): boolean {
  return normalizedNamesAreClose(normalizeName(a), normalizeName(b));
}

export interface NamedRecord {
  id: number;
  name: string;
}

export interface NameGroup {
  /** The normalized name of the group's lowest id. */
  key: string;
  /** Lowest first. */
  ids: number[];
}

/**
 * The groups of two or more records whose names are close, directly or
 * through others (Jon ~ John and John ~ Johns make one group), among records
 * of one organization. Only names sharing words or initials are compared, so
 * a large organization is not compared pair by pair. Groups come by their
 * lowest id.
 */
export function closeNameGroups(records: readonly NamedRecord[]): NameGroup[] {
  const named = records.map((r) => ({ id: r.id, name: normalizeName(r.name) })).filter((r) => r.name !== '');
  const parent = named.map((_, i) => i);
  const root = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const join = (i: number, j: number) => {
    const [a, b] = [root(i), root(j)];
    if (a !== b) parent[Math.max(a, b)] = Math.min(a, b);
  };
  const buckets = (key: (name: string) => string) => {
    const map = new Map<string, number[]>();
    named.forEach((r, i) => {
      const k = key(r.name);
      const list = map.get(k);
      if (list) list.push(i);
      else map.set(k, [i]);
    });
    return [...map.values()].filter((list) => list.length > 1);
  };
  // The same words, in any order: one group without comparing.
  for (const list of buckets(wordKey)) list.forEach((i) => join(list[0]!, i));
  // The same initials: compared pair by pair, in order of length, stopping where lengths differ too much.
  for (const list of buckets(initialsKey)) {
    list.sort((i, j) => named[i]!.name.length - named[j]!.name.length);
    for (let x = 0; x < list.length; x++) {
      const a = named[list[x]!]!.name;
      for (let y = x + 1; y < list.length; y++) {
        const b = named[list[y]!]!.name;
        if (b.length - a.length > 2) break;
        if (root(list[x]!) !== root(list[y]!) && normalizedNamesAreClose(a, b)) join(list[x]!, list[y]!);
      }
    }
  }
  const groups = new Map<number, number[]>();
  named.forEach((_, i) => {
    const r = root(i);
    const members = groups.get(r);
    if (members) members.push(i);
    else groups.set(r, [i]);
  });
  return [...groups.values()]
    .filter((members) => members.length > 1)
    .map((members) => {
      const sorted = members.map((i) => named[i]!).sort((a, b) => a.id - b.id);
      return { key: sorted[0]!.name, ids: sorted.map((r) => r.id) };
    })
    .sort((a, b) => a.ids[0]! - b.ids[0]!);
}
