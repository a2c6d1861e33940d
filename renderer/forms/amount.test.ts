import { describe, expect, it } from 'vitest';
import { formatAmount, parseAmount, separatorsOf } from './amount.js';

const NBSP = '\u00a0';
const NNBSP = '\u202f';
const read = (typed: string, locale: string) => {
  const parsed = parseAmount(typed, locale);
  return parsed.ok ? parsed.value : null;
};

describe('parseAmount', () => {
  it('reads amounts as people type them in English', () => {
    expect(read('12,500', 'en-US')).toBe('12500');
    expect(read('12 500.50', 'en-US')).toBe('12500.5');
    expect(read('1,234,567.89', 'en-US')).toBe('1234567.89');
    expect(read(' 0012.30 ', 'en-GB')).toBe('12.3');
    expect(read('12.', 'en-US')).toBe('12');
    expect(read('12500', 'en-US')).toBe('12500');
    expect(read('.5', 'en-US')).toBe('0.5');
    expect(read('0', 'en-US')).toBe('0');
    expect(read('-0', 'en-US')).toBe('0');
    expect(read('-2.5', 'en-US')).toBe('-2.5');
    expect(read('+7', 'en-US')).toBe('7');
  });

  it('reads the German way, with a dot for thousands and a comma for decimals', () => {
    expect(separatorsOf('de-DE')).toEqual({ decimal: ',', group: '.' });
    expect(read('12.500,50', 'de-DE')).toBe('12500.5');
    expect(read('12.500', 'de-DE')).toBe('12500');
    expect(read('12,5', 'de-DE')).toBe('12.5');
    // A dot with one or two digits after it is no group of thousands: a decimal typed on a keypad.
    expect(read('12.5', 'de-DE')).toBe('12.5');
  });

  it('reads the French way, with a (narrow) no-break space for thousands and a comma for decimals', () => {
    expect(read(`1${NBSP}234,5`, 'fr-FR')).toBe('1234.5');
    expect(read(`1${NNBSP}234${NNBSP}567,25`, 'fr-FR')).toBe('1234567.25');
    expect(read('1 234,5', 'fr-FR')).toBe('1234.5');
  });

  it('reads Swiss apostrophes and Indian-English figures', () => {
    expect(read('12’500.50', 'de-CH')).toBe('12500.5');
    expect(read("12'500", 'de-CH')).toBe('12500');
    expect(read('12,500.5', 'en-IN')).toBe('12500.5');
    expect(read('12,34,567.5', 'en-IN')).toBe('1234567.5');
  });

  it('keeps more decimals than cents as typed, for the API to refuse rather than round', () => {
    expect(read('1.005', 'en-US')).toBe('1.005');
    expect(read('99999999999999999999.99', 'en-US')).toBe('99999999999999999999.99');
  });

  it('refuses what is not an amount', () => {
    for (const garbage of ['', 'abc', '12abc', '1,2,3', '12,5000', '1.2.3,4', '1,234.567,89', '--5', '€12', '1e5', '1..2']) {
      expect(read(garbage, 'en-US'), garbage).toBeNull();
    }
    expect(read('1,2,3', 'de-DE')).toBeNull();
    expect(read('12.50.1', 'de-DE')).toBeNull();
  });
});

describe('formatAmount', () => {
  it('writes the API’s decimal as the locale does, digit for digit', () => {
    expect(formatAmount('12500.5', 'en-US')).toBe('12,500.50');
    expect(formatAmount('12500.5', 'de-DE')).toBe('12.500,50');
    expect(formatAmount('1234.5', 'fr-FR')).toBe(`1${NNBSP}234,50`);
    expect(formatAmount('99999999999999999.99', 'en-US')).toBe('99,999,999,999,999,999.99');
    expect(formatAmount('7', 'en-US')).toBe('7');
    expect(formatAmount('-3.125', 'en-US')).toBe('-3.125');
  });

  it('reads back what it writes, in every locale', () => {
    for (const locale of ['en-US', 'de-DE', 'fr-FR', 'de-CH', 'en-IN', 'es-ES', 'pt-BR', 'ja-JP']) {
      for (const value of ['0', '12', '12500.5', '1234567.89', '100000000']) {
        expect(read(formatAmount(value, locale), locale), `${locale} ${value}`).toBe(value);
      }
    }
  });

  it('leaves text that is no decimal as it is', () => {
    expect(formatAmount('abc', 'en-US')).toBe('abc');
  });
});
