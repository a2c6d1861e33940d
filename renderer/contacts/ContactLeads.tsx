import type { Contact } from '../../shared/resources/contact.js';
import type { LeadConversion } from '../../shared/resources/lead.js';
import { usePagedList } from '../leads/usePagedList.js';
import { RelatedList } from '../lists/RelatedList.js';
import { RecordLink } from '../records/RecordLink.js';
import { useRecordSummaries } from '../records/useRecordSummaries.js';
import { formatWhen } from '../tasks/taskDates.js';

/** The leads a contact was converted from (an organization's: those that made it), each with the deal made with it. Nothing when there are none. */
export function ContactLeads({ contact }: { contact: Contact }) {
  const list = usePagedList<LeadConversion>('/v2/lead_conversions', contact.is_organization ? { organization_id: contact.id } : { individual_id: contact.id }, 10);
  const summaries = useRecordSummaries(list.rows.flatMap((c) => [{ type: 'lead' as const, id: c.lead_id }, c.deal_id === null ? null : { type: 'deal' as const, id: c.deal_id }]));
  if (list.rows.length === 0) return null;
  return (
    <RelatedList title="Leads" list={list} empty="" rowKey={(c) => c.id}
      columns={[
        { label: 'Lead', kind: 'title', cell: (c) => <RecordLink record={{ type: 'lead', id: c.lead_id }} summaries={summaries} /> },
        { label: 'Converted', kind: 'muted', cell: (c) => formatWhen(c.created_at) },
        { label: 'Deal made', cell: (c) => c.deal_id !== null && <RecordLink record={{ type: 'deal', id: c.deal_id }} summaries={summaries} /> },
      ]} />
  );
}
