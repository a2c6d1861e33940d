import { useEffect, useState } from 'react';
import { api } from '../api/client.js';

/** Names already asked for, by record path (`/v2/users/2`): a screen full of conflicts by one colleague asks once. */
const asked = new Map<string, Promise<string | null>>();

/** What a person would call a record: its name, a person's first and last name, a lead's organization, a task's text. */
export function nameOf(record: Record<string, unknown>): string | null {
  const text = (key: string) => (typeof record[key] === 'string' && record[key] ? (record[key] as string) : null);
  return text('name') ?? ([text('first_name'), text('last_name')].filter(Boolean).join(' ') || null) ?? text('organization_name') ?? text('content');
}

function nameAt(path: string): Promise<string | null> {
  let name = asked.get(path);
  if (!name) {
    name = api.get<Record<string, unknown>>(path).then(nameOf, () => {
      // Not kept: a record not there now (still syncing) may be there next time.
      asked.delete(path);
      return null;
    });
    asked.set(path, name);
  }
  return name;
}

/**
 * The names of the records at the paths given (`/v2/users/2`,
 * `/v2/stages/5`), as they arrive; a path not (yet) known has none.
 */
export function useNames(paths: readonly string[]): Map<string, string> {
  const [names, setNames] = useState(new Map<string, string>());
  const key = [...new Set(paths)].sort().join(' ');
  useEffect(() => {
    if (key === '') return;
    let live = true;
    const wanted = key.split(' ');
    void Promise.all(wanted.map(async (path) => [path, await nameAt(path)] as const)).then((found) => {
      if (!live) return;
      setNames(new Map(found.filter((entry): entry is readonly [string, string] => entry[1] !== null)));
    });
    return () => {
      live = false;
    };
  }, [key]);
  return names;
}
