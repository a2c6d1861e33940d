import { useCallback, useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import type { ReportName, ReportRows } from '../../shared/resources/report.js';
import { api, ApiFailure } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';

export interface ReportState<T> {
  /** Null while loading (first time or after a filter changed). */
  rows: T[] | null;
  /** Why it could not be loaded, in words. */
  error: string | null;
  /** A refusal for the account (a plan without products): the API's message shown in the report's place. */
  refused: string | null;
}

const LOADING = { rows: null, error: null, refused: null };

/** An answer and the query it answers: one for an older query means the new one is still loading. */
type Answer<T> = ReportState<T> & { key: string | null };

/** One report's rows for a query: loaded anew when the query changes, and after a sync brought new data to a replica. */
export function useReport<N extends ReportName>(name: N, query: Record<string, QueryValue> | null): ReportState<ReportRows[N]> {
  const [answer, setAnswer] = useState<Answer<ReportRows[N]>>({ ...LOADING, key: null });
  const [version, setVersion] = useState(0);
  useRefreshOnSync(useCallback(() => setVersion((v) => v + 1), []));
  const key = query === null ? null : JSON.stringify(query);
  useEffect(() => {
    // No query yet: what it needs (the pipelines) is still loading.
    if (key === null) return;
    let live = true;
    api.list<ReportRows[N]>(`/v2/reports/${name}`, JSON.parse(key) as Record<string, QueryValue>).then(
      (page) => live && setAnswer({ rows: page.items.map((i) => i.data), error: null, refused: null, key }),
      (err: unknown) => live && setAnswer({ ...failed(err), key }),
    );
    return () => {
      live = false;
    };
  }, [name, key, version]);
  // A reload after a sync keeps showing the rows until the new ones come; a new query shows "Loading…".
  return answer.key === key ? answer : LOADING;
}

function failed(err: unknown): ReportState<never> {
  if (err instanceof ApiFailure && err.status === 403) return { rows: null, error: null, refused: refusalText(err, '') };
  return { rows: null, error: refusalText(err, 'This report could not be loaded. Check the connection and try again.'), refused: null };
}
