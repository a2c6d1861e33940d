import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useTaskChanges } from '../tasks/taskCountsStore.js';

export interface CardData<T> {
  data: T | null;
  failed: boolean;
}

/**
 * What one Home card shows: loaded on entry, and again after a sync or a
 * change to a task (done from the card, the bell, a shortcut). `key` names
 * what `load` reads: a new key loads anew.
 */
export function useCardData<T>(load: () => Promise<T>, key: string): CardData<T> {
  const [state, setState] = useState<CardData<T>>({ data: null, failed: false });
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefreshOnSync(reload);
  useTaskChanges(reload);
  const read = useEffectEvent(load);
  useEffect(() => {
    let live = true;
    read().then((data) => live && setState({ data, failed: false }), () => live && setState((s) => ({ ...s, failed: true })));
    return () => {
      live = false;
    };
  }, [key, version]);
  return state;
}
