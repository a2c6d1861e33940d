import { describe, expect, it } from 'vitest';
import { homeCountry, phoneKey, phoneOrText, showPhone } from './phoneFormat.js';

describe('showPhone', () => {
  it('shows every way of typing a number in one international format, and dials it in E.164', () => {
    for (const typed of ['(475) 462-0767', '475-462-0767', '+1 475 462 0767', '+14754620767', ' 475.462.0767 ']) {
      expect(showPhone(typed, 'US')).toEqual({ text: '+1 475 462 0767', href: 'tel:+14754620767' });
    }
  });

  it('keeps a number with a country code in its own country, whatever the home country', () => {
    expect(showPhone('+44 20 7946 0018', 'US')).toEqual({ text: '+44 20 7946 0018', href: 'tel:+442079460018' });
    expect(showPhone('+49 (030) 901820', 'US').text).toBe('+49 30 901820');
    expect(showPhone('020 7946 0018', 'GB').text).toBe('+44 20 7946 0018');
  });

  it('keeps an extension', () => {
    expect(showPhone('475-462-0767 x123', 'US')).toEqual({ text: '+1 475 462 0767 ext. 123', href: 'tel:+14754620767;ext=123' });
  });

  it('shows what cannot be a phone number as typed, with nothing to dial', () => {
    expect(showPhone('12', 'US')).toEqual({ text: '12', href: null });
    expect(showPhone('12', null)).toEqual({ text: '12', href: null });
    expect(showPhone('call me', 'US')).toEqual({ text: 'call me', href: null });
    expect(showPhone('call me on 475 462 0767', null)).toEqual({ text: 'call me on 475 462 0767', href: null });
    expect(showPhone('ask reception', 'US')).toEqual({ text: 'ask reception', href: null });
    expect(showPhone('', 'US')).toEqual({ text: '', href: null });
  });

  it('shows a national number as typed when no home country is known', () => {
    expect(showPhone('(475) 462-0767', null)).toEqual({ text: '(475) 462-0767', href: 'tel:4754620767' });
    expect(showPhone('+1 (475) 462-0767', null).text).toBe('+1 475 462 0767');
  });
});

describe('homeCountry', () => {
  it("is the region of the browser's first language that names one", () => {
    expect(homeCountry(['en-US'])).toBe('US');
    expect(homeCountry(['de-AT', 'en-US'])).toBe('AT');
    expect(homeCountry(['not a tag!', 'fr-CA'])).toBe('CA');
  });

  it('falls back to the likely region of a bare language, and to none without languages', () => {
    // Intl's likely subtags: German is most likely written in Germany.
    expect(homeCountry(['de'])).toBe('DE');
    expect(homeCountry([])).toBeNull();
  });
});

describe('phoneOrText', () => {
  it('formats a text that is a phone number, and leaves any other text alone', () => {
    expect(phoneOrText('(475) 462-0767', 'US')).toBe('+1 475 462 0767');
    expect(phoneOrText('+44 20 7946 0018', 'US')).toBe('+44 20 7946 0018');
    expect(phoneOrText('someone@example.com', 'US')).toBe('someone@example.com');
    expect(phoneOrText('Bernhard LLC · 12500 USD', 'US')).toBe('Bernhard LLC · 12500 USD');
    expect(phoneOrText('1234', 'US')).toBe('1234');
    // Without a home country a national number cannot be read: as typed.
    expect(phoneOrText('(475) 462-0767', null)).toBe('(475) 462-0767');
  });
});

describe('phoneKey', () => {
  it('is the same for every spelling of one number', () => {
    const keys = ['(475) 462-0767', '475-462-0767', '+1 475 462 0767', '+14754620767', '1 (475) 462-0767'].map((typed) => phoneKey(typed, 'US'));
    expect(new Set(keys)).toEqual(new Set(['tel:+14754620767']));
    expect(phoneKey('07700 900123', 'GB')).toBe(phoneKey('+44 7700 900123', 'US'));
  });

  it('tells different numbers and extensions apart, and compares what is not a number by its digits', () => {
    expect(phoneKey('475-462-0767', 'US')).not.toBe(phoneKey('475-462-0768', 'US'));
    expect(phoneKey('475-462-0767 x12', 'US')).not.toBe(phoneKey('475-462-0767', 'US'));
    expect(phoneKey('ext 12', 'US')).toBe('12');
    expect(phoneKey('ask reception', 'US')).toBeNull();
  });
});
