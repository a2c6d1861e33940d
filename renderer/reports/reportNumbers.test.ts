import { describe, expect, it } from 'vitest';
import { presetRange, periodLabel } from './reportPeriod.js';
import { currenciesOf, rateOf, sumValues } from './reportMoney.js';

// The screen's own arithmetic: the dates each period preset asks for, and the
// totals rows it adds up from the hub's rows (exact decimals, rates as the hub writes them).

describe('period presets', () => {
  const today = new Date(2026, 2, 15); // 15 March 2026, local time

  it('asks for whole months counting this one, up to today', () => {
    expect(presetRange('this_month', today)).toEqual({ from: '2026-03-01', to: '2026-03-15' });
    expect(presetRange('last_3_months', today)).toEqual({ from: '2026-01-01', to: '2026-03-15' });
    expect(presetRange('last_12_months', today)).toEqual({ from: '2025-04-01', to: '2026-03-15' });
    expect(presetRange('this_year', today)).toEqual({ from: '2026-01-01', to: '2026-03-15' });
  });

  it('crosses the year end backwards', () => {
    expect(presetRange('last_3_months', new Date(2026, 0, 31))).toEqual({ from: '2025-11-01', to: '2026-01-31' });
  });

  it('names a month by its month and year', () => {
    expect(periodLabel('2026-03-01', 'month')).toContain('2026');
  });
});

describe('totals', () => {
  it('sums values exactly per currency, never across currencies', () => {
    expect(sumValues([{ USD: '0.10', EUR: '5.00' }, { USD: '0.20' }, {}])).toEqual({ EUR: '5', USD: '0.3' });
  });

  it('lists the account currency first, then the others alphabetically', () => {
    expect(currenciesOf([{ USD: '1', CAD: '2' }, { EUR: '3' }], 'USD')).toEqual(['USD', 'CAD', 'EUR']);
    expect(currenciesOf([{ EUR: '3' }], 'USD')).toEqual(['EUR']);
  });

  it('writes a rate with two decimals, or none when nothing to divide', () => {
    expect(rateOf(2, 3)).toBe('0.67');
    expect(rateOf(0, 0)).toBeNull();
  });
});
