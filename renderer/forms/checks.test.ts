import { describe, expect, it } from 'vitest';
import { checkedKindOf, homeRegion, warningFor } from './checks.js';

describe('warningFor', () => {
  it('takes email addresses and warns about what is not one', () => {
    for (const ok of ['ana@example.com', 'a.b+c@mail.example.co.uk', '']) expect(warningFor('email', ok), ok).toBeNull();
    for (const bad of ['ana', 'ana@', 'ana@example', 'ana example@x.com', '@example.com', 'ana@@example.com']) {
      expect(warningFor('email', bad), bad).toMatch(/does not look like an email address.*You can still save it/);
    }
  });

  it('takes web addresses with or without a scheme', () => {
    for (const ok of ['example.com', 'www.example.com/path?q=1', 'https://shop.example.de', 'http://example.com:8080']) expect(warningFor('website', ok), ok).toBeNull();
    for (const bad of ['example', 'not a site', 'ftp://example.com', 'https://', 'http://exa mple.com']) {
      expect(warningFor('website', bad), bad).toMatch(/does not look like a web address/);
    }
  });

  it('takes phone numbers in the rep’s region or with a country code, and warns about the rest', () => {
    expect(warningFor('phone', '(212) 555-0100', 'en-US')).toBeNull();
    expect(warningFor('phone', '+44 20 7946 0958', 'en-US')).toBeNull();
    expect(warningFor('phone', '020 7946 0958', 'en-GB')).toBeNull();
    expect(warningFor('phone', '030 123456', 'de-DE')).toBeNull();
    for (const bad of ['12', 'call me', '+1 2']) expect(warningFor('phone', bad, 'en-US'), bad).toMatch(/does not look like a phone number/);
  });

  it('reads the region from the locale', () => {
    expect(homeRegion('en-GB')).toBe('GB');
    expect(homeRegion('de')).toBe('DE');
    expect(homeRegion('fr-CA')).toBe('CA');
  });

  it('knows which fields are checked', () => {
    expect(['email', 'website', 'phone', 'mobile', 'title'].map(checkedKindOf)).toEqual(['email', 'website', 'phone', 'phone', null]);
  });
});
