import { describe, expect, it } from 'vitest';
import { filtersOf, pageQuery, smartListIdIn, viewKey } from './smartListQuery.js';
import type { SmartList } from '../../shared/resources/smartList.js';

const list: SmartList = {
  id: 7, name: 'West', resource_type: 'contact', filters: { customer_status: 'current' }, sort_by: 'name:asc', columns: [],
  shared: false, owner_id: 1, created_at: '', updated_at: '',
};

describe('smart list queries', () => {
  it('keep the filters set, as query text, without paging and sort', () => {
    expect(filtersOf({ page: 2, per_page: 100, q: '', tag: undefined, is_organization: false, owner_id: 3, sort_by: 'name:asc', ids: [1, 2] }))
      .toEqual({ is_organization: 'false', owner_id: '3', ids: '1,2' });
  });

  it('compare views whatever the order of their keys', () => {
    expect(viewKey({ a: '1', b: 2, sort_by: 'x' })).toBe(viewKey({ b: '2', a: 1, sort_by: 'x', page: 3 }));
    expect(viewKey({ a: '1', sort_by: 'x' })).not.toBe(viewKey({ a: '1', sort_by: 'y' }));
  });

  it('send the smart list itself while the view is as saved, the screen\'s query once changed', () => {
    const query = { page: 2, per_page: 100, customer_status: 'current', sort_by: 'name:asc' };
    const baseline = viewKey(query);
    expect(pageQuery(query, { list, baseline }, 'contact')).toEqual({ page: 2, per_page: 100, count: undefined, sort_by: 'name:asc', smart_list_id: 7 });
    const changed = { ...query, tag: 'vip' };
    expect(pageQuery(changed, { list, baseline }, 'contact')).toBe(changed);
    expect(pageQuery(query, { list, baseline }, 'lead')).toBe(query);
    expect(pageQuery(query, { list, baseline: null }, 'contact')).toBe(query);
  });

  it('read the id from the address', () => {
    expect(smartListIdIn('?smart_list_id=12')).toBe(12);
    expect(smartListIdIn('?smart_list_id=-3&x=1')).toBe(-3);
    expect(smartListIdIn('?smart_list_id=abc')).toBeNull();
    expect(smartListIdIn('')).toBeNull();
  });
});
