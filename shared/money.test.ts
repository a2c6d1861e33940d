import { describe, expect, it } from 'vitest';
import { convertTotal, convertValues, formatMoney, isMixed, normalizeRate, sumByCurrency, sumDecimals } from './money.js';
import { CURRENCIES, currencyOf, isCurrency, minorUnitsOf } from './currencies.js';

const rates = new Map([['EUR', '1.087'], ['GBP', '1.2675'], ['JPY', '0.0067'], ['KWD', '3.25']]);

describe('sums', () => {
  it('adds decimal strings exactly, not as floats', () => {
    expect(sumDecimals(['0.1', '0.2'])).toBe('0.3');
    expect(sumDecimals(['999999999999999.99', '0.01'])).toBe('1000000000000000');
    expect(sumDecimals([])).toBe('0');
  });

  it('groups by currency in the order they first appear', () => {
    expect(sumByCurrency([{ currency: 'EUR', amount: '1.5' }, { currency: 'USD', amount: '2' }, { currency: 'EUR', amount: '0.5' }]))
      .toEqual([{ currency: 'EUR', amount: '2' }, { currency: 'USD', amount: '2' }]);
  });
});

describe('converting totals into the account currency', () => {
  it('multiplies each currency\'s sum by its rate, adds exactly and rounds once to the minor units', () => {
    const total = convertTotal([
      { currency: 'USD', amount: '100' },
      { currency: 'EUR', amount: '1000.25' }, // 1087.27175
      { currency: 'GBP', amount: '10.01' }, // 12.687675
      { currency: 'EUR', amount: '0.75' }, // EUR sum 1001 → 1088.087
    ], 'USD', rates);
    // 100 + 1088.087 + 12.687675 = 1200.774675 → 1200.77
    expect(total).toEqual({
      currency: 'USD', total: '1200.77', unconverted: [],
      originals: [{ currency: 'USD', amount: '100' }, { currency: 'EUR', amount: '1001' }, { currency: 'GBP', amount: '10.01' }],
    });
    expect(isMixed(total)).toBe(true);
  });

  it('rounds half up (away from zero), once, not per deal', () => {
    // 0.005 × 1 per deal would round to 0.01 each (0.02); the exact sum 0.01 is kept.
    expect(convertTotal([{ currency: 'EUR', amount: '0.01' }], 'USD', new Map([['EUR', '0.5']])).total).toBe('0.01');
    expect(convertTotal([{ currency: 'EUR', amount: '0.01' }], 'USD', new Map([['EUR', '0.4']])).total).toBe('0');
    expect(convertTotal([{ currency: 'EUR', amount: '1' }, { currency: 'EUR', amount: '1' }], 'USD', new Map([['EUR', '0.0025']])).total).toBe('0.01');
  });

  it('rounds to the account currency\'s own minor units (JPY none, KWD three)', () => {
    expect(convertTotal([{ currency: 'USD', amount: '10.5' }], 'JPY', new Map([['USD', '149.37']])).total).toBe('1568');
    expect(convertTotal([{ currency: 'EUR', amount: '1.11' }], 'KWD', new Map([['EUR', '0.3333']])).total).toBe('0.37');
    expect(convertTotal([{ currency: 'EUR', amount: '1.13' }], 'KWD', new Map([['EUR', '0.3333']])).total).toBe('0.377');
  });

  it('never counts a currency without a rate: it is listed apart', () => {
    const total = convertTotal([{ currency: 'USD', amount: '10' }, { currency: 'CHF', amount: '1200' }], 'USD', rates);
    expect(total.total).toBe('10');
    expect(total.unconverted).toEqual([{ currency: 'CHF', amount: '1200' }]);
  });

  it('is zero in the account currency for nothing, and takes the reports\' {currency: amount} objects', () => {
    expect(convertTotal([], 'EUR', rates)).toEqual({ currency: 'EUR', total: '0', originals: [], unconverted: [] });
    expect(convertValues({ EUR: '100.00', USD: '1.00' }, 'USD', rates).total).toBe('109.7');
    expect(isMixed(convertValues({ USD: '1.00' }, 'USD', rates))).toBe(false);
  });
});

describe('formatting', () => {
  it('shows at least the currency\'s minor units, and the exact amount', () => {
    expect(formatMoney('46650', 'CAD', 'en-US')).toBe('CA$46,650.00');
    expect(formatMoney('1200.5', 'USD', 'en-US')).toBe('$1,200.50');
    expect(formatMoney('1568', 'JPY', 'en-US')).toBe('¥1,568');
    expect(formatMoney('0.12345', 'USD', 'en-US')).toBe('$0.12345');
  });
});

describe('rates', () => {
  it('take positive decimals up to 10 decimals, normalized', () => {
    expect(normalizeRate('1.0870')).toBe('1.087');
    expect(normalizeRate(1.09)).toBe('1.09');
    expect(normalizeRate(' 0.0001 ')).toBe('0.0001');
    for (const bad of ['0', '0.000', '-1', '1e3', 'abc', '', '1.12345678901', null, undefined, true, Number.NaN]) expect(normalizeRate(bad)).toBeNull();
  });
});

describe('the currency list', () => {
  it('holds ISO 4217 currencies in use and not test, fund or withdrawn codes', () => {
    expect(CURRENCIES.length).toBeGreaterThan(150);
    for (const code of ['USD', 'EUR', 'GBP', 'CAD', 'PLN', 'CHF', 'JPY', 'XOF', 'XCG']) expect(isCurrency(code), code).toBe(true);
    for (const code of ['XYZ', 'XXX', 'XTS', 'XAU', 'HRK', 'ANG', 'usd', 'US']) expect(isCurrency(code), code).toBe(false);
    expect(currencyOf('EUR')).toEqual({ code: 'EUR', name: 'Euro', minorUnits: 2 });
    expect([minorUnitsOf('JPY'), minorUnitsOf('KWD'), minorUnitsOf('USD')]).toEqual([0, 3, 2]);
    expect(new Set(CURRENCIES.map((c) => c.code)).size).toBe(CURRENCIES.length);
  });
});
