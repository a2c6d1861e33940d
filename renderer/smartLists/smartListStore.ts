import { create } from 'zustand';
import type { SmartList, SmartListType } from '../../shared/resources/smartList.js';
import { api } from '../api/client.js';
import { API_PATHS } from './smartListQuery.js';

interface SmartListsState {
  /** The user's own and the shared smart lists, by name; null until loaded. */
  lists: SmartList[] | null;
  /** How many records each list selects (`count=true` on its list endpoint), by id; absent until counted. */
  counts: Record<number, number>;
  /** The smart list open on a list screen (the address's `smart_list_id`), and its view as saved (smartListQuery.viewKey), once applied. */
  open: { list: SmartList | null; baseline: string | null };
  /** The resource whose screen last took a smart list's filters: kept by a screen whose filters outlive it (the contacts' store). */
  applied: SmartListType | null;
  load(): Promise<void>;
  /** A list was saved, renamed or deleted here: the sidebar and the open list follow. */
  saved(list: SmartList | null, removedId?: number): void;
}

/** How many records a smart list selects: one count query of its list endpoint. */
async function countOf(list: SmartList): Promise<number | null> {
  const answer = await api.list(API_PATHS[list.resource_type], { smart_list_id: list.id, per_page: 1, count: true }).catch(() => null);
  return answer?.meta.total_count ?? null;
}

export const useSmartLists = create<SmartListsState>((set, get) => ({
  lists: null,
  counts: {},
  open: { list: null, baseline: null },
  applied: null,
  async load() {
    const answer = await api.list<SmartList>('/v2/smart_lists', { per_page: 100, sort_by: 'name' }).catch(() => null);
    if (!answer) return;
    const lists = answer.items.map((i) => i.data);
    set({ lists });
    const counted = await Promise.all(lists.map(async (l) => [l.id, await countOf(l)] as const));
    set({ counts: Object.fromEntries(counted.filter((entry): entry is readonly [number, number] => entry[1] !== null)) });
  },
  saved(list, removedId) {
    const { open } = get();
    if (list && open.list?.id === list.id) set({ open: { ...open, list } });
    if (removedId !== undefined && open.list?.id === removedId) set({ open: { list: null, baseline: null } });
    void get().load();
  },
}));

export const listsOf = (lists: SmartList[] | null, type: SmartListType) => (lists ?? []).filter((l) => l.resource_type === type);
