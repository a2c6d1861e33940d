import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { Link } from '../router/Link.js';
import { usePagedList } from '../leads/usePagedList.js';
import { useRefreshOnSync } from '../sync/useRefreshOnSync.js';
import { RelatedList } from '../lists/RelatedList.js';
import { EmailLink, PhoneLink } from '../records/ContactPoints.js';

/** An organization's people, a page at a time (some have hundreds), with how to reach each. */
export function OrganizationPeople({ organizationId }: { organizationId: number }) {
  const list = usePagedList<Contact>('/v2/contacts', { contact_id: organizationId, sort_by: 'name' }, 10);
  useRefreshOnSync(list.refresh);
  return (
    <RelatedList title="People" list={list} empty="Nobody here yet." rowKey={(p) => p.id} rowLabel={(p) => contactDisplayName(p)}
      action={<Link to={`/contacts/new?organization=${organizationId}`} className="button">Add a person</Link>}
      columns={[
        { label: 'Name', kind: 'title', cell: (p) => <Link to={`/contacts/${p.id}`}>{contactDisplayName(p) || '(no name)'}</Link> },
        { label: 'Title', cell: (p) => p.title },
        { label: 'Email', cell: (p) => <EmailLink email={p.email} /> },
        { label: 'Phone', cell: (p) => <PhoneLink phone={p.phone ?? p.mobile} /> },
      ]} />
  );
}
