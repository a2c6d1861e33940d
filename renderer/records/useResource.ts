import { useEffect, useState } from 'react';
import { api } from '../api/client.js';

/**
 * One resource read by a panel (an organization's name, a lead's): null
 * before it answered, when it failed, and for a null path. An answer that
 * arrives after the path changed is dropped.
 */
export function useResource<T>(path: string | null): T | null {
  const [loaded, setLoaded] = useState<{ path: string; value: T } | null>(null);
  useEffect(() => {
    if (path === null) return;
    let live = true;
    api.get<T>(path).then((value) => live && setLoaded({ path, value }), () => undefined);
    return () => {
      live = false;
    };
  }, [path]);
  return loaded && loaded.path === path ? loaded.value : null;
}
