import { describe, expect, it } from 'vitest';
import { localizePath, matchRecordPath } from './recordPaths.js';

describe('record paths', () => {
  it('writes a temporary id the local way, keeping the rest of the address', () => {
    expect(localizePath('/contacts/-3')).toBe('/contacts/local/3');
    expect(localizePath('/deals/-12/edit?from=board')).toBe('/deals/local/12/edit?from=board');
    expect(localizePath('/contacts/12')).toBe('/contacts/12');
    expect(localizePath('/settings/-3')).toBe('/settings/-3');
  });

  it('reads hub ids, local ids and old temporary addresses; nothing else is a record', () => {
    expect(matchRecordPath('/contacts', '/contacts/12')).toEqual({ id: 12, edit: false });
    expect(matchRecordPath('/contacts', '/contacts/local/3/edit')).toEqual({ id: -3, edit: true });
    expect(matchRecordPath('/contacts', '/contacts/-3')).toEqual({ id: -3, edit: false });
    for (const path of ['/contacts/abc', '/contacts/0', '/contacts/12/notes', '/contacts', '/contactsx/1', '/contacts/local/-3']) {
      expect(matchRecordPath('/contacts', path)).toBeNull();
    }
  });
});
