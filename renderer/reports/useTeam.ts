import { useEffect, useState } from 'react';
import type { User } from '../../shared/resources/user.js';
import { api } from '../api/client.js';

/** The people an admin can pick as a report's owner, by name; none for an agent, who only ever sees their own data. */
export function useTeam(admin: boolean): User[] {
  const [users, setUsers] = useState<User[]>([]);
  useEffect(() => {
    if (!admin) return;
    let live = true;
    api.list<User>('/v2/users', { per_page: 100 }).then((page) => {
      const people = page.items.map((i) => i.data).filter((u) => u.identity_type === 'person');
      if (live) setUsers(people.sort((a, b) => a.name.localeCompare(b.name)));
    }, () => undefined);
    return () => {
      live = false;
    };
  }, [admin]);
  return users;
}
