import { useCallback, useEffect, useRef, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';

export interface PagedList<T> {
  rows: T[];
  /** How many records match in all (`meta.total_count`), null until the first page answered. */
  total: number | null;
  /** Whether the API said more records exist (`meta.links.next_page`). */
  hasMore: boolean;
  loading: boolean;
  error: string | null;
  loadMore(): void;
  /** Loads the pages shown again, replacing the rows only once they arrived (no flash of an empty list). */
  refresh(): void;
}

interface Loaded<T> {
  /** The query these rows answer: while it differs from the current one, a load is under way. */
  key: string;
  rows: T[];
  pages: number;
  hasMore: boolean;
  total: number | null;
}

interface Pages<T> {
  rows: T[];
  hasMore: boolean;
  /** The list's total, when it was asked for (`counted`) and page 1 was among those read. */
  total: number | null;
}

/** Pages `from` to `to` of a list, stopping early at the last one; `counted` asks page 1 for the total too. */
export async function fetchPages<T>(path: string, query: Record<string, QueryValue>, perPage: number, from: number, to: number, counted = false): Promise<Pages<T>> {
  const rows: T[] = [];
  let total: number | null = null;
  for (let page = from; page <= to; page++) {
    const answer = await api.list<T>(path, { ...query, page, per_page: perPage, count: counted && page === 1 ? true : undefined });
    rows.push(...answer.items.map((i) => i.data));
    total = answer.meta.total_count ?? total;
    if (!answer.meta.links.next_page) return { rows, hasMore: false, total };
  }
  return { rows, hasMore: true, total };
}

/**
 * A list endpoint read page by page. A new query starts over; answers to an
 * older query are dropped, so a slow answer never overwrites a newer one.
 */
export function usePagedList<T>(path: string, query: Record<string, QueryValue>, perPage = 50): PagedList<T> {
  const key = JSON.stringify([path, query, perPage]);
  const [loaded, setLoaded] = useState<Loaded<T>>({ key: '', rows: [], pages: 0, hasMore: false, total: null });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const generation = useRef(0);

  // Sets state only once the answer is in, so the effect below may start it.
  const fetchInto = useCallback((from: number, to: number, keep: T[], keptTotal: number | null) => {
    const mine = ++generation.current;
    const [p, q, size] = JSON.parse(key) as [string, Record<string, QueryValue>, number];
    fetchPages<T>(p, q, size, from, to, true).then(
      (answer) => {
        if (mine !== generation.current) return;
        setLoaded({ key, rows: [...keep, ...answer.rows], pages: to, hasMore: answer.hasMore, total: answer.total ?? keptTotal });
        setError(null);
        setBusy(false);
      },
      (err) => {
        if (mine !== generation.current) return;
        setLoaded((old) => ({ ...old, key }));
        setError(refusalText(err, 'The list could not be loaded.'));
        setBusy(false);
      },
    );
  }, [key]);

  useEffect(() => fetchInto(1, 1, [], null), [fetchInto]);

  const loadMore = useCallback(() => {
    setBusy(true);
    fetchInto(loaded.pages + 1, loaded.pages + 1, loaded.rows, loaded.total);
  }, [fetchInto, loaded]);
  const refresh = useCallback(() => {
    setBusy(true);
    fetchInto(1, Math.max(1, loaded.pages), [], null);
  }, [fetchInto, loaded.pages]);

  const loading = busy || loaded.key !== key;
  // A new query's total is not the old one's: none until its first page answered.
  const total = loaded.key === key ? loaded.total : null;
  return { rows: loaded.rows, total, hasMore: loaded.hasMore, loading, error, loadMore, refresh };
}
