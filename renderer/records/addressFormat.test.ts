import { describe, expect, it } from 'vitest';
import { addressLines, addressText, countryCodeOf } from './addressFormat.js';

const address = (line1: string | null, city: string | null, postal_code: string | null, state: string | null, country: string | null) =>
  ({ line1, city, postal_code, state, country });

describe('addressLines', () => {
  it('writes a US address city, state ZIP', () => {
    expect(addressLines(address('1 Main St', 'Hyannis', '02601', 'MA', 'US'))).toEqual(['1 Main St', 'Hyannis, MA 02601', 'US']);
    expect(addressText(address('1 Main St', 'Hyannis', '02601', 'MA', 'United States'))).toBe('1 Main St, Hyannis, MA 02601, United States');
  });

  it('writes a UK address with the postcode on a line of its own', () => {
    expect(addressLines(address('10 Downing St', 'London', 'SW1A 2AA', null, 'UK'))).toEqual(['10 Downing St', 'London', 'SW1A 2AA', 'UK']);
  });

  it('puts the postal code before the city in Germany and France', () => {
    expect(addressLines(address('Unter den Linden 1', 'Berlin', '10117', null, 'DE'))).toEqual(['Unter den Linden 1', '10117 Berlin', 'DE']);
    expect(addressLines(address('5 rue de Rivoli', 'Paris', '75001', null, 'France'))).toEqual(['5 rue de Rivoli', '75001 Paris', 'France']);
  });

  it('writes a Japanese address postal mark first', () => {
    expect(addressLines(address('1-1 Chiyoda', 'Chiyoda-ku', '100-0001', 'Tokyo', 'JP'))).toEqual(['1-1 Chiyoda', '〒100-0001', 'Tokyo Chiyoda-ku', 'JP']);
    expect(addressLines(address(null, 'Chiyoda-ku', null, 'Tokyo', 'JP'))).toEqual(['Tokyo Chiyoda-ku', 'JP']);
  });

  it('leaves out missing parts without stray separators', () => {
    expect(addressLines(address(null, null, '02601', 'MA', 'US'))).toEqual(['MA 02601', 'US']);
    expect(addressLines(address(null, 'Hyannis', null, null, 'US'))).toEqual(['Hyannis', 'US']);
    expect(addressLines(address('1 Main St', ' ', null, null, null))).toEqual(['1 Main St']);
    expect(addressLines(address(null, null, null, null, null))).toEqual([]);
    expect(addressLines(null)).toEqual([]);
  });

  it('writes a country it has no order for city, state ZIP', () => {
    expect(addressLines(address('Rua 1', 'Lisboa', '1100-148', null, 'Portugal'))).toEqual(['Rua 1', 'Lisboa 1100-148', 'Portugal']);
  });
});

describe('countryCodeOf', () => {
  it('reads ISO codes in any case and the names people type', () => {
    expect(countryCodeOf('us')).toBe('US');
    expect(countryCodeOf(' USA ')).toBe('US');
    expect(countryCodeOf('Deutschland')).toBe('DE');
    expect(countryCodeOf('Atlantis')).toBeNull();
    expect(countryCodeOf(null)).toBeNull();
  });
});
