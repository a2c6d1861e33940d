import { useCallback, useEffect, useState } from 'react';
import type { User } from '../../../shared/resources/user.js';
import { api } from '../../api/client.js';

/** What admins send to add a user: with a password, or none (the answer then carries a one-time invite link). */
export interface NewUserInput {
  name: string;
  email: string;
  role: User['role'];
  password?: string;
}

export interface UserChanges {
  role?: User['role'];
  status?: User['status'];
  password?: string;
}

/** A one-time link that lets its person set a password, shown once. */
export interface InviteLink {
  url: string;
  expiresAt: string;
}

export interface TeamState {
  /** The team, or null until the first answer. */
  users: User[] | null;
  loadError: string | null;
  /** Adds a user; answers the user and, without a password, their invite link. Throws ApiFailure on refusal. */
  add(input: NewUserInput): Promise<{ user: User; invite: InviteLink | null }>;
  /** Changes a user; throws ApiFailure on refusal (the last administrator, a short password…). */
  change(id: number, changes: UserChanges): Promise<User>;
  /** A fresh one-time link for the user (a new invite, or a password reset); earlier links stop working. */
  newLink(id: number): Promise<InviteLink>;
}

/** Pages of 100 until the last: a team fits in a few. */
async function loadAll(): Promise<User[]> {
  const users: User[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.list<User>('/v2/users', { page, per_page: 100, sort_by: 'name:asc' });
    users.push(...answer.items.map((i) => i.data));
    if (!answer.meta.links.next_page) return users;
  }
}

/** The account's users for the Team screen, kept in step with each change made there. */
export function useTeam(): TeamState {
  const [users, setUsers] = useState<User[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let live = true;
    loadAll().then(
      (list) => {
        if (!live) return;
        setUsers(list);
        setLoadError(null);
      },
      () => live && setLoadError('The team could not be loaded.'),
    );
    return () => {
      live = false;
    };
  }, [version]);

  const replace = (user: User) => setUsers((list) => list?.map((u) => (u.id === user.id ? user : u)) ?? null);

  const add = useCallback(async (input: NewUserInput) => {
    const answer = await api.createWithMeta<User, { invite_url?: string; invite_expires_at?: string }>('/v2/users', input);
    setVersion((v) => v + 1);
    const { invite_url: url, invite_expires_at: expiresAt } = answer.meta;
    return { user: answer.data, invite: url && expiresAt ? { url, expiresAt } : null };
  }, []);

  const change = useCallback(async (id: number, changes: UserChanges) => {
    const user = await api.update<User>(`/v2/users/${id}`, changes);
    replace(user);
    return user;
  }, []);

  const newLink = useCallback(async (id: number) => {
    const link = await api.action<{ invite_url: string; expires_at: string }>(`/v2/users/${id}/invitation`);
    setVersion((v) => v + 1);
    return { url: link.invite_url, expiresAt: link.expires_at };
  }, []);

  return { users, loadError, add, change, newLink };
}
