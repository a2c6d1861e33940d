import { describe, expect, it } from 'vitest';
import { joinedTags, mergedRecord, mergedValue } from './merge.js';

describe('the merge rule (engine and merge view alike)', () => {
  it('keeps the survivor’s value and fills its blanks from the other', () => {
    expect(mergedValue('email', 'a@x.test', 'b@x.test', undefined)).toBe('a@x.test');
    expect(mergedValue('email', null, 'b@x.test', undefined)).toBe('b@x.test');
    expect(mergedValue('email', '  ', 'b@x.test', undefined)).toBe('b@x.test');
    expect(mergedValue('email', null, null, undefined)).toBeNull();
  });

  it('fills an address and custom fields key by key, unless a side is chosen for the whole', () => {
    const survivor = { line1: null, city: 'Oslo', country: '' };
    const other = { line1: 'Bryggen 1', city: 'Bergen', country: 'NO' };
    expect(mergedValue('address', survivor, other, undefined)).toEqual({ line1: 'Bryggen 1', city: 'Oslo', country: 'NO' });
    expect(mergedValue('address', survivor, other, 'survivor')).toEqual(survivor);
    expect(mergedValue('address', survivor, other, 'other')).toEqual(other);
    expect(mergedValue('custom_fields', { Size: 'S' }, { Size: 'L', Region: 'North' }, undefined)).toEqual({ Size: 'S', Region: 'North' });
  });

  it('takes a chosen side even where it is blank', () => {
    expect(mergedValue('title', 'CEO', 'Chief', 'other')).toBe('Chief');
    expect(mergedValue('title', 'CEO', null, 'other')).toBeNull();
  });

  it('joins tags once each, the survivor’s first', () => {
    expect(joinedTags(['vip', 'fair'], ['fair', 'partner'])).toEqual(['vip', 'fair', 'partner']);
    expect(joinedTags(undefined, ['x'])).toEqual(['x']);
  });

  it('builds the survivor’s update from the fields a merge decides, ignoring the rest', () => {
    const data = mergedRecord('lead', { id: 1, first_name: 'Ola', email: null, tags: ['hot'], created_at: 'x' }, { id: 2, first_name: 'Ole', email: 'o@x.test', tags: [] }, { first_name: 'other' });
    expect(data).toEqual({ first_name: 'Ole', email: 'o@x.test', tags: ['hot'] });
  });
});
