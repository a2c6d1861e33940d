import { useCallback, useEffect, useReducer, useState } from 'react';
import type { ReplicaStatus, SyncConflict } from '../../shared/resources/replica.js';
import { api, ApiFailure } from '../api/client.js';
import { useReplica } from './replicaStore.js';

/** A conflict's choice: the rep's value, the hub's, or a third one. */
export type ConflictChoice = { keep: 'yours' } | { keep: 'theirs' } | { value: unknown };

export interface Conflicts {
  /** Open conflicts, oldest first (none on a plain hub, and none until the replica's status is known). */
  conflicts: SyncConflict[];
  /** Every open conflict of the replica, however many are shown (`status.conflicts`). */
  total: number;
  /** Settles one; rejects with the API's refusal (a 422 for a value the field does not take). */
  resolve(conflict: SyncConflict, choice: ConflictChoice): Promise<void>;
}

/**
 * A replica's open conflicts: one record's (`record`), or all of
 * them (null; the Sync issues screen). Asked for only on a replica whose
 * status counts some, so a plain hub, where /v2/replica/… answers 404, is
 * never asked; asked again whenever the status changes (a sync, a local
 * change, a conflict settled elsewhere).
 */
export function useConflicts(record: { type: string; id: number } | null): Conflicts {
  const isReplica = useReplica((s) => s.kind === 'replica');
  const total = useReplica((s) => s.status?.conflicts ?? 0);
  const revision = useReplica((s) => s.status?.local_revision ?? 0);
  const syncedAt = useReplica((s) => s.status?.last_synced_at ?? null);
  const [loaded, setLoaded] = useState<{ key: string; items: SyncConflict[] } | null>(null);
  const [version, reload] = useReducer((v: number) => v + 1, 0);
  const type = record?.type ?? null;
  const id = record?.id ?? null;
  const key = `${type}:${id}`;
  const asking = isReplica && total > 0;

  useEffect(() => {
    if (!asking) return;
    let live = true;
    const query = type !== null && id !== null ? { resource_type: type, record_id: id, per_page: 100 } : { per_page: 100 };
    api.list<SyncConflict>('/v2/replica/conflicts', query).then(
      (page) => live && setLoaded({ key, items: page.items.map((i) => i.data) }),
      // Gone meanwhile (the engine restarting, say): the next status change asks again.
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [asking, type, id, key, total, revision, syncedAt, version]);

  const resolve = useCallback(async (conflict: SyncConflict, choice: ConflictChoice) => {
    const drop = () => setLoaded((shown) => shown && { ...shown, items: shown.items.filter((c) => c.id !== conflict.id) });
    let status: ReplicaStatus;
    try {
      status = await api.action<ReplicaStatus>(`/v2/replica/conflicts/${conflict.id}/resolve`, choice);
    } catch (err) {
      if (!(err instanceof ApiFailure && err.status === 404)) throw err;
      // Settled already (in another window, or by an edit of the field): nothing left to choose.
      drop();
      void useReplica.getState().refresh();
      return;
    }
    // Off the list at once; the new status (fewer conflicts, perhaps a change to send) reloads the rest.
    drop();
    useReplica.setState({ status });
    reload();
  }, []);

  const conflicts = asking && loaded?.key === key ? loaded.items : [];
  return { conflicts, total: asking ? total : 0, resolve };
}
