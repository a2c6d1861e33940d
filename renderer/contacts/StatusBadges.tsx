import type { Contact } from '../../shared/resources/contact.js';
import { capitalized } from '../shell/words.js';

/** The contact's kind in words: customer (current/past) and prospect (current/lost). */
export function StatusBadges({ contact }: { contact: Pick<Contact, 'customer_status' | 'prospect_status'> }) {
  return (
    <span className="badges">
      {contact.customer_status !== 'none' && <span className={`badge customer-${contact.customer_status}`}>{capitalized(contact.customer_status)} customer</span>}
      {contact.prospect_status !== 'none' && <span className={`badge prospect-${contact.prospect_status}`}>{capitalized(contact.prospect_status)} prospect</span>}
    </span>
  );
}
