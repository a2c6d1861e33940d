import { describe, expect, it } from 'vitest';
import { closeNameGroups, editDistance, namesAreClose, normalizeName } from './nameCloseness.js';

describe('name closeness (likely duplicates)', () => {
  it('normalizes case, accents, apostrophes, punctuation and spaces', () => {
    expect(normalizeName('  José  O’Neil ')).toBe('jose oneil');
    expect(normalizeName("Mary-Jane  D'Arcy, Jr.")).toBe('mary jane darcy jr');
    expect(normalizeName('Zoë Ångström')).toBe('zoe angstrom');
    expect(normalizeName('...')).toBe('');
  });

  it('counts edits, a swap of neighbours as one', () => {
    expect(editDistance('jon smith', 'john smith')).toBe(1);
    expect(editDistance('smith', 'smiht')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('kitten', 'sitting', 1)).toBe(2);
    expect(editDistance('', 'abc')).toBe(3);
  });

  it('finds spelling variants, accents, punctuation and word order', () => {
    expect(namesAreClose('Jon Smith', 'John Smith')).toBe(true);
    expect(namesAreClose('Katharine Lee', 'Katherine Lee')).toBe(true);
    expect(namesAreClose('José O\'Neil', 'Jose ONeil')).toBe(true);
    expect(namesAreClose('Smith John', 'john smith')).toBe(true);
    expect(namesAreClose('Anna Smyth', 'Anna Smith')).toBe(true);
    expect(namesAreClose('Christopher Jones', 'Christofer Jones')).toBe(true); // 2 edits, 16 characters
    expect(namesAreClose('Li Wu', 'Wu Li')).toBe(true); // reordered, however short
  });

  it('keeps apart short names, other initials and names too many edits apart', () => {
    expect(namesAreClose('Eva', 'Eve')).toBe(false); // under 5 characters: only equal
    expect(namesAreClose('Al Li', 'Al Lu')).toBe(true); // 5 characters (the space counts): one edit
    expect(namesAreClose('Ann Lee', 'Dan Lee')).toBe(false); // other first letter
    expect(namesAreClose('Mark Smith', 'Mark Keith')).toBe(false); // other last initial
    expect(namesAreClose('Jon Smith', 'Joan Smyth')).toBe(false); // 2 edits in 9 characters
    expect(namesAreClose('Christopher Jones', 'Christina Jones')).toBe(false); // 3 edits
    expect(namesAreClose('', '')).toBe(false);
    expect(namesAreClose('Ann Lee', 'Ann Lee Smith')).toBe(false);
  });

  it('accepts a likely pair that may be two people (the documented trade-off)', () => {
    expect(namesAreClose('Mark Smith', 'Mary Smith')).toBe(true);
  });

  it('groups chains into one group keyed by the lowest id’s name, and leaves the rest out', () => {
    const groups = closeNameGroups([
      { id: 9, name: 'Johns Smith' },
      { id: 4, name: 'John Smith' },
      { id: 7, name: 'Jon Smith' },
      { id: 2, name: 'Dan Lee' },
      { id: 3, name: 'Ann Lee' },
      { id: 5, name: 'Lee, Dan' },
      { id: 6, name: '  ' },
      { id: 8, name: '' },
    ]);
    expect(groups).toEqual([
      { key: 'dan lee', ids: [2, 5] },
      { key: 'john smith', ids: [4, 7, 9] },
    ]);
  });
});
