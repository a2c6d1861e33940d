import { describe, expect, it } from 'vitest';
import { lineTotal } from './orderTotals.js';

describe('a line item’s total', () => {
  it('multiplies a unit value by the quantity exactly', () => {
    expect(lineTotal('3671.99', 3)).toBe('11015.97');
    expect(lineTotal('0.1', 3)).toBe('0.3');
    expect(lineTotal('19.99', '0')).toBe('0');
  });

  it('handles amounts beyond a float’s exact range', () => {
    expect(lineTotal('999999999999999.99', 3)).toBe('2999999999999999.97');
  });
});
