import { useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import { api } from '../api/client.js';

export interface NamedOption {
  id: number;
  name: string;
}

/** A small list of named records (sources, reasons, pipelines…) for a form's pickers; a null path reads nothing (yet). */
export function useNamedOptions<T extends NamedOption = NamedOption>(path: string | null, query: Record<string, QueryValue> = {}): T[] {
  return useNamedOptionsLoading<T>(path, query).options;
}

/** As `useNamedOptions`, with whether the list has arrived: a screen that lays itself out by it waits rather than showing it empty. */
export function useNamedOptionsLoading<T extends NamedOption = NamedOption>(
  path: string | null, query: Record<string, QueryValue> = {},
): { options: T[]; loaded: boolean } {
  const [state, setState] = useState<{ options: T[]; loaded: boolean }>({ options: [], loaded: false });
  const key = JSON.stringify(query);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    // A list that could not be read counts as arrived (empty): the screen says so rather than waiting forever.
    api.list<T>(path, { ...(JSON.parse(key) as Record<string, QueryValue>), per_page: 100 })
      .then((page) => live && setState({ options: page.items.map((i) => i.data), loaded: true }),
        () => live && setState((old) => ({ ...old, loaded: true })));
    return () => {
      live = false;
    };
  }, [path, key]);
  return state;
}
