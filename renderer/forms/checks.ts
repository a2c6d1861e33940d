import { isPossiblePhoneNumber, type CountryCode } from 'libphonenumber-js';

/**
 * Checks of what a rep types into a contact point, while typing: the real
 * service takes any text in these fields, so each is a warning the rep may
 * save past (a number written down as said), never a refusal.
 */
export type CheckedKind = 'email' | 'website' | 'phone';

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** Whether a text is written as an email address is (name@example.com): what may become a `mailto:` link. */
export const isEmailAddress = (text: string): boolean => EMAIL.test(text.trim());

/** The region a phone number without +country is read in: the rep's own (en-GB → GB), US when the locale names none. */
export function homeRegion(locale?: string): CountryCode {
  try {
    return (new Intl.Locale(locale ?? navigator.language).maximize().region ?? 'US') as CountryCode;
  } catch {
    return 'US';
  }
}

/** A web address with or without its scheme ("example.com", "https://example.com/x"): a host with a dot, and nothing a URL cannot hold. */
function isWebAddress(text: string): boolean {
  if (/\s/.test(text)) return false;
  try {
    const url = new URL(/^[a-z][a-z\d+.-]*:\/\//i.test(text) ? text : `https://${text}`);
    return /^https?:$/.test(url.protocol) && /^[^.]+(\.[^.]+)+$/.test(url.hostname);
  } catch {
    return false;
  }
}

/** The warning for what was typed, or null when it looks right (or is empty). */
export function warningFor(kind: CheckedKind, value: string, locale?: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  switch (kind) {
    case 'email':
      return isEmailAddress(text) ? null : 'This does not look like an email address (such as name@example.com). You can still save it.';
    case 'website':
      return isWebAddress(text) ? null : 'This does not look like a web address (such as example.com). You can still save it.';
    case 'phone':
      return isPossiblePhoneNumber(text, homeRegion(locale)) ? null : 'This does not look like a phone number (add the country code, such as +44, for a number abroad). You can still save it.';
  }
}

/** The check for a contact or lead field by its API name, if it has one. */
export function checkedKindOf(field: string): CheckedKind | null {
  if (field === 'email') return 'email';
  if (field === 'website') return 'website';
  if (field === 'phone' || field === 'mobile' || field === 'phone_number') return 'phone';
  return null;
}

/** The as-typed warning of an email, website or phone field by its API name (none for other fields). */
export function checkOf(field: string, value: string): string | null {
  const kind = checkedKindOf(field);
  return kind ? warningFor(kind, value) : null;
}

/** The input type of a contact point, for the keyboard a phone shows (an email's @, a phone's digits). */
export const inputTypeOf = (field: string): string => ({ email: 'email', website: 'url', phone: 'tel', mobile: 'tel' } as Record<string, string>)[field] ?? 'text';
