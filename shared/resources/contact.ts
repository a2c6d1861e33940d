import type { Address } from './address.js';
import type { CustomFieldValue } from './customField.js';

export const CUSTOMER_STATUSES = ['none', 'current', 'past'] as const;
export const PROSPECT_STATUSES = ['none', 'current', 'lost'] as const;
export type CustomerStatus = (typeof CUSTOMER_STATUSES)[number];
export type ProspectStatus = (typeof PROSPECT_STATUSES)[number];

/** Plain string fields a contact carries besides its names (spec: Contact). */
export const CONTACT_TEXT_FIELDS = [
  'title', 'description', 'industry', 'website', 'email', 'phone', 'mobile', 'fax',
  'twitter', 'facebook', 'linkedin', 'skype',
] as const;
export type ContactTextField = (typeof CONTACT_TEXT_FIELDS)[number];

export const CONTACT_SORTS = ['id', 'name', 'first_name', 'last_name', 'email', 'updated_at', 'created_at'] as const;

export interface Contact extends Record<ContactTextField, string | null> {
  id: number;
  creator_id: number;
  owner_id: number;
  is_organization: boolean;
  contact_id: number | null;
  parent_organization_id: number | null;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  customer_status: CustomerStatus;
  prospect_status: ProspectStatus;
  address: Address;
  billing_address: Address | null;
  shipping_address: Address | null;
  tags: string[];
  custom_fields: Record<string, CustomFieldValue>;
  created_at: string;
  updated_at: string;
}

/** Fields a client may send on create or update. */
export type ContactInput = Partial<Omit<Contact, 'id' | 'creator_id' | 'created_at' | 'updated_at'>>;

/** What a person would call the contact: an organization's name, a person's full name. */
export function contactDisplayName(c: Pick<Contact, 'is_organization' | 'name' | 'first_name' | 'last_name'>): string {
  if (c.is_organization) return c.name ?? '';
  return [c.first_name, c.last_name].filter(Boolean).join(' ');
}
