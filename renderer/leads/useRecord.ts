import { useCallback, useEffect, useState } from 'react';
import { api, ApiFailure } from '../api/client.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { useRouter } from '../router/routerStore.js';
import { hubIdOf } from '../records/hubIds.js';
import { recordPath, type RecordRef } from '../records/records.js';

export type RecordProblem = 'gone' | 'failed';

export interface LoadedRecord<T> {
  record: T | null;
  problem: RecordProblem | null;
  /** Replaces the record shown with one the API just answered (after a save). */
  setRecord(record: T): void;
  reload(): void;
}

/**
 * One record read from the API, read again when the replica's data changes.
 * With `follow` (a contact, lead or deal): when one made on this device is
 * no longer found under its temporary id, a sync took it to the hub, and the
 * page follows it to its hub id, so the rep keeps their place; the same for a
 * record recreated on the hub (Sync issues) after someone deleted it there.
 */
export function useRecord<T>(path: string, follow?: RecordRef): LoadedRecord<T> {
  const navigate = useRouter((s) => s.navigate);
  const [record, setRecord] = useState<T | null>(null);
  const [problem, setProblem] = useState<RecordProblem | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefreshOnSync(reload);
  // A temporary id that went to the hub, or a record recreated there under a new id after someone deleted it.
  const followType = follow ? follow.type : null;
  const tempId = follow?.id ?? 0;

  useEffect(() => {
    let live = true;
    const missing = async () => {
      const hubId = followType ? await hubIdOf(followType, tempId) : null;
      if (!live) return;
      if (hubId !== null && followType) navigate(recordPath({ type: followType, id: hubId }), { replace: true });
      else setProblem('gone');
    };
    api.get<T>(path).then(
      (loaded) => {
        if (!live) return;
        setRecord(loaded);
        setProblem(null);
      },
      (err) => {
        if (err instanceof ApiFailure && err.status === 404) void missing();
        else if (live) setProblem('failed');
      },
    );
    return () => {
      live = false;
    };
  }, [path, version, followType, tempId, navigate]);

  return { record, problem, setRecord, reload };
}
