import { create } from 'zustand';
import type { QueryValue } from '../../shared/bridge.js';
import type { Contact, CustomerStatus, ProspectStatus } from '../../shared/resources/contact.js';
import { api } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';
import { pageQuery } from '../smartLists/smartListQuery.js';
import { useSmartLists } from '../smartLists/smartListStore.js';

export type ContactKind = 'all' | 'people' | 'organizations';
export type SortField = 'name' | 'last_name' | 'email' | 'updated_at' | 'created_at';

export interface ContactFilters {
  q: string;
  kind: ContactKind;
  customer_status: CustomerStatus | '';
  prospect_status: ProspectStatus | '';
  tag: string;
  /** A user's id, or '' for anyone's contacts. */
  owner_id: string;
  sortBy: SortField;
  descending: boolean;
}

interface ContactListState {
  filters: ContactFilters;
  rows: Contact[];
  /** How many contacts match the filters in all (`meta.total_count`), null until the first page answered. */
  total: number | null;
  /** The next page to fetch, or null when the last page has been loaded. */
  nextPage: number | null;
  loading: boolean;
  error: string | null;
  setFilters(change: Partial<ContactFilters>): void;
  loadMore(): Promise<void>;
  reload(): void;
  /** Loads the pages shown again, replacing the rows only once they arrived (no flash of an empty list). */
  refresh(): Promise<void>;
}

const PAGE_SIZE = 100;
export const DEFAULT_FILTERS: ContactFilters = {
  q: '', kind: 'all', customer_status: '', prospect_status: '', tag: '', owner_id: '', sortBy: 'name', descending: false,
};

/** The list request for a page; also what the exports send (they drop the paging). */
export function toQuery(filters: ContactFilters, page: number): Record<string, QueryValue> {
  return {
    page,
    per_page: PAGE_SIZE,
    q: filters.q.trim() || undefined,
    is_organization: filters.kind === 'all' ? undefined : filters.kind === 'organizations',
    customer_status: filters.customer_status || undefined,
    prospect_status: filters.prospect_status || undefined,
    tag: filters.tag.trim() || undefined,
    owner_id: filters.owner_id || undefined,
    sort_by: `${filters.sortBy}:${filters.descending ? 'desc' : 'asc'}`,
  };
}

/** The filters a smart list's saved query sets (the inverse of toQuery); what the screen has no control for stays with the list. */
export function filtersFromQuery(saved: Record<string, string>, sortBy: string | null): ContactFilters {
  const [field, direction] = (sortBy ?? '').split(':');
  const sorted = (['name', 'last_name', 'email', 'updated_at', 'created_at'] as const).find((f) => f === field);
  const kind: ContactKind = saved.is_organization === undefined ? 'all' : saved.is_organization === 'true' ? 'organizations' : 'people';
  return {
    ...DEFAULT_FILTERS,
    q: saved.q ?? '', kind, tag: saved.tag ?? '', owner_id: saved.owner_id ?? '',
    customer_status: (saved.customer_status ?? '') as ContactFilters['customer_status'],
    prospect_status: (saved.prospect_status ?? '') as ContactFilters['prospect_status'],
    ...(sorted ? { sortBy: sorted, descending: direction === 'desc' } : {}),
  };
}

interface Page {
  rows: Contact[];
  nextPage: number | null;
  /** Asked of page 1 only: the total does not change from page to page. */
  total?: number;
}

async function fetchPage(filters: ContactFilters, page: number): Promise<Page> {
  const query = { ...toQuery(filters, page), count: page === 1 || undefined };
  const answer = await api.list<Contact>('/v2/contacts', pageQuery(query, useSmartLists.getState().open, 'contact'));
  return { rows: answer.items.map((item) => item.data), nextPage: answer.meta.links.next_page ? page + 1 : null, total: answer.meta.total_count };
}

// Each filter change starts a new generation; answers of older generations are dropped,
// so a slow response to "jo" can never overwrite the newer answer to "joh".
let generation = 0;

/** The contacts list: filters, the pages loaded so far, and paging on demand. */
export const useContactList = create<ContactListState>((set, get) => ({
  filters: DEFAULT_FILTERS,
  rows: [],
  total: null,
  nextPage: 1,
  loading: false,
  error: null,
  setFilters(change) {
    set({ filters: { ...get().filters, ...change } });
    get().reload();
  },
  reload() {
    generation++;
    set({ rows: [], total: null, nextPage: 1, loading: false, error: null });
    void get().loadMore();
  },
  async loadMore() {
    const { nextPage, loading, filters } = get();
    if (nextPage === null || loading) return;
    const mine = generation;
    set({ loading: true });
    try {
      const page = await fetchPage(filters, nextPage);
      if (mine !== generation) return;
      set((state) => ({ rows: [...state.rows, ...page.rows], total: page.total ?? state.total, nextPage: page.nextPage, loading: false }));
    } catch (err) {
      if (mine !== generation) return;
      set({ loading: false, error: refusalText(err, 'The contacts could not be loaded.') });
    }
  },
  async refresh() {
    const mine = ++generation;
    const { filters, rows } = get();
    const pages = Math.max(1, Math.ceil(rows.length / PAGE_SIZE));
    set({ loading: true });
    try {
      const fresh: Contact[] = [];
      let nextPage: number | null = 1;
      let total: number | null = null;
      while (nextPage !== null && nextPage <= pages) {
        const page = await fetchPage(filters, nextPage);
        if (mine !== generation) return;
        fresh.push(...page.rows);
        nextPage = page.nextPage;
        total = page.total ?? total;
      }
      set({ rows: fresh, total, nextPage, loading: false, error: null });
    } catch (err) {
      if (mine !== generation) return;
      set({ loading: false, error: refusalText(err, 'The contacts could not be loaded.') });
    }
  },
}));
