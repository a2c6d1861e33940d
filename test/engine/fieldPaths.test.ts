import { describe, expect, it } from 'vitest';
import { changedPaths, deltaOf, editOf, mergeOnto, sameValue, withoutPaths } from '../../electron/engine/changes/fieldPaths.js';

/** The rules of field-by-field merging, on plain JSON: what an edit changed, and how it merges onto a newer record. */
describe('field paths', () => {
  it('compares lists as sets and objects key by key, null and missing alike', () => {
    expect(sameValue(['a', 'b'], ['b', 'a'])).toBe(true);
    expect(sameValue(['a', 'a'], ['a', 'b'])).toBe(false);
    expect(sameValue({ x: 1, y: null }, { x: 1 })).toBe(true);
    expect(sameValue(null, undefined)).toBe(true);
    expect(sameValue('1', 1)).toBe(false);
  });

  it('finds the named fields that changed, object fields by key, never timestamps', () => {
    const before = { title: 'a', email: 'e', updated_at: '1', address: { city: 'X', postal_code: '1' }, custom_fields: { Size: 'S' }, tags: ['a'] };
    const after = { title: 'a', email: 'f', updated_at: '2', address: { city: 'Y', postal_code: '1' }, custom_fields: { Size: 'L' }, tags: ['a'] };
    const data = { title: 'a', email: 'f', address: { city: 'Y', postal_code: '1' }, custom_fields: { Size: 'L' }, tags: ['a'] };
    expect(changedPaths(before, after, data)).toEqual(['email', 'address.city', 'custom_fields.Size']);
  });

  it('sends what the client gave for each changed path, with the value before as its base', () => {
    const before = { phone: '1', address: { city: 'X', postal_code: '1' } };
    // An address given whole without postal_code clears it: null is sent for it.
    expect(deltaOf(before, { phone: '2', address: { city: 'Y' } }, ['phone', 'address.city', 'address.postal_code'])).toEqual({
      data: { phone: '2', address: { city: 'Y', postal_code: null } },
      base: { phone: '1', address: { city: 'X', postal_code: '1' } },
    });
  });

  it('merges lists item by item and an address over the current one, and names the suspects', () => {
    const current = { tags: ['a', 'b', 'hub'], title: 'hub', address: { city: 'X', postal_code: '2' }, custom_fields: { Size: 'S', Tier: 'gold' } };
    const data = { tags: ['b', 'rep'], title: 'rep', address: { city: 'Y' }, custom_fields: { Tier: 'silver' } };
    const base = { tags: ['a', 'b'], title: 'old', address: { city: 'X' }, custom_fields: { Tier: 'bronze' } };
    expect(mergeOnto(current, data, base)).toEqual({
      data: { tags: ['b', 'hub', 'rep'], title: 'rep', address: { city: 'Y', postal_code: '2' }, custom_fields: { Tier: 'silver' } },
      suspects: ['title', 'custom_fields.Tier'],
    });
  });

  it('takes a field without a base as it is sent', () => {
    expect(mergeOnto({ title: 'hub' }, { title: 'rep' }, {})).toEqual({ data: { title: 'rep' }, suspects: [] });
  });

  it('leaves conflicting paths out, an address key at its current value', () => {
    const current = { title: 'hub', address: { city: 'X', postal_code: '2' }, custom_fields: { Tier: 'gold' } };
    const merged = { title: 'rep', phone: '9', address: { city: 'Y', postal_code: '3' }, custom_fields: { Tier: 'silver' } };
    expect(withoutPaths(merged, current, ['title', 'address.city', 'custom_fields.Tier'])).toEqual({ phone: '9', address: { city: 'X', postal_code: '3' } });
  });

  it('makes the edit of one path, keeping an address’s other keys', () => {
    const current = { address: { city: 'X', postal_code: '2' } };
    expect(editOf(current, 'address.city', 'Y')).toEqual({ address: { city: 'Y', postal_code: '2' } });
    expect(editOf(current, 'custom_fields.Tier', 'gold')).toEqual({ custom_fields: { Tier: 'gold' } });
    expect(editOf(current, 'title', 't')).toEqual({ title: 't' });
  });
});
