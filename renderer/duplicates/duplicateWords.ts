import type { DuplicateReason, MergeableType } from '../../shared/resources/merge.js';

/** The collection path of a mergeable type's records, and the screen's. */
export const PLURAL: Record<MergeableType, 'contacts' | 'leads'> = { contact: 'contacts', lead: 'leads' };

/** "same email" and the like: why records are listed together. */
export const REASON_WORDS: Record<DuplicateReason, string> = { email: 'Same email', phone: 'Same phone number', name: 'Same or similar name' };

/** What the create-form warning says a match shares ("this email"). */
export const MATCH_WORDS: Record<DuplicateReason, string> = { email: 'this email', phone: 'this phone number', name: 'this or a similar name' };

/** A contact's or lead's name as lists show it. */
export function recordName(record: { name?: unknown; first_name?: unknown; last_name?: unknown; organization_name?: unknown }): string {
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const person = [text(record.first_name), text(record.last_name)].filter(Boolean).join(' ');
  return text(record.name) || person || text(record.organization_name) || 'Unnamed';
}
