import { useEffect, useState } from 'react';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { api } from '../api/client.js';

const PER_REQUEST = 100;

/** The display names of the given contacts, fetched in batches with `ids=`. */
export function useContactNames(ids: readonly (number | null)[]): Map<number, string> {
  const [names, setNames] = useState(new Map<number, string>());
  const key = [...new Set(ids.filter((id): id is number => id !== null))].sort((a, b) => a - b).join(',');
  useEffect(() => {
    if (key === '') return;
    let live = true;
    const wanted = key.split(',');
    const batches = Array.from({ length: Math.ceil(wanted.length / PER_REQUEST) }, (_, i) => wanted.slice(i * PER_REQUEST, (i + 1) * PER_REQUEST));
    Promise.all(batches.map((batch) => api.list<Contact>('/v2/contacts', { ids: batch.join(','), per_page: PER_REQUEST })))
      .then((pages) => live && setNames(new Map(pages.flatMap((p) => p.items.map((i) => [i.data.id, contactDisplayName(i.data)] as const)))))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [key]);
  return names;
}
