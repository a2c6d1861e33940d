import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import type { DuplicateGroup, MergeableType } from '../../shared/resources/merge.js';
import { MATCH_WORDS, PLURAL, recordName } from './duplicateWords.js';
import './duplicates.css';

/** How long typing pauses before the hub is asked. */
const ASK_DELAY_MS = 400;

/** What the rep has typed so far into a create form. */
export interface DuplicateCandidate {
  email: string;
  phone: string;
  name: string;
  /** The organization being typed or picked: a contact's `contact_id`, a lead's `organization_name` (close names are found within it). */
  organization?: string;
}

interface Match {
  reason: DuplicateGroup['reason'];
  id: number;
  name: string;
}

/**
 * The create forms' warning: as the rep types an email, a phone number or a
 * name that an existing contact or lead has, a line says so with a link to it
 * (GET /v2/{contacts|leads}/duplicates?email=…&phone=…&name=…, with the
 * organization so close names in it are found too). Only a warning:
 * saving stays possible.
 */
export function DuplicateWarning({ type, candidate }: { type: MergeableType; candidate: DuplicateCandidate }) {
  const matches = useMatches(type, candidate);
  if (matches.length === 0) return null;
  const noun = type === 'contact' ? 'contact' : 'lead';
  return (
    <div className="duplicate-warning" role="status">
      {matches.map((match) => (
        <p key={match.reason}>
          A {noun} with {MATCH_WORDS[match.reason]} exists: <Link to={`/${PLURAL[type]}/${match.id}`}>open {match.name}</Link>?
        </p>
      ))}
    </div>
  );
}

function useMatches(type: MergeableType, candidate: DuplicateCandidate): Match[] {
  const [matches, setMatches] = useState<Match[]>([]);
  const { email, phone, name, organization = '' } = candidate;
  useEffect(() => {
    const query = Object.fromEntries(Object.entries({ email, phone, name }).map(([k, v]) => [k, v.trim()]).filter(([, v]) => v !== ''));
    if (query.name !== undefined && organization.trim() !== '') query[type === 'contact' ? 'contact_id' : 'organization_name'] = organization.trim();
    let current = true;
    const timer = setTimeout(() => {
      if (Object.keys(query).length === 0) return setMatches([]);
      void findMatches(type, query).then((found) => current && setMatches(found), () => current && setMatches([]));
    }, ASK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [type, email, phone, name, organization]);
  return matches;
}

/** One match per reason: the first record of each group, with its name. */
async function findMatches(type: MergeableType, query: Record<string, string>): Promise<Match[]> {
  const groups = (await api.list<DuplicateGroup>(`/v2/${PLURAL[type]}/duplicates`, query)).items.map((item) => item.data);
  if (groups.length === 0) return [];
  const ids = [...new Set(groups.map((group) => group.ids[0]))];
  const records = (await api.list<{ id: number; name?: string | null; first_name?: string | null; last_name?: string | null }>(`/v2/${PLURAL[type]}`, { ids: ids.join(',') })).items.map((item) => item.data);
  const names = new Map(records.map((record) => [record.id, recordName(record)]));
  return groups.map((group) => ({ reason: group.reason, id: group.ids[0], name: names.get(group.ids[0]) ?? `#${group.ids[0]}` }));
}
