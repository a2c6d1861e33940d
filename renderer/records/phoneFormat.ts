import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** A phone number as every screen shows it, and the `tel:` link that dials it. */
export interface ShownPhone {
  /** International format (`+1 475 462 0767`), or the number as it was typed when it cannot be read as one. */
  text: string;
  /** `tel:+14754620767` (E.164, with `;ext=` for an extension), or the typed digits; null when it cannot be a phone number. */
  href: string | null;
}

/**
 * The country a number typed without a country code is read in: the region of
 * the browser's language (`en-US` → US, `de-AT` → AT; a bare `de` its likely
 * region, DE). Null without languages; such numbers are then shown as typed.
 */
export function homeCountry(languages: readonly string[] = typeof navigator === 'undefined' ? [] : navigator.languages ?? [navigator.language]): CountryCode | null {
  for (const tag of languages) {
    try {
      const region = new Intl.Locale(tag).maximize().region;
      if (region && /^[A-Z]{2}$/.test(region)) return region as CountryCode;
    } catch {
      // Not a language tag: try the next one.
    }
  }
  return null;
}

const HOME = homeCountry();

/** Written only with a phone number's characters (digits, spaces, brackets, dashes, dots, an extension). */
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+(?:\s*(?:x|ext\.?)\s*\d+)?$/i;

/** How many digits a number has at least and at most (E.164's most) to be dialled when no country can read it. */
const DIALLED_DIGITS = /^\+?\d{7,15}$/;

/**
 * One format for every phone number on every screen: international
 * (`+44 20 7946 0018`), whoever typed it how. Display only: the stored value
 * stays what the rep typed. What cannot be a phone number (too short, too
 * long, words) is shown as typed with nothing to dial, so it is never a link;
 * a national number when no home country is known is shown as typed and
 * dials its digits.
 */
export function showPhone(typed: string, country: CountryCode | null = HOME): ShownPhone {
  const trimmed = typed.trim();
  const parsed = trimmed ? parsePhoneNumberFromString(trimmed, country ?? undefined) : undefined;
  if (parsed?.isPossible()) return { text: parsed.formatInternational(), href: parsed.getURI() };
  const digits = trimmed.replace(/(?!^\+)[^\d]/g, '');
  const dialable = country === null && PHONE_CHARACTERS.test(trimmed) && DIALLED_DIGITS.test(digits);
  return { text: trimmed, href: dialable ? `tel:${digits}` : null };
}

/**
 * The number a phone text stands for, to compare two spellings of one
 * number (`(475) 462-0767` and `+1 475 462 0767`): E.164 with its extension
 * when it can be read as a phone number, else its digits; null for a text
 * without any.
 */
export function phoneKey(typed: string, country: CountryCode | null = HOME): string | null {
  const parsed = typed.trim() ? parsePhoneNumberFromString(typed.trim(), country ?? undefined) : undefined;
  if (parsed?.isPossible()) return parsed.getURI();
  const digits = typed.replace(/\D/g, '');
  return digits === '' ? null : digits;
}

/**
 * A text that may be a phone number (the palette's second line is an email,
 * a phone or an organization): in the one format when it is written only with
 * a phone's characters and can be one, else as it is.
 */
export function phoneOrText(text: string, country: CountryCode | null = HOME): string {
  if (!PHONE_CHARACTERS.test(text.trim())) return text;
  const shown = showPhone(text, country);
  return shown.href?.startsWith('tel:+') ? shown.text : text;
}
