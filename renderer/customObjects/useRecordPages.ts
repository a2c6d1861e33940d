import { useCallback, useEffect, useState } from 'react';
import type { QueryValue } from '../../shared/bridge.js';
import { objectPath, supportApi } from '../api/supportClient.js';
import type { CustomObjectRecord, RecordPage } from './types.js';
import { refusalText } from '../api/formErrors.js';

/** Which page: the first, the one after a cursor, or the one before it. */
type Cursor = null | { after: string } | { before: string };

export interface RecordPages {
  rows: CustomObjectRecord[];
  /** How many records the object has, for the plain list (null while searching). */
  count: number | null;
  /** The place of the page's first record in the list (1 on the first page): "26–50 of 120". */
  from: number;
  hasNext: boolean;
  hasPrevious: boolean;
  loading: boolean;
  error: string | null;
  next(): void;
  previous(): void;
  /** Loads the page shown again (after a delete, say). */
  refresh(): void;
}

interface Loaded {
  /** The request these rows answer: while it differs from the current one, a load is under way. */
  key: string;
  page: RecordPage | null;
  /** How many records the object has (the plain list only). */
  total: number | null;
  error: string | null;
}

/**
 * An object's records a page at a time, with the interface's cursors:
 * `page[after]` the last page's `after_cursor` for the next page,
 * `page[before]` its `before_cursor` for the previous one. With a query the
 * records come from `records/search`, paged the same way. A new query or sort
 * starts over at the first page; answers to an older request are dropped.
 */
export function useRecordPages(objectKey: string, query: string, sort: string, size = 25): RecordPages {
  // `page` counts the steps from the first page, for where the rows shown are in the list.
  const [cursor, setCursor] = useState<{ for: string; at: Cursor; page: number }>({ for: '', at: null, page: 0 });
  const [version, setVersion] = useState(0);
  const listKey = JSON.stringify([objectKey, query.trim(), sort, size]);
  // A cursor belongs to the list it was taken from: another query or sort starts at the first page.
  const at = cursor.for === listKey ? cursor.at : null;
  const pageIndex = cursor.for === listKey ? cursor.page : 0;
  const requestKey = JSON.stringify([listKey, at, version]);
  const [loaded, setLoaded] = useState<Loaded>({ key: '', page: null, total: null, error: null });

  useEffect(() => {
    const [key, text, order, perPage] = JSON.parse(listKey) as [string, string, string, number];
    const params: Record<string, QueryValue> = { 'page[size]': perPage, sort: order || undefined };
    if (at && 'after' in at) params['page[after]'] = at.after;
    if (at && 'before' in at) params['page[before]'] = at.before;
    const path = text ? objectPath(key, 'records', 'search') : objectPath(key, 'records');
    if (text) params.query = text;
    let live = true;
    // The plain list also says how many records there are; a search answers a page only.
    const counted = text ? Promise.resolve(null) : supportApi.get<{ count: { value: number } }>(objectPath(key, 'records', 'count')).then((c) => c.count.value, () => null);
    Promise.all([supportApi.get<RecordPage>(path, params), counted]).then(
      ([page, total]) => live && setLoaded({ key: requestKey, page, total, error: null }),
      (err) => live && setLoaded((old) => ({ ...old, key: requestKey, error: refusalText(err, 'The records could not be loaded.') })),
    );
    return () => {
      live = false;
    };
  }, [listKey, at, requestKey]);

  const page = loaded.page;
  const meta = page?.meta;
  // The links say exactly which neighbours exist. Without them: after a step back, has_more says whether still
  // earlier records exist and the page we came from is after this one; after a step forward, the one we left is before.
  const wentBack = at !== null && 'before' in at;
  const hasPrevious = page?.links ? Boolean(page.links.prev) : wentBack ? Boolean(meta?.has_more) : at !== null;
  const hasNext = page?.links ? Boolean(page.links.next) : wentBack || Boolean(meta?.has_more);

  const next = useCallback(() => {
    if (meta?.after_cursor) setCursor({ for: listKey, at: { after: meta.after_cursor }, page: pageIndex + 1 });
  }, [meta, listKey, pageIndex]);
  const previous = useCallback(() => {
    if (meta?.before_cursor) setCursor({ for: listKey, at: { before: meta.before_cursor }, page: Math.max(0, pageIndex - 1) });
  }, [meta, listKey, pageIndex]);
  const refresh = useCallback(() => setVersion((v) => v + 1), []);

  return {
    rows: page?.custom_object_records ?? [],
    count: loaded.total,
    from: pageIndex * size + 1,
    hasNext: hasNext && Boolean(meta?.after_cursor),
    hasPrevious: hasPrevious && Boolean(meta?.before_cursor),
    loading: loaded.key !== requestKey,
    error: loaded.error,
    next,
    previous,
    refresh,
  };
}
