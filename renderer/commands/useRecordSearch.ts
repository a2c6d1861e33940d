import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { DEFAULT_SEARCH_RESULTS, type SearchResult } from '../../shared/resources/recordSearch.js';

/** Quiet time after a key press before asking: fast typists send one request per pause, not per letter. */
const DEBOUNCE_MS = 120;

export interface RecordSearchState {
  /** The text the results answer (lags the input while a request is out). */
  text: string;
  results: SearchResult[];
  status: 'idle' | 'loading' | 'done' | 'failed';
}

const IDLE: RecordSearchState = { text: '', results: [], status: 'idle' };

/**
 * Contacts, leads and deals matching `text` (`GET /v2/search`), as you
 * type: debounced, and an answer that arrives after a newer request was
 * sent is dropped, so the results always belong to the latest text.
 */
export function useRecordSearch(text: string, perPage = DEFAULT_SEARCH_RESULTS): RecordSearchState {
  const [state, setState] = useState<RecordSearchState>(IDLE);
  const wanted = text.trim();

  useEffect(() => {
    if (wanted === '') return;
    let current = true;
    const timer = setTimeout(() => {
      setState((s) => ({ ...s, status: 'loading' }));
      api.list<SearchResult>('/v2/search', { q: wanted, per_page: perPage }).then(
        (page) => current && setState({ text: wanted, results: page.items.map((i) => i.data), status: 'done' }),
        () => current && setState({ text: wanted, results: [], status: 'failed' }),
      );
    }, DEBOUNCE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [wanted, perPage]);

  return wanted === '' ? IDLE : state;
}
