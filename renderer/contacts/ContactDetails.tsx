import type { ReactNode } from 'react';
import { contactDisplayName, type Contact } from '../../shared/resources/contact.js';
import { Link } from '../router/Link.js';
import { AddressText, DetailRow, formatCustomValue } from '../leads/Details.js';
import { ContactFieldRows, filledContactFields } from '../records/ContactFieldRows.js';
import { RecordSection } from '../records/RecordSection.js';
import { useResource } from '../records/useResource.js';
import { OwnerField } from '../owners/OwnerField.js';

/** A contact's organization (or an organization's parent) as a link by its name; nothing while it loads or if it is gone. */
export function OrganizationLink({ id }: { id: number }) {
  const organization = useResource<Contact>(`/v2/contacts/${id}`);
  return organization ? <Link to={`/contacts/${id}`}>{contactDisplayName(organization)}</Link> : <span className="muted">…</span>;
}

/** A contact's details: where it belongs, whose it is (changeable here), how to reach it (links that write and call), its addresses and custom fields. */
export function ContactDetails({ contact, onSaved }: { contact: Contact; onSaved(contact: Contact): void }) {
  const rows: ReactNode[] = [];
  if (contact.contact_id) rows.push(<DetailRow key="org" label="Organization"><OrganizationLink id={contact.contact_id} /></DetailRow>);
  if (contact.parent_organization_id) rows.push(<DetailRow key="parent" label="Parent organization"><OrganizationLink id={contact.parent_organization_id} /></DetailRow>);
  rows.push(<OwnerField key="owner" path={`/v2/contacts/${contact.id}`} record={contact} onSaved={onSaved} />);
  const addresses = [contact.address, contact.billing_address, contact.shipping_address].filter(Boolean).length;
  const customFields = Object.entries(contact.custom_fields);
  return (
    <RecordSection title="Details" count={rows.length + filledContactFields(contact).length + addresses + customFields.length} className="details-section">
      <dl className="details">
        {rows}
        <ContactFieldRows record={contact} />
        <DetailRow label="Address"><AddressText address={contact.address} /></DetailRow>
        {contact.billing_address && <DetailRow label="Billing address"><AddressText address={contact.billing_address} /></DetailRow>}
        {contact.shipping_address && <DetailRow label="Shipping address"><AddressText address={contact.shipping_address} /></DetailRow>}
        {customFields.map(([name, value]) => <DetailRow key={name} label={name}>{formatCustomValue(value)}</DetailRow>)}
      </dl>
    </RecordSection>
  );
}
