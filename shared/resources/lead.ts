import type { Address } from './address.js';
import type { ContactTextField } from './contact.js';
import type { CustomFieldValue } from './customField.js';

/**
 * A lead's status is free text in the real service (its clients send
 * e.g. "Unqualified"); these are the ones Outpost suggests. A new lead is
 * `New`; converting a lead sets `Converted`.
 */
export const LEAD_STATUSES = ['New', 'Working', 'Unqualified', 'Converted'] as const;
export const DEFAULT_LEAD_STATUS = 'New';
export const CONVERTED_LEAD_STATUS = 'Converted';

export const LEAD_SORTS = ['id', 'first_name', 'last_name', 'organization_name', 'email', 'status', 'updated_at', 'created_at'] as const;

export interface Lead extends Record<ContactTextField, string | null> {
  id: number;
  creator_id: number;
  owner_id: number;
  first_name: string | null;
  /** A lead needs a last_name or an organization_name (or both). */
  last_name: string | null;
  organization_name: string | null;
  status: string;
  source_id: number | null;
  unqualified_reason_id: number | null;
  address: Address;
  tags: string[];
  custom_fields: Record<string, CustomFieldValue>;
  created_at: string;
  updated_at: string;
}

/** Fields a client may send on create or update. */
export type LeadInput = Partial<Omit<Lead, 'id' | 'creator_id' | 'created_at' | 'updated_at'>>;

/** What a person would call the lead: the person's name, else the organization's. */
export function leadDisplayName(lead: Pick<Lead, 'first_name' | 'last_name' | 'organization_name'>): string {
  return [lead.first_name, lead.last_name].filter(Boolean).join(' ') || (lead.organization_name ?? '');
}

/**
 * The name of the deal a conversion makes from a lead: the organization and
 * the person ("Analytical Engines – Ada Lovelace"), or whichever of the two
 * the lead has. A rep with several deals at one organization tells them apart
 * by the person; the real service documents no name of its own.
 */
export function dealNameOfLead(lead: Pick<Lead, 'first_name' | 'last_name' | 'organization_name'>): string {
  const person = lead.last_name?.trim() ? [lead.first_name?.trim(), lead.last_name.trim()].filter(Boolean).join(' ') : '';
  return [lead.organization_name?.trim(), person].filter(Boolean).join(' – ');
}

/** A conversion of a lead into an individual and/or an organization, and perhaps a deal (all read-only). */
export interface LeadConversion {
  id: number;
  lead_id: number;
  individual_id: number | null;
  organization_id: number | null;
  /** Null when no deal was created. */
  deal_id: number | null;
  creator_id: number;
  created_at: string;
}

/** `meta.links` of a conversion: absolute URLs of the created records, or null. */
export interface LeadConversionLinks {
  individual: string | null;
  organization: string | null;
  deal: string | null;
}

export interface LeadConversionInput {
  lead_id: number;
  /** Owner of every created record; defaults to the lead's owner. */
  owner_id?: number;
  /** Defaults to true. */
  create_deal?: boolean;
}
