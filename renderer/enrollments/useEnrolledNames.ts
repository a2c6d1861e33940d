import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { leadDisplayName, type Lead } from '../../shared/resources/lead.js';
import type { EnrollmentResourceType, SequenceEnrollment } from '../../shared/resources/sequence.js';

const PER_REQUEST = 100;

/** `lead:12` → the lead's name: the key of one enrolled record. */
export const enrolledKey = (type: EnrollmentResourceType, id: number) => `${type}:${id}`;

async function namesOf(type: EnrollmentResourceType, ids: number[]): Promise<[string, string][]> {
  if (ids.length === 0) return [];
  const path = type === 'lead' ? '/v2/leads' : '/v2/contacts';
  const page = await api.list<Lead | Contact>(path, { ids: ids.join(','), per_page: PER_REQUEST });
  return page.items.map(({ data }) => [enrolledKey(type, data.id), type === 'lead' ? leadDisplayName(data as Lead) : contactDisplayName(data as Contact)]);
}

/** The names of the leads and contacts enrolled (one request per type for a screen of enrollments). */
export function useEnrolledNames(enrollments: readonly SequenceEnrollment[]): Map<string, string> {
  const [names, setNames] = useState(new Map<string, string>());
  const idsOf = (type: EnrollmentResourceType) => [...new Set(enrollments.filter((e) => e.resource_type === type).map((e) => e.resource_id))].slice(0, PER_REQUEST);
  const key = JSON.stringify([idsOf('lead'), idsOf('contact')]);
  useEffect(() => {
    const [leads, contacts] = JSON.parse(key) as [number[], number[]];
    let live = true;
    Promise.all([namesOf('lead', leads), namesOf('contact', contacts)])
      .then(([a, b]) => live && setNames(new Map([...a, ...b])), () => undefined);
    return () => {
      live = false;
    };
  }, [key]);
  return names;
}
