import { useEffect, useEffectEvent, useRef } from 'react';
import { useReplica } from './replicaStore.js';

/**
 * Calls `reload` whenever the replica's local data changed (its
 * `local_revision` moved: a local write, changes pulled from the hub,
 * temporary ids replaced by hub ids), so an open screen shows them. Does
 * nothing on a plain hub. The screen still loads by itself on entry.
 */
export function useRefreshOnSync(reload: () => void): void {
  const revision = useReplica((s) => s.status?.local_revision ?? null);
  const seen = useRef(revision);
  const onChange = useEffectEvent(reload);
  useEffect(() => {
    if (revision === null || revision === seen.current) return;
    const first = seen.current === null;
    seen.current = revision;
    // The first status known is no change: the screen has just loaded what it shows.
    if (!first) onChange();
  }, [revision]);
}
