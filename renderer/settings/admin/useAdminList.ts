import { useCallback, useEffect, useState } from 'react';
import type { QueryValue } from '../../../shared/bridge.js';
import { api } from '../../api/client.js';
import { refusalText } from '../../api/formErrors.js';

export interface AdminList<T> {
  /** Null while the first page loads. */
  rows: T[] | null;
  error: string | null;
  reload(): void;
}

/**
 * One small account-wide list (pipelines, stages, sources, field
 * definitions), read again after each change: these lists hold tens of
 * entries, so one page of 100 is all of them.
 */
export function useAdminList<T>(path: string, query: Record<string, QueryValue> = {}): AdminList<T> {
  const [rows, setRows] = useState<T[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const key = JSON.stringify(query);
  useEffect(() => {
    let live = true;
    api.list<T>(path, { per_page: 100, ...(JSON.parse(key) as Record<string, QueryValue>) })
      .then((page) => {
        if (!live) return;
        setRows(page.items.map((i) => i.data));
        setError(null);
      }, (err: unknown) => live && setError(refusalText(err, 'The list could not be loaded.')));
    return () => {
      live = false;
    };
  }, [path, key, version]);
  const reload = useCallback(() => setVersion((v) => v + 1), []);
  return { rows, error, reload };
}

/** Runs a change and turns a refusal into an Error in words, as ConfirmDelete shows it. */
export async function inWordsOnFailure(change: () => Promise<unknown>, fallback: string): Promise<void> {
  try {
    await change();
  } catch (err) {
    throw new Error(refusalText(err, fallback));
  }
}
