import type { Address } from '../../shared/resources/address.js';

/**
 * How a country writes the line under the street, from the address's parts:
 * `{city}`, `{state}`, `{zip}`; a `\n` starts a new line. The common
 * countries of Outpost's users; any other country gets DEFAULT_ORDER.
 */
const ORDERS: Record<string, string> = {
  US: '{city}, {state} {zip}',
  CA: '{city} {state} {zip}',
  AU: '{city} {state} {zip}',
  GB: '{city}\n{zip}',
  IE: '{city}\n{zip}',
  DE: '{zip} {city}',
  AT: '{zip} {city}',
  CH: '{zip} {city}',
  FR: '{zip} {city}',
  BE: '{zip} {city}',
  NL: '{zip} {city}',
  ES: '{zip} {city} {state}',
  IT: '{zip} {city} {state}',
  PL: '{zip} {city}',
  SE: '{zip} {city}',
  DK: '{zip} {city}',
  NO: '{zip} {city}',
  FI: '{zip} {city}',
  BR: '{city} - {state}\n{zip}',
  MX: '{zip} {city}, {state}',
  IN: '{city} {zip}\n{state}',
  JP: '〒{zip}\n{state} {city}',
  CN: '{state} {city}\n{zip}',
};

/** Where no order is known: city, state and postal code on one line. */
const DEFAULT_ORDER = '{city}, {state} {zip}';

/** Names people type for the countries above, as their ISO codes. */
const COUNTRY_NAMES: Record<string, string> = {
  'united states': 'US', 'united states of america': 'US', usa: 'US', 'u.s.a.': 'US', 'u.s.': 'US', america: 'US',
  'united kingdom': 'GB', uk: 'GB', 'great britain': 'GB', england: 'GB', scotland: 'GB', wales: 'GB', 'northern ireland': 'GB',
  germany: 'DE', deutschland: 'DE', france: 'FR', austria: 'AT', österreich: 'AT', switzerland: 'CH', schweiz: 'CH', suisse: 'CH',
  belgium: 'BE', netherlands: 'NL', 'the netherlands': 'NL', spain: 'ES', españa: 'ES', italy: 'IT', italia: 'IT', poland: 'PL',
  sweden: 'SE', denmark: 'DK', norway: 'NO', finland: 'FI', ireland: 'IE', canada: 'CA', australia: 'AU', brazil: 'BR', brasil: 'BR',
  mexico: 'MX', méxico: 'MX', india: 'IN', japan: 'JP', 日本: 'JP', china: 'CN', 中国: 'CN',
};

/** The ISO code of the country an address names (`US`, `usa`, `Germany`), or null when it names none this module knows. */
export function countryCodeOf(country: string | null): string | null {
  const text = country?.trim() ?? '';
  // Names first: "UK" is what people write for GB.
  return COUNTRY_NAMES[text.toLowerCase()] ?? (/^[a-z]{2}$/i.test(text) ? text.toUpperCase() : null);
}

type Part = 'city' | 'state' | 'zip';

/**
 * Fills an order with the parts an address has. Each part comes with the text
 * written before it in the order: a separator (", ") goes only between two
 * parts that are there; the text before a line's first part (Japan's 〒)
 * goes with that part.
 */
function fill(order: string, parts: Record<Part, string>): string[] {
  return order.split('\n').map((line) => {
    const pieces = [...line.matchAll(/([^{]*)\{(city|state|zip)\}/g)].map((m, i) => ({ before: m[1], value: parts[m[2] as Part], leading: i === 0 }));
    return pieces.filter((p) => p.value).map((p, i) => (i === 0 ? (p.leading ? p.before : '') : p.before) + p.value).join('').trim();
  }).filter(Boolean);
}

/**
 * An address as its country writes it, one string a line: the street, then
 * city, state and postal code in the country's order (US "Hyannis, MA 02601";
 * UK the city, then the postcode; Germany "10115 Berlin"), then the country.
 * Empty parts leave no stray commas; an empty address has no lines.
 */
export function addressLines(address: Address | null): string[] {
  if (!address) return [];
  const clean = (value: string | null) => value?.trim() ?? '';
  const code = countryCodeOf(address.country);
  const order = (code && ORDERS[code]) ?? DEFAULT_ORDER;
  const lines = [clean(address.line1), ...fill(order, { city: clean(address.city), state: clean(address.state), zip: clean(address.postal_code) })];
  return [...lines, clean(address.country)].filter(Boolean);
}

/** The same on one line, the lines joined by commas (a list's cell). */
export function addressText(address: Address | null): string {
  return addressLines(address).join(', ');
}
