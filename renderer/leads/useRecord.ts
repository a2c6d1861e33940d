import { useCallback, useEffect, useState } from 'react';
import { api, ApiFailure } from '../api/client.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';

export type RecordProblem = 'gone' | 'failed';

export interface LoadedRecord<T> {
  record: T | null;
  problem: RecordProblem | null;
  /** Replaces the record shown with one the API just answered (after a save). */
  setRecord(record: T): void;
  reload(): void;
}

/** One record read from the API, read again when the replica's data changes. */
export function useRecord<T>(path: string): LoadedRecord<T> {
  const [record, setRecord] = useState<T | null>(null);
  const [problem, setProblem] = useState<RecordProblem | null>(null);
  const [version, setVersion] = useState(0);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  useRefreshOnSync(reload);

  useEffect(() => {
    let live = true;
    api.get<T>(path).then(
      (loaded) => {
        if (!live) return;
        setRecord(loaded);
        setProblem(null);
      },
      (err) => live && setProblem(err instanceof ApiFailure && err.status === 404 ? 'gone' : 'failed'),
    );
    return () => {
      live = false;
    };
  }, [path, version]);

  return { record, problem, setRecord, reload };
}
