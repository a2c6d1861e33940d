import { describe, expect, it } from 'vitest';
import { changedFields, sameValue } from './changedFields.js';

const ADDRESS = { line1: '1 Main St', city: 'Denver', postal_code: '80202', state: 'CO', country: 'US' };

describe('changedFields', () => {
  it('sends nothing when nothing changed', () => {
    const payload = { name: 'Ann', email: null, tags: ['a'], address: ADDRESS, custom_fields: { Size: 'M' } };
    expect(changedFields(payload, structuredClone(payload))).toEqual({});
  });

  it('sends only the plain fields that differ, including one cleared to null', () => {
    const before = { first_name: 'Ann', phone: '555 0100', email: 'ann@example.com', hot: false, value: '10' };
    const after = { first_name: 'Ann', phone: '555 0199', email: null, hot: false, value: '10' };
    expect(changedFields(before, after)).toEqual({ phone: '555 0199', email: null });
  });

  it('sends a field the loaded payload did not have, but not one the form no longer sends', () => {
    expect(changedFields({ name: 'Ann', owner_id: 3 }, { name: 'Ann', stage_id: 7 })).toEqual({ stage_id: 7 });
  });

  it('never sends an undefined value', () => {
    expect(changedFields({ name: 'Ann' }, { name: 'Ann', title: undefined })).toEqual({});
  });

  it('tells false, 0, empty text and null apart', () => {
    expect(changedFields({ a: false, b: 0, c: '' }, { a: null, b: null, c: null })).toEqual({ a: null, b: null, c: null });
  });

  describe('custom_fields', () => {
    it('sends only the changed keys, since the hub merges them', () => {
      const before = { custom_fields: { Size: 'M', Region: 'West', Seats: 4 } };
      const after = { custom_fields: { Size: 'L', Region: 'West', Seats: 4 } };
      expect(changedFields(before, after)).toEqual({ custom_fields: { Size: 'L' } });
    });

    it('sends a removed or cleared key as null', () => {
      const before = { custom_fields: { Size: 'M', Region: 'West', Seats: 4 } };
      const after = { custom_fields: { Region: null, Seats: 4 } };
      expect(changedFields(before, after)).toEqual({ custom_fields: { Size: null, Region: null } });
    });

    it('sends a newly set key, but not one that still has no value', () => {
      const before = { custom_fields: {} };
      const after = { custom_fields: { Size: 'S', Region: null } };
      expect(changedFields(before, after)).toEqual({ custom_fields: { Size: 'S' } });
    });

    it('compares multi-select values as sets', () => {
      const before = { custom_fields: { Colors: ['red', 'blue'], Sizes: ['S'] } };
      const after = { custom_fields: { Colors: ['blue', 'red'], Sizes: ['S', 'M'] } };
      expect(changedFields(before, after)).toEqual({ custom_fields: { Sizes: ['S', 'M'] } });
    });

    it('takes a record without custom fields as one with none set', () => {
      expect(changedFields({}, { custom_fields: { Size: 'S' } })).toEqual({ custom_fields: { Size: 'S' } });
    });
  });

  describe('addresses', () => {
    it('sends the whole new address when one key changed, since the hub replaces it', () => {
      const after = { address: { ...ADDRESS, city: 'Boulder' }, billing_address: ADDRESS };
      expect(changedFields({ address: ADDRESS, billing_address: ADDRESS }, after)).toEqual({ address: { ...ADDRESS, city: 'Boulder' } });
    });

    it('ignores the order of the keys', () => {
      const reordered = { country: 'US', state: 'CO', postal_code: '80202', city: 'Denver', line1: '1 Main St' };
      expect(changedFields({ shipping_address: ADDRESS }, { shipping_address: reordered })).toEqual({});
    });

    it('sends an address cleared to null, and one set where there was none', () => {
      expect(changedFields({ billing_address: ADDRESS, shipping_address: null }, { billing_address: null, shipping_address: ADDRESS }))
        .toEqual({ billing_address: null, shipping_address: ADDRESS });
    });
  });

  describe('arrays', () => {
    it('sends the whole list when its set of values changed', () => {
      expect(changedFields({ tags: ['vip', 'east'] }, { tags: ['vip'] })).toEqual({ tags: ['vip'] });
      expect(changedFields({ tags: ['vip'] }, { tags: ['vip', 'west'] })).toEqual({ tags: ['vip', 'west'] });
      expect(changedFields({ user_ids: [1, 2] }, { user_ids: [1, 3] })).toEqual({ user_ids: [1, 3] });
    });

    it('does not send a list of values only reordered', () => {
      expect(changedFields({ tags: ['vip', 'east'], user_ids: [1, 2] }, { tags: ['east', 'vip'], user_ids: [2, 1] })).toEqual({});
    });

    it('sends a list of objects whose order changed, since order means something there (steps)', () => {
      const steps = [{ delay: 0, template_id: 1 }, { delay: 2, template_id: 2 }];
      expect(changedFields({ steps }, { steps: [steps[1], steps[0]] })).toEqual({ steps: [steps[1], steps[0]] });
    });

    it('sends the whole list of objects when one item changed', () => {
      const prices = [{ amount: '10.00', currency: 'USD' }, { amount: '9.00', currency: 'EUR' }];
      const after = [prices[0], { amount: '9.50', currency: 'EUR' }];
      expect(changedFields({ prices }, { prices: after })).toEqual({ prices: after });
    });
  });
});

describe('sameValue', () => {
  it('takes a key set to undefined as missing, but not a null one', () => {
    expect(sameValue({ a: 1, b: undefined }, { a: 1 })).toBe(true);
    expect(sameValue({ a: 1, b: null }, { a: 1 })).toBe(false);
  });

  it('tells an array from an object with the same entries', () => {
    expect(sameValue(['x'], { 0: 'x' })).toBe(false);
  });
});
