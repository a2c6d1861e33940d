import { CUSTOMER_STATUSES, PROSPECT_STATUSES } from '../../shared/resources/contact.js';
import { CONVERTED_LEAD_STATUS, LEAD_STATUSES } from '../../shared/resources/lead.js';
import type { CustomFieldDefinition } from '../../shared/resources/customField.js';
import { ADDRESS_KEYS, type Address } from '../../shared/resources/address.js';
import type { FieldLabels } from '../api/formErrors.js';
import { CONTACT_FORM_LABELS } from '../contacts/ContactForm.js';
import { LEAD_FORM_LABELS } from '../leads/LeadForm.js';
import { DEAL_FORM_LABELS } from '../deals/DealForm.js';
import { ADDRESS_KEY_LABELS } from '../records/AddressFields.js';
import { capitalized, humanized } from '../shell/words.js';

/**
 * What a sync conflict's field is called and what kind of value it holds:
 * its label as the record's form shows it, how its values read,
 * and which input a third value is typed in.
 */

/** The forms' labels, by resource type. */
const LABELS: Record<string, FieldLabels> = {
  contact: CONTACT_FORM_LABELS,
  lead: LEAD_FORM_LABELS,
  deal: { ...DEAL_FORM_LABELS, hot: 'Hot deal' },
  task: { content: 'Task', due_date: 'Due', remind_at: 'Reminder', completed: 'Done', owner_id: 'Owner' },
};

/** An object field and the key inside it (`address.city`), or null for a plain field. */
function split(field: string): { object: string; key: string } | null {
  const dot = field.indexOf('.');
  return dot > 0 ? { object: field.slice(0, dot), key: field.slice(dot + 1) } : null;
}

/** A field's label as its record's form shows it: "Title", "Address: City", a custom field by its own name. */
export function fieldLabel(type: string, field: string): string {
  const labels = LABELS[type] ?? {};
  const parts = split(field);
  if (parts?.object === 'custom_fields') return parts.key;
  if (parts) {
    const key = (ADDRESS_KEY_LABELS as Record<string, string>)[parts.key] ?? humanized(parts.key);
    return `${labels[parts.object] ?? humanized(parts.object)}: ${key}`;
  }
  return (labels[field] ?? humanized(field.replace(/_id$/, ''))).replace(/ \*$/, '');
}

/** The labels of a record type's fields (for the API's messages about them, in `inWords`). */
export function fieldLabels(type: string, field: string): FieldLabels {
  const label = fieldLabel(type, field);
  const name = field.replace(/^.*\./, '');
  return { ...LABELS[type], [field]: label, [name]: label };
}

/** A field holding another record's id, and where that record is read (its name shown instead of the id). */
const REFERENCES: Record<string, string | Record<string, string>> = {
  owner_id: '/v2/users', creator_id: '/v2/users',
  contact_id: '/v2/contacts', organization_id: '/v2/contacts', parent_organization_id: '/v2/contacts',
  stage_id: '/v2/stages', pipeline_id: '/v2/pipelines', loss_reason_id: '/v2/loss_reasons',
  source_id: { lead: '/v2/lead_sources', deal: '/v2/deal_sources' },
  unqualified_reason_id: { lead: '/v2/lead_unqualified_reasons', deal: '/v2/deal_unqualified_reasons' },
};

/**
 * How a field's values read and how a third one is typed:
 * text (an input, or a text area), a number, a day, a moment (date and
 * time), one of a few choices, another record (its name), or `fixed`:
 * values only kept as they are (yes/no, lists, whole addresses), for which
 * typing a third makes no sense.
 */
export type FieldKind =
  | { kind: 'text'; input: 'text' | 'email' | 'url' | 'tel' | 'textarea' }
  | { kind: 'number' }
  | { kind: 'date' }
  | { kind: 'datetime' }
  | { kind: 'choice'; options: { value: string; label: string }[] }
  | { kind: 'reference'; collection: string }
  | { kind: 'fixed' };

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MOMENT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;
const TEXT_INPUTS: Record<string, 'email' | 'url' | 'tel' | 'textarea'> = { email: 'email', website: 'url', phone: 'tel', mobile: 'tel', fax: 'tel', description: 'textarea' };

const choices = (values: readonly string[], label: (value: string) => string = (v) => v) => values.map((value) => ({ value, label: label(value) }));

/** The kind of a conflict's field, from what it is (and, for a custom field, its definition), else from its values. */
export function fieldKind(type: string, field: string, values: unknown[], definition?: CustomFieldDefinition): FieldKind {
  const reference = REFERENCES[field];
  if (reference) {
    const collection = typeof reference === 'string' ? reference : reference[type];
    if (collection) return { kind: 'reference', collection };
  }
  if (definition) {
    if (definition.type === 'number') return { kind: 'number' };
    if (definition.type === 'list') return { kind: 'choice', options: choices((definition.choices ?? []).map((c) => c.name)) };
    if (definition.type === 'multi_select_list') return { kind: 'fixed' };
    return { kind: 'text', input: 'text' };
  }
  if (type === 'contact' && field === 'customer_status') return { kind: 'choice', options: choices(CUSTOMER_STATUSES, capitalized) };
  if (type === 'contact' && field === 'prospect_status') return { kind: 'choice', options: choices(PROSPECT_STATUSES, capitalized) };
  if (type === 'lead' && field === 'status') return { kind: 'choice', options: choices(LEAD_STATUSES.filter((s) => s !== CONVERTED_LEAD_STATUS)) };
  if (field === 'estimated_close_date') return { kind: 'date' };
  if (field === 'due_date' || field === 'remind_at') return { kind: 'datetime' };
  const known = values.filter((v) => v !== null && v !== undefined && v !== '');
  if (known.some((v) => typeof v === 'boolean' || typeof v === 'object')) return { kind: 'fixed' };
  if (known.length > 0 && known.every((v) => typeof v === 'number')) return { kind: 'number' };
  if (known.length > 0 && known.every((v) => typeof v === 'string' && DAY.test(v))) return { kind: 'date' };
  if (known.length > 0 && known.every((v) => typeof v === 'string' && MOMENT.test(v))) return { kind: 'datetime' };
  return { kind: 'text', input: TEXT_INPUTS[split(field)?.key ?? field] ?? 'text' };
}

/** True when nothing is there: null, an empty text, an empty list. */
export const isEmpty = (value: unknown) => value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

/** `2026-11-25T19:25:27Z` as a datetime-local input's value, in the reader's time zone. */
export function isoToLocalInput(iso: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return '';
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

/** What a third value's input starts with: the rep's own value, as the input writes it. */
export function inputOf(kind: FieldKind, value: unknown): string {
  if (value === null || value === undefined) return '';
  if (kind.kind === 'datetime') return typeof value === 'string' ? isoToLocalInput(value) : '';
  return typeof value === 'object' ? '' : String(value);
}

/** The value a third value's input sends: empty is null (as the forms send it), a number as a number, a moment in UTC. */
export function valueOf(kind: FieldKind, text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  if (kind.kind === 'number') return Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
  if (kind.kind === 'datetime') return new Date(trimmed).toISOString();
  return trimmed;
}

/** A whole address (an address field that conflicts as a whole) on one line. */
export function addressLine(value: Partial<Address>): string {
  return ADDRESS_KEYS.map((k) => value[k]).filter(Boolean).join(', ');
}
