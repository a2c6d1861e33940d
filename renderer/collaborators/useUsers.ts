import { useEffect, useState } from 'react';
import type { User } from '../../shared/resources/user.js';
import { api } from '../api/client.js';

/** The account's active users, by name: the people a record can be given to or shared with. */
export function useUsers(): User[] {
  const [users, setUsers] = useState<User[]>([]);
  useEffect(() => {
    let live = true;
    api.list<User>('/v2/users', { status: 'active', sort_by: 'name', per_page: 100 })
      .then((page) => live && setUsers(page.items.map((i) => i.data)), () => undefined);
    return () => {
      live = false;
    };
  }, []);
  return users;
}
