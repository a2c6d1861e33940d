import type { ContactTextField } from '../../shared/resources/contact.js';
import { CONTACT_TEXT_FIELDS } from '../../shared/resources/contact.js';
import { DetailRow } from '../leads/Details.js';
import { EmailLink, PhoneLink } from './ContactPoints.js';

/** The text fields of a contact and of a lead, as people call them. */
export const CONTACT_FIELD_LABELS: Record<ContactTextField, string> = {
  title: 'Title', description: 'Description', industry: 'Industry', website: 'Website', email: 'Email', phone: 'Phone', mobile: 'Mobile',
  fax: 'Fax', twitter: 'Twitter', facebook: 'Facebook', linkedin: 'LinkedIn', skype: 'Skype',
};

/** A web address that opens (`https://` added when it was typed without a scheme). */
function WebLink({ url }: { url: string }) {
  const href = /^https?:\/\//i.test(url) ? url : `https://${url}`;
  return <a href={href} target="_blank" rel="noreferrer">{url}</a>;
}

function valueOf(field: ContactTextField, value: string) {
  if (field === 'email') return <EmailLink email={value} />;
  if (field === 'phone' || field === 'mobile') return <PhoneLink phone={value} />;
  if (field === 'website') return <WebLink url={value} />;
  return value;
}

/** The text fields of a contact or lead that hold something. */
export function filledContactFields(record: Partial<Record<ContactTextField, string | null>>): ContactTextField[] {
  return CONTACT_TEXT_FIELDS.filter((f) => record[f]);
}

/** The filled-in text fields of a contact or lead as detail rows: email, phone and website as links that write, call and open. */
export function ContactFieldRows({ record }: { record: Partial<Record<ContactTextField, string | null>> }) {
  return filledContactFields(record).map((f) => <DetailRow key={f} label={CONTACT_FIELD_LABELS[f]}>{valueOf(f, record[f]!)}</DetailRow>);
}

/** How to reach a contact or lead at once, for its page's header: its phones and email as links that call and write. */
export function ReachLinks({ record }: { record: Partial<Record<ContactTextField, string | null>> }) {
  return (['phone', 'mobile', 'email'] as const).filter((f) => record[f]).map((f) => (
    <span key={f} className="reach-item"><span className="muted">{CONTACT_FIELD_LABELS[f]}</span> {valueOf(f, record[f]!)}</span>
  ));
}
