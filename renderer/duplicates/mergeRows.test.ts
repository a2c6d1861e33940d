import { describe, expect, it } from 'vitest';
import { choicesOf, mergeRows, sameValue } from './mergeRows.js';

const person = (fields: Record<string, unknown>) => ({ id: 1, is_organization: false, first_name: 'Ann', last_name: 'Lee', ...fields });
const keys = (rows: { key: string }[]) => rows.map((row) => row.key);

describe('sameValue', () => {
  const phone = { key: 'phone', field: 'phone', part: null };
  it('takes two spellings of one phone number as the same, and different numbers as different', () => {
    expect(sameValue(phone, '(312) 847-2066', '+1 312 847 2066', 'US')).toBe(true);
    expect(sameValue(phone, '07700 900123', '+44 7700 900123', 'GB')).toBe(true);
    expect(sameValue(phone, '(312) 847-2066', '(312) 847-2067', 'US')).toBe(false);
    expect(sameValue(phone, 'reception', 'front desk', 'US')).toBe(false);
  });

  it('compares other fields as they are, blanks alike', () => {
    const email = { key: 'email', field: 'email', part: null };
    expect(sameValue(email, 'a@b.com', 'a@b.com')).toBe(true);
    expect(sameValue(email, null, '  ')).toBe(true);
    expect(sameValue(email, 'a@b.com', 'A@b.com')).toBe(false);
  });
});

describe('mergeRows', () => {
  it('lists a phone spelled two ways among the fields alike, not as a choice', () => {
    const { differing, alike } = mergeRows('contact', person({ phone: '(312) 847-2066', email: 'ann@a.com' }), person({ id: 2, phone: '+1 312-847-2066', email: 'ann@b.com' }), 'US');
    expect(keys(differing)).toEqual(['email']);
    expect(keys(alike)).toEqual(['first_name', 'last_name', 'phone']);
  });

  it('makes each part of an address its own row, the alike parts listed, the blank ones left out', () => {
    const survivor = person({ address: { line1: 'Storgata 1', city: 'Oslo', postal_code: null, state: null, country: 'Norway' } });
    const other = person({ id: 2, address: { line1: 'Bryggen 2', city: 'Oslo', postal_code: '5003', state: null, country: 'Norway' } });
    const { differing, alike } = mergeRows('contact', survivor, other, 'US');
    expect(keys(differing)).toEqual(['address.line1', 'address.postal_code']);
    expect(keys(alike)).toEqual(['first_name', 'last_name', 'address.city', 'address.country']);
  });
});

describe('choicesOf', () => {
  it('turns the picks into the merge’s fields: a side per field, an address’s per part', () => {
    expect(choicesOf({ email: 2, 'address.city': 2, 'address.line1': 1, title: 1 }, 1)).toEqual({
      email: 'other', address: { city: 'other', line1: 'survivor' }, title: 'survivor',
    });
  });
});
