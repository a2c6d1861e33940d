import { useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import { api } from '../api/client.js';

export interface NamedOption {
  id: number;
  name: string;
}

/** A small list of named records (sources, reasons, pipelines…) for a form's pickers; a null path reads nothing (yet). */
export function useNamedOptions<T extends NamedOption = NamedOption>(path: string | null, query: Record<string, QueryValue> = {}): T[] {
  const [options, setOptions] = useState<T[]>([]);
  const key = JSON.stringify(query);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    api.list<T>(path, { ...(JSON.parse(key) as Record<string, QueryValue>), per_page: 100 })
      .then((page) => live && setOptions(page.items.map((i) => i.data)), () => undefined);
    return () => {
      live = false;
    };
  }, [path, key]);
  return options;
}
