import { useEffect, useState } from 'react';
import { api } from '../api/client.js';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { leadDisplayName, type Lead } from '../../shared/resources/lead.js';
import type { Deal } from '../../shared/resources/deal.js';
import { recordKey, type RecordRef, type RecordType } from './records.js';

/** What a list of activities shows of their records: the name, and whose record it is. */
export interface RecordSummary {
  name: string;
  ownerId: number;
}

const PER_REQUEST = 100;
const PATHS: Record<RecordType, string> = { contact: '/v2/contacts', lead: '/v2/leads', deal: '/v2/deals' };

function summaryOf(type: RecordType, data: Contact | Lead | Deal): RecordSummary {
  const name = type === 'contact' ? contactDisplayName(data as Contact) : type === 'lead' ? leadDisplayName(data as Lead) : (data as Deal).name;
  return { name, ownerId: data.owner_id };
}

async function summariesOf(type: RecordType, ids: number[]): Promise<[string, RecordSummary][]> {
  if (ids.length === 0) return [];
  const page = await api.list<Contact | Lead | Deal>(PATHS[type], { ids: ids.join(','), per_page: PER_REQUEST });
  return page.items.map(({ data }) => [recordKey({ type, id: data.id }), summaryOf(type, data)]);
}

/**
 * The names and owners of the records given (at most one request per type:
 * a screen shows a page of activities, never more than 100 records of a kind).
 */
export function useRecordSummaries(refs: readonly (RecordRef | null)[]): Map<string, RecordSummary> {
  const [summaries, setSummaries] = useState(new Map<string, RecordSummary>());
  const idsOf = (type: RecordType) => [...new Set(refs.filter((r) => r?.type === type).map((r) => r!.id))].sort((a, b) => a - b).slice(0, PER_REQUEST);
  const key = JSON.stringify([idsOf('contact'), idsOf('lead'), idsOf('deal')]);
  useEffect(() => {
    const [contacts, leads, deals] = JSON.parse(key) as number[][];
    let live = true;
    Promise.all([summariesOf('contact', contacts), summariesOf('lead', leads), summariesOf('deal', deals)])
      .then((found) => live && setSummaries(new Map(found.flat())), () => undefined);
    return () => {
      live = false;
    };
  }, [key]);
  return summaries;
}
