import { useEffect } from 'react';
import { create } from 'zustand';
import type { User } from '../../shared/resources/user.js';
import { api } from '../api/client.js';
import { useSession } from '../session/sessionStore.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';

const PER_PAGE = 100;

interface OwnersState {
  /** Every user of the account, active or not, by name; null until loaded. */
  users: User[] | null;
  load(): Promise<void>;
}

/** The team, read page by page: a record's owner may be any of them, a deactivated one too. */
async function everyUser(): Promise<User[]> {
  const users: User[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.list<User>('/v2/users', { page, per_page: PER_PAGE, sort_by: 'name' });
    users.push(...answer.items.map((i) => i.data));
    if (!answer.meta.links.next_page) return users;
  }
}

/** Loaded once for every list and record page that names owners (each row would otherwise ask again). */
const useOwnersStore = create<OwnersState>((set) => ({
  users: null,
  async load() {
    const users = await everyUser().catch(() => null);
    if (users) set({ users });
  },
}));

/** The owner's name, as lists and record pages show it (the name itself, also for the signed-in user's records); empty while unknown. */
export function ownerName(users: readonly User[], id: number | null | undefined): string {
  return users.find((u) => u.id === id)?.name ?? '';
}

/**
 * The users whose records a list can be narrowed to, in the order an owner
 * filter offers them: the signed-in user first, then the active users by
 * name, then the deactivated ones (whose records a manager hands over).
 */
export function ownerChoices(users: readonly User[], meId: number | null): User[] {
  const rank = (u: User) => (u.id === meId ? 0 : u.status === 'active' ? 1 : 2);
  return [...users].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

export interface Owners {
  /** Every user, by name (empty until loaded). */
  users: User[];
  /** The signed-in user. */
  me: User | null;
  nameOf(id: number | null | undefined): string;
}

/** The account's users for owner columns, filters and fields; loaded on first use and again after a sync. */
export function useOwners(): Owners {
  const users = useOwnersStore((s) => s.users);
  const me = useSession((s) => s.user);
  useEffect(() => {
    if (useOwnersStore.getState().users === null) void useOwnersStore.getState().load();
  }, []);
  useRefreshOnSync(() => void useOwnersStore.getState().load());
  const all = users ?? [];
  return { users: all, me, nameOf: (id) => ownerName(all, id) };
}
