import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js';

/** A phone number as every screen shows it, and the `tel:` link that dials it. */
export interface ShownPhone {
  /** International format (`+1 475 462 0767`), or the number as it was typed when it cannot be read as one. */
  text: string;
  /** `tel:+14754620767` (E.164, with `;ext=` for an extension), or the typed digits; null when there is nothing to dial. */
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

/**
 * One format for every phone number on every screen: international
 * (`+44 20 7946 0018`), whoever typed it how. Display only: the stored value
 * stays what the rep typed. A number that cannot be a phone number (too
 * short, letters) is shown as typed, and dials its digits.
 */
export function showPhone(typed: string, country: CountryCode | null = HOME): ShownPhone {
  const trimmed = typed.trim();
  const parsed = trimmed ? parsePhoneNumberFromString(trimmed, country ?? undefined) : undefined;
  if (parsed?.isPossible()) return { text: parsed.formatInternational(), href: parsed.getURI() };
  const digits = trimmed.replace(/(?!^\+)[^\d]/g, '');
  return { text: trimmed, href: /\d/.test(digits) ? `tel:${digits}` : null };
}

/**
 * A text that may be a phone number (the palette's second line is an email,
 * a phone or an organization): in the one format when it is written only with
 * a phone's characters and can be one, else as it is.
 */
export function phoneOrText(text: string, country: CountryCode | null = HOME): string {
  if (!/^\+?[\d\s().\-/]+(?:\s*(?:x|ext\.?)\s*\d+)?$/i.test(text.trim())) return text;
  const shown = showPhone(text, country);
  return shown.href?.startsWith('tel:+') ? shown.text : text;
}
