import type { AddressKey } from '../../../shared/resources/address.js';

/** Words written their own way rather than in sentence case. */
const WORDS: Record<string, string> = { id: 'ID', sku: 'SKU', url: 'URL', linkedin: 'LinkedIn', csv: 'CSV' };
/** An address's parts as the import names them, so an export with labels imports back with its columns recognised. */
const ADDRESS_PARTS: Record<AddressKey, string> = { line1: 'Street', city: 'City', postal_code: 'Postal code', state: 'State', country: 'Country' };

/** `owner_id` → "Owner ID", `is_organization` → "Is organization": an API name in sentence case. */
function words(name: string): string {
  const text = name.split('_').filter(Boolean).map((word) => WORDS[word] ?? word).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * A CSV export's column as people call it (`?headers=labels`): custom fields
 * by their own names, addresses as the import labels them ("City", "Billing
 * city"), anything else the field's name in words ("Last name", "Stage ID").
 */
export function columnLabel(path: readonly string[]): string {
  const [field, part, ...rest] = path;
  if (field === 'custom_fields' && part !== undefined && rest.length === 0) return part;
  if (/(^|_)address$/.test(field) && part !== undefined && part in ADDRESS_PARTS && rest.length === 0) {
    const label = ADDRESS_PARTS[part as AddressKey];
    return field === 'address' ? label : `${words(field.replace(/_?address$/, ''))} ${label.toLowerCase()}`;
  }
  return words(path.join('_'));
}
