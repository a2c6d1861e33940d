import type { Contact } from '../../shared/resources/contact.js';
import type { Deal } from '../../shared/resources/deal.js';
import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { RelatedList } from '../lists/RelatedList.js';
import { usePipelines } from '../deals/usePipelines.js';
import { formatMoney } from '../deals/money.js';
import { formatDay } from '../tasks/taskDates.js';

/**
 * A contact's deals, the latest changed first: those it is the contact of or
 * associated with (a person converted from a lead is associated with the deal
 * made for its organization), and an organization's as its organization too.
 */
export function ContactDeals({ contact }: { contact: Contact }) {
  // inclusive=false ORs the filters: a deal names the contact in any of these ways.
  const query = {
    contact_id: contact.id, associated_contact_id: contact.id, ...(contact.is_organization ? { organization_id: contact.id } : {}),
    inclusive: false, sort_by: 'updated_at:desc',
  };
  const list = usePagedList<Deal>('/v2/deals', query, 10);
  useRefreshOnSync(list.refresh);
  const { stages } = usePipelines();
  const stageName = (id: number) => stages.find((s) => s.id === id)?.name ?? '';
  return (
    <RelatedList title="Deals" list={list} empty="No deals yet." rowKey={(d) => d.id} rowLabel={(d) => d.name}
      action={<Link to={`/deals/new?contact_id=${contact.id}`} className="button">New deal</Link>}
      columns={[
        { label: 'Deal', kind: 'title', cell: (d) => <Link to={`/deals/${d.id}`}>{d.name}</Link> },
        { label: 'Stage', cell: (d) => stageName(d.stage_id) },
        { label: 'Value', kind: 'number', cell: (d) => formatMoney(d.value, d.currency) },
        { label: 'Expected close date', kind: 'muted', cell: (d) => formatDay(d.estimated_close_date) },
      ]} />
  );
}
