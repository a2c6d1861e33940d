import { ADDRESS_KEYS } from '../../shared/resources/address.js';
import { ADDRESS_FIELDS, MERGE_FIELDS, isBlankValue, type AddressChoice, type FieldChoices, type MergeableType } from '../../shared/resources/merge.js';
import { phoneKey } from '../records/phoneFormat.js';
import type { CountryCode } from 'libphonenumber-js';

type Json = Record<string, unknown>;

/**
 * One choice of the merge view: a field (`email`) or a part of an address
 * (`address.city`, chosen on its own: the street of one record and the
 * postal code of the other may both be right).
 */
export interface MergeRow {
  /** `email`, `address.city`: the key of the rep's pick. */
  key: string;
  field: string;
  /** The address part, for an address row. */
  part: string | null;
}

export const PHONE_FIELDS: ReadonlySet<string> = new Set(['phone', 'mobile', 'fax']);

/** A row's value on a record: the field's, or the address part's. */
export function rowValue(row: MergeRow, record: Json): unknown {
  if (row.part === null) return record[row.field];
  const address = record[row.field];
  return typeof address === 'object' && address !== null ? (address as Json)[row.part] : null;
}

/**
 * Whether two values of a row are the same: both blank, two spellings of
 * one phone number (`(475) 462-0767` and `+1 475 462 0767`), or equal
 * (objects compared by their parts).
 */
export function sameValue(row: MergeRow, a: unknown, b: unknown, country?: CountryCode | null): boolean {
  if (isBlankValue(a) && isBlankValue(b)) return true;
  if (PHONE_FIELDS.has(row.field) && typeof a === 'string' && typeof b === 'string') {
    const key = phoneKey(a, country);
    return key !== null && key === phoneKey(b, country);
  }
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * The merge view's rows for two records: every field a merge decides that
 * either record has, an address as one row per part; those that differ are
 * chosen, those the same on both are only listed. An individual's `name` is
 * made of the first and last names, so it is never a row of its own.
 */
export function mergeRows(type: MergeableType, survivor: Json, other: Json, country?: CountryCode | null): { differing: MergeRow[]; alike: MergeRow[] } {
  const rows = MERGE_FIELDS[type]
    .filter((field) => !(field === 'name' && survivor.is_organization === false))
    .flatMap((field): MergeRow[] => (ADDRESS_FIELDS.has(field) ? ADDRESS_KEYS.map((part) => ({ key: `${field}.${part}`, field, part })) : [{ key: field, field, part: null }]))
    .filter((row) => !isBlankValue(rowValue(row, survivor)) || !isBlankValue(rowValue(row, other)));
  const alike = (row: MergeRow) => sameValue(row, rowValue(row, survivor), rowValue(row, other), country);
  return { differing: rows.filter((row) => !alike(row)), alike: rows.filter(alike) };
}

/** The rep's picks (the record each row's value is taken from, by row key) as the merge's `fields`: a side per field, an address's per part. */
export function choicesOf(picks: Record<string, number>, survivorId: number): FieldChoices {
  const choices: FieldChoices = {};
  for (const [key, id] of Object.entries(picks)) {
    const side = id === survivorId ? 'survivor' : 'other';
    const [field, part] = key.split('.');
    if (part === undefined) choices[field] = side;
    else choices[field] = { ...(choices[field] as AddressChoice | undefined), [part]: side };
  }
  return choices;
}
