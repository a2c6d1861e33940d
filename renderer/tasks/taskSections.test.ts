import { describe, expect, it } from 'vitest';
import { showMoreLabel } from './taskSections.js';

describe('showMoreLabel', () => {
  it('offers a page, or only what remains when less than a page does', () => {
    expect(showMoreLabel(150, 20, 20)).toBe('Show 20 more of 130');
    expect(showMoreLabel(23, 20, 20)).toBe('Show 3 more of 3');
  });

  it('offers nothing once the count says none remain, even below what is loaded (tasks done meanwhile)', () => {
    expect(showMoreLabel(20, 20, 20)).toBeNull();
    expect(showMoreLabel(18, 20, 20)).toBeNull();
  });

  it('offers a page while the count is not known yet', () => {
    expect(showMoreLabel(null, 20, 20)).toBe('Show 20 more');
  });
});
