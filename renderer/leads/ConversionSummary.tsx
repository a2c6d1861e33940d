import { useEffect, useState } from 'react';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { api } from '../api/client.js';
import { Link } from '../router/Link.js';
import { formatWhen } from '../tasks/taskDates.js';
import { leadDisplayName, type Lead, type LeadConversion } from '../../shared/resources/lead.js';

type ConversionQuery = { lead_id: number } | { individual_id: number } | { organization_id: number } | { deal_id: number };

interface Created {
  conversion: LeadConversion;
  lead: string;
  individual: string | null;
  organization: string | null;
  deal: string | null;
}

const contactName = (id: number | null) =>
  id === null ? Promise.resolve(null) : api.get<Contact>(`/v2/contacts/${id}`).then(contactDisplayName, () => 'the contact');
const dealName = (id: number | null) =>
  id === null ? Promise.resolve(null) : api.get<{ name: string }>(`/v2/deals/${id}`).then((d) => d.name, () => 'the deal');
const leadName = (id: number) => api.get<Lead>(`/v2/leads/${id}`).then((lead) => leadDisplayName(lead) || 'the lead', () => 'the lead');

/** The newest conversion matching the query, with the names of what it created. */
async function loadCreated(query: ConversionQuery): Promise<Created | null> {
  const page = await api.list<LeadConversion>('/v2/lead_conversions', { ...query, per_page: 1 });
  const conversion = page.items[0]?.data;
  if (!conversion) return null;
  const [lead, individual, organization, deal] = await Promise.all([
    leadName(conversion.lead_id), contactName(conversion.individual_id), contactName(conversion.organization_id), dealName(conversion.deal_id),
  ]);
  return { conversion, lead, individual, organization, deal };
}

/**
 * Where a lead went when it was converted: links to the person, organization
 * and deal made from it. Shown on the lead and on the records it became.
 */
export function ConversionSummary({ query }: { query: ConversionQuery }) {
  const [created, setCreated] = useState<Created | null>(null);
  const key = JSON.stringify(query);
  useEffect(() => {
    let live = true;
    loadCreated(JSON.parse(key) as ConversionQuery).then((c) => live && setCreated(c), () => undefined);
    return () => {
      live = false;
    };
  }, [key]);

  if (!created) return null;
  const { conversion, lead, individual, organization, deal } = created;
  return (
    <section className="card conversion" aria-label="Lead conversion">
      <h2>Converted from a lead <span className="muted">{formatWhen(conversion.created_at)}</span></h2>
      <ul className="plain-list">
        {conversion.individual_id !== null && <li>Person: <Link to={`/contacts/${conversion.individual_id}`}>{individual}</Link></li>}
        {conversion.organization_id !== null && <li>Organization: <Link to={`/contacts/${conversion.organization_id}`}>{organization}</Link></li>}
        {conversion.deal_id !== null && <li>Deal: <Link to={`/deals/${conversion.deal_id}`}>{deal}</Link></li>}
        <li className="muted">Lead: <Link to={`/leads/${conversion.lead_id}`}>{lead}</Link></li>
      </ul>
    </section>
  );
}
