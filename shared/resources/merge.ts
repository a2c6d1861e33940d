/**
 * Merging two contacts or two leads: which values the survivor
 * keeps. One rule for the engine (POST /v2/{contacts|leads}/:id/merge) and
 * the Duplicates screen, which shows the same defaults before the rep picks.
 */
import { CONTACT_TEXT_FIELDS } from './contact.js';
import type { AddressKey } from './address.js';

export const MERGEABLE_TYPES = ['contact', 'lead'] as const;
export type MergeableType = (typeof MERGEABLE_TYPES)[number];

/** Which record a field's value is taken from: the one that stays, or the one merged into it. */
export const MERGE_SIDES = ['survivor', 'other'] as const;
export type MergeSide = (typeof MERGE_SIDES)[number];
/** Whose parts of an address the survivor keeps, part by part (`{"city": "other"}`); a part not named is merged as by default. */
export type AddressChoice = Partial<Record<AddressKey, MergeSide>>;
/** Per field, whose value the survivor keeps: a side for the whole value, or for an address a side per part. */
export type FieldChoice = MergeSide | AddressChoice;
export type FieldChoices = Record<string, FieldChoice>;

/** The address fields, whose parts may be chosen one by one. */
export const ADDRESS_FIELDS: ReadonlySet<string> = new Set(['address', 'billing_address', 'shipping_address']);

/** Nested objects merged key by key: a blank key of the survivor's takes the other's value. */
const KEYED_FIELDS = new Set([...ADDRESS_FIELDS, 'custom_fields']);

/**
 * The fields a merge decides, per type, in the order the merge view shows
 * them. `tags` is not among them: the survivor always gets both records' tags.
 */
export const MERGE_FIELDS: Record<MergeableType, readonly string[]> = {
  contact: [
    'name', 'first_name', 'last_name', 'owner_id', 'contact_id', 'parent_organization_id', 'customer_status', 'prospect_status',
    ...CONTACT_TEXT_FIELDS, 'address', 'billing_address', 'shipping_address', 'custom_fields',
  ],
  lead: [
    'first_name', 'last_name', 'organization_name', 'owner_id', 'status', 'source_id', 'unqualified_reason_id',
    ...CONTACT_TEXT_FIELDS, 'address', 'custom_fields',
  ],
};

type Json = Record<string, unknown>;

export function isBlankValue(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (typeof value === 'object' && !Array.isArray(value)) return Object.values(value as Json).every(isBlankValue);
  return false;
}

/**
 * One field's merged value: the chosen side's, or by default the survivor's
 * with its blanks (key by key for addresses and custom fields) filled from
 * the other; an address chosen part by part takes each named part from its
 * side and merges the others as by default.
 */
export function mergedValue(field: string, survivor: unknown, other: unknown, choice: FieldChoice | undefined): unknown {
  if (choice === 'other') return other ?? null;
  if (choice === 'survivor') return survivor ?? null;
  if (isObject(choice)) return mergedParts(isObject(survivor) ? survivor : {}, isObject(other) ? other : {}, choice);
  if (!KEYED_FIELDS.has(field) || !isObject(survivor) || !isObject(other)) return isBlankValue(survivor) ? (other ?? null) : survivor;
  return mergedParts(survivor, other, {});
}

/** An object merged key by key: a key's chosen side, else the survivor's value, its blank filled from the other. */
function mergedParts(survivor: Json, other: Json, sides: Record<string, MergeSide | undefined>): Json {
  const keys = new Set([...Object.keys(survivor), ...Object.keys(other), ...Object.keys(sides)]);
  return Object.fromEntries([...keys].map((key) => {
    const side = sides[key];
    if (side === 'other') return [key, other[key] ?? null];
    if (side === 'survivor') return [key, survivor[key] ?? null];
    return [key, isBlankValue(survivor[key]) ? (other[key] ?? null) : survivor[key]];
  }));
}

/** Both records' tags, the survivor's first, each name once. */
export function joinedTags(survivor: unknown, other: unknown): string[] {
  const names = [...(Array.isArray(survivor) ? survivor : []), ...(Array.isArray(other) ? other : [])] as string[];
  return [...new Set(names)];
}

/**
 * The survivor's record after the merge, as the fields of an update: every
 * mergeable field (its merged value) and the joined tags.
 */
export function mergedRecord(type: MergeableType, survivor: Json, other: Json, choices: FieldChoices = {}): Json {
  const data: Json = {};
  for (const field of MERGE_FIELDS[type]) {
    if (!(field in survivor) && !(field in other)) continue;
    data[field] = mergedValue(field, survivor[field], other[field], choices[field]);
  }
  data.tags = joinedTags(survivor.tags, other.tags);
  return data;
}

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Why records are listed together as likely duplicates (GET /v2/{contacts|leads}/duplicates). */
export const DUPLICATE_REASONS = ['email', 'phone', 'name'] as const;
export type DuplicateReason = (typeof DUPLICATE_REASONS)[number];

/** One group of likely duplicates: why, the value they share (normalized), and the records' ids. */
export interface DuplicateGroup {
  reason: DuplicateReason;
  key: string;
  ids: number[];
}
