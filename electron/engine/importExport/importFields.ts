import { ADDRESS_KEYS } from '../../../shared/resources/address.js';
import { CONTACT_TEXT_FIELDS } from '../../../shared/resources/contact.js';
import type { CustomFieldType } from '../../../shared/resources/customField.js';

/** The resources a file can be imported into. */
export const IMPORT_TYPES = ['contact', 'lead'] as const;
export type ImportType = (typeof IMPORT_TYPES)[number];

/**
 * What a column of a file can fill. `kind` says how a cell becomes the
 * value the create endpoint takes; the endpoint itself checks it.
 */
export interface ImportField {
  name: string;
  label: string;
  /** Needed on every row whatever else it holds (no field of contacts or leads is: see `requirement`). */
  required: boolean;
  /** When a field is needed only on some rows, in words. */
  requirement?: string;
  kind: 'text' | 'lowercase' | 'boolean' | 'tags' | 'fullName' | 'organization' | 'custom';
  /** Header spellings that suggest this field besides its name and label (compared normalized). */
  synonyms?: readonly string[];
  /** Custom fields: their type (a multi-select takes a `;`-separated list). */
  customType?: CustomFieldType;
}

/** A custom field definition as the field list needs it. */
export interface CustomFieldInfo {
  name: string;
  type: CustomFieldType;
}

const TEXT_LABELS: Record<(typeof CONTACT_TEXT_FIELDS)[number], [string, string[]]> = {
  title: ['Title', ['job title', 'position', 'role']],
  description: ['Description', ['notes', 'note', 'comments', 'about']],
  industry: ['Industry', ['sector']],
  website: ['Website', ['web site', 'url', 'web', 'homepage', 'web page']],
  email: ['Email', ['e-mail', 'email address', 'e-mail address', 'mail', 'work email', 'primary email']],
  phone: ['Phone', ['telephone', 'phone number', 'work phone', 'business phone', 'office phone', 'tel']],
  mobile: ['Mobile', ['mobile phone', 'cell', 'cell phone', 'cellphone', 'mobile number']],
  fax: ['Fax', ['fax number', 'business fax']],
  twitter: ['Twitter', ['twitter handle']],
  facebook: ['Facebook', []],
  linkedin: ['LinkedIn', ['linkedin url', 'linkedin profile']],
  skype: ['Skype', ['skype id', 'skype name']],
};

const ADDRESS_LABELS: Record<(typeof ADDRESS_KEYS)[number], [string, string[]]> = {
  line1: ['Street', ['address', 'street address', 'address line 1', 'address 1', 'street 1']],
  city: ['City', ['town', 'locality']],
  postal_code: ['Postal code', ['zip', 'zip code', 'zipcode', 'postcode', 'post code']],
  state: ['State', ['province', 'region', 'state/province']],
  country: ['Country', ['country/region']],
};

const NAME_FIELDS = {
  first: { name: 'first_name', label: 'First name', required: false, kind: 'text', synonyms: ['first', 'given name', 'forename'] },
  last: { name: 'last_name', label: 'Last name', required: false, kind: 'text', synonyms: ['last', 'surname', 'family name'] },
  full: {
    name: 'full_name', label: 'Full name', required: false, kind: 'fullName', synonyms: ['name', 'contact name', 'contact', 'display name', 'person'],
    requirement: 'Split into first and last name (at the last space, or "Last, First") on rows that give neither.',
  },
} satisfies Record<string, ImportField>;

const ORGANIZATION_SYNONYMS = ['organization', 'organisation', 'company', 'company name', 'organization name', 'organisation name', 'account', 'account name', 'employer', 'business'];

function textFields(): ImportField[] {
  return CONTACT_TEXT_FIELDS.map((name) => ({ name, label: TEXT_LABELS[name][0], required: false, kind: 'text', synonyms: TEXT_LABELS[name][1] }));
}

/** `address.city` and so on; the main address also answers to the plain labels (`City`). */
function addressFields(field: string, prefix: string): ImportField[] {
  return ADDRESS_KEYS.map((key) => ({
    name: `${field}.${key}`,
    label: prefix ? `${prefix} ${ADDRESS_LABELS[key][0].toLowerCase()}` : ADDRESS_LABELS[key][0],
    required: false,
    kind: 'text',
    synonyms: prefix ? [] : ADDRESS_LABELS[key][1],
  }));
}

function customFieldList(custom: readonly CustomFieldInfo[]): ImportField[] {
  return custom.map((def) => ({
    name: `custom_fields.${def.name}`, label: def.name, required: false, kind: 'custom', customType: def.type,
    ...(def.type === 'multi_select_list' ? { requirement: 'Several choices separated by ";".' } : {}),
  }));
}

const TAGS: ImportField = { name: 'tags', label: 'Tags', required: false, kind: 'tags', synonyms: ['labels', 'categories', 'tag'], requirement: 'Several tags separated by ";".' };
const OWNER: ImportField = { name: 'owner_id', label: 'Owner id', required: false, kind: 'text', requirement: 'The id of an active user; the importing user when not given.' };

/** The columns of a contacts file can map to, in the order a person reads them. */
function contactFields(custom: readonly CustomFieldInfo[]): ImportField[] {
  return [
    { ...NAME_FIELDS.first },
    { ...NAME_FIELDS.last, requirement: 'Needed for a person (or a full name to split).' },
    NAME_FIELDS.full,
    {
      name: 'organization_name', label: 'Organization', required: false, kind: 'organization', synonyms: ORGANIZATION_SYNONYMS,
      requirement: 'On a row without a person\'s name: the organization the row is. On a person\'s row: the organization they belong to, linked by name (created if none has that name).',
    },
    { name: 'is_organization', label: 'Is organization', required: false, kind: 'boolean', requirement: 'true/false, yes/no or 1/0; without it a row is an organization when it has an organization but no person\'s name.' },
    ...textFields(),
    { name: 'customer_status', label: 'Customer status', required: false, kind: 'lowercase', requirement: 'none, current or past.' },
    { name: 'prospect_status', label: 'Prospect status', required: false, kind: 'lowercase', requirement: 'none, current or lost.' },
    ...addressFields('address', ''),
    ...addressFields('billing_address', 'Billing'),
    ...addressFields('shipping_address', 'Shipping'),
    TAGS,
    OWNER,
    ...customFieldList(custom),
  ];
}

function leadFields(custom: readonly CustomFieldInfo[]): ImportField[] {
  return [
    { ...NAME_FIELDS.first },
    { ...NAME_FIELDS.last, requirement: 'A lead needs a last name (or a full name to split) or an organization name.' },
    NAME_FIELDS.full,
    { name: 'organization_name', label: 'Organization name', required: false, kind: 'text', synonyms: ORGANIZATION_SYNONYMS },
    { name: 'status', label: 'Status', required: false, kind: 'text', synonyms: ['lead status'], requirement: 'Free text; New when not given.' },
    ...textFields(),
    ...addressFields('address', ''),
    TAGS,
    OWNER,
    ...customFieldList(custom),
  ];
}

export function importFields(type: ImportType, custom: readonly CustomFieldInfo[]): ImportField[] {
  return type === 'contact' ? contactFields(custom) : leadFields(custom);
}

/** Lower case, accents and everything but letters and digits removed: `E-mail` and `email` compare equal. */
export function normalizeHeader(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * Suggests a field for each header: a header whose normalized text equals a
 * field's name or label maps to it first; then synonyms. Each field gets at
 * most one header (the first in the file), so a suggestion is always a
 * valid mapping.
 */
export function suggestMapping(headers: readonly string[], fields: readonly ImportField[]): Record<string, string | null> {
  const exact = new Map<string, string>();
  const loose = new Map<string, string>();
  for (const field of fields) {
    for (const text of [field.name, field.label]) if (!exact.has(normalizeHeader(text))) exact.set(normalizeHeader(text), field.name);
    for (const text of field.synonyms ?? []) if (!loose.has(normalizeHeader(text))) loose.set(normalizeHeader(text), field.name);
  }
  const taken = new Set<string>();
  const mapping: Record<string, string | null> = Object.fromEntries(headers.map((h) => [h, null]));
  for (const table of [exact, loose]) {
    for (const header of headers) {
      const field = table.get(normalizeHeader(header));
      if (mapping[header] !== null || field === undefined || taken.has(field)) continue;
      mapping[header] = field;
      taken.add(field);
    }
  }
  return mapping;
}
