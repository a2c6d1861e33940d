import ICAL from 'ical.js';
import type { Actor } from '../context.js';
import type { Engine } from '../engine.js';
import { problem } from '../problems.js';
import type { Contact } from '../../../shared/resources/contact.js';
import { ADDRESS_KEYS, type Address } from '../../../shared/resources/address.js';
import type { CustomFieldType } from '../../../shared/resources/customField.js';
import { personName, RecordBody, splitFullName } from './importRows.js';
import {
  errorList, fileText, importAnswer, importRefused, MAX_ROWS, requestErrors, runImport, type PreparedRow, type RowError,
} from './recordImport.js';

type Card = InstanceType<typeof ICAL.Component>;
type CardProperty = InstanceType<typeof ICAL.Property>;

/** The addresses of a contact and the ADR type that tells them apart (the main one has none of these). */
const ADDRESS_TYPES = { billing_address: 'x-billing', shipping_address: 'x-shipping' } as const;
/** Profiles written as X-SOCIALPROFILE (Apple's and most address books' way); Skype as IMPP. */
const SOCIAL = ['twitter', 'facebook', 'linkedin'] as const;
/** Outpost fields vCard has no property for: X- properties, which other apps keep or ignore. */
const X_INDUSTRY = 'x-outpost-industry';
const X_CUSTOMER_STATUS = 'x-outpost-customer-status';
const X_PROSPECT_STATUS = 'x-outpost-prospect-status';
const X_CUSTOM_FIELD = 'x-outpost-custom-field';

// ---------------------------------------------------------------- export

/**
 * Contacts as vCard 4.0 (RFC 6350), organizations first so that importing
 * the file links each person to the organization card of the same file.
 * `organizationName` gives the name of a person's organization (ORG).
 */
export function contactsToVcard(contacts: Contact[], organizationName: (id: number) => string | undefined, host: string): string {
  const ordered = [...contacts.filter((c) => c.is_organization), ...contacts.filter((c) => !c.is_organization)];
  return ordered.map((c) => contactCard(c, organizationName, host).toString() + '\r\n').join('');
}

function contactCard(contact: Contact, organizationName: (id: number) => string | undefined, host: string): Card {
  const card = new ICAL.Component('vcard');
  // A structured value (N, ORG) is an array of its components.
  const add = (name: string, value: string | string[] | null | undefined, params: Record<string, string | string[]> = {}) => {
    if (value === null || value === undefined || value === '') return;
    const property = new ICAL.Property(name);
    for (const [key, param] of Object.entries(params)) property.setParameter(key, param);
    property.setValue(value);
    card.addProperty(property);
  };
  card.addPropertyWithValue('version', '4.0');
  card.addPropertyWithValue('uid', `contact-${contact.id}@${host}`);
  if (contact.is_organization) {
    card.addPropertyWithValue('kind', 'org');
    add('fn', contact.name);
    add('org', [contact.name ?? '']);
  } else {
    add('n', [contact.last_name ?? '', contact.first_name ?? '', '', '', '']);
    add('fn', personName(contact.first_name ?? undefined, contact.last_name ?? undefined));
    const organization = contact.contact_id === null ? undefined : organizationName(contact.contact_id);
    if (organization) add('org', [organization]);
  }
  add('title', contact.title);
  add('email', contact.email, { type: 'work' });
  add('tel', contact.phone, { type: ['work', 'voice'], value: 'text' });
  add('tel', contact.mobile, { type: 'cell', value: 'text' });
  add('tel', contact.fax, { type: ['work', 'fax'], value: 'text' });
  addAddress(card, contact.address, 'work');
  for (const [field, type] of Object.entries(ADDRESS_TYPES)) addAddress(card, contact[field as keyof typeof ADDRESS_TYPES], type);
  add('url', contact.website);
  add('note', contact.description);
  if (contact.tags.length > 0) {
    const categories = new ICAL.Property('categories');
    categories.setValues(contact.tags);
    card.addProperty(categories);
  }
  for (const network of SOCIAL) add('x-socialprofile', contact[network], { type: network });
  if (contact.skype) add('impp', `skype:${contact.skype}`);
  add(X_INDUSTRY, contact.industry);
  if (contact.customer_status !== 'none') add(X_CUSTOMER_STATUS, contact.customer_status);
  if (contact.prospect_status !== 'none') add(X_PROSPECT_STATUS, contact.prospect_status);
  for (const [name, value] of Object.entries(contact.custom_fields)) {
    for (const item of Array.isArray(value) ? value : [value]) add(X_CUSTOM_FIELD, item === null ? null : String(item), { 'x-name': name });
  }
  add('rev', contact.updated_at.replace(/[-:]/g, ''));
  return card;
}

function addAddress(card: Card, address: Address | null, type: string): void {
  if (!address || ADDRESS_KEYS.every((k) => !address[k])) return;
  const property = new ICAL.Property('adr');
  property.setParameter('type', type);
  // ADR: post office box; extended address; street; locality; region; postal code; country.
  property.setValue(['', '', address.line1 ?? '', address.city ?? '', address.state ?? '', address.postal_code ?? '', address.country ?? '']);
  card.addProperty(property);
}

// ---------------------------------------------------------------- import

interface CardRequest {
  cards: Card[];
  skipInvalid: boolean;
}

/** `POST /v2/contacts/import_vcard`: every card a contact, all or nothing unless `skip_invalid`. */
export function importVcard(engine: Engine, data: Record<string, unknown>, actor: Actor): Record<string, unknown> {
  const request = readRequest(data, true);
  const outcome = runImport(engine, 'contact', prepareCards(engine, request.cards), actor, request.skipInvalid ? 'skip-invalid' : 'all-or-nothing');
  if (!request.skipInvalid && outcome.rejected.length > 0) throw importRefused('contact', outcome.rejected);
  return importAnswer('contact', outcome);
}

/** `POST /v2/contacts/import_vcard/preview`: what each card becomes (first 10), and every error the import would answer. */
export function previewVcard(engine: Engine, data: Record<string, unknown>, actor: Actor): Record<string, unknown> {
  const request = readRequest(data, false);
  const rows = prepareCards(engine, request.cards);
  const outcome = runImport(engine, 'contact', rows, actor, 'preview');
  return {
    resource_type: 'contact',
    rows: rows.length,
    sample: rows.slice(0, 10).map((row) => ({ row: row.row, values: sampleValues(row) })),
    errors: errorList(outcome.rejected),
  };
}

function readRequest(data: Record<string, unknown>, importing: boolean): CardRequest {
  requestErrors(data, importing ? ['vcard', 'skip_invalid'] : ['vcard'], 'a vCard import').throwIfAny();
  return { cards: readCards(fileText(data, 'vcard', 'vCard')), skipInvalid: data.skip_invalid === true };
}

/** Parses the file (vCard 3.0 and 4.0) into its cards; anything unreadable is a 422 saying where. */
export function readCards(text: string): Card[] {
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text.replace(/^\uFEFF/, ''));
  } catch (err) {
    throw problem('incorrect_value', `The file is not a valid vCard: ${parseProblem(text, err)}`, '/vcard', 'import');
  }
  const components = (Array.isArray(parsed) && typeof parsed[0] === 'string' ? [parsed] : parsed) as unknown[][];
  const other = components.find((c) => c[0] !== 'vcard');
  if (other) throw problem('incorrect_value', `The file holds a ${String(other[0]).toUpperCase()}, not vCards (BEGIN:VCARD … END:VCARD).`, '/vcard', 'import');
  if (components.length === 0) throw problem('incorrect_value', 'The file holds no vCard (BEGIN:VCARD … END:VCARD).', '/vcard', 'import');
  if (components.length > MAX_ROWS) throw problem('incorrect_value', `The file has ${components.length} cards; at most ${MAX_ROWS} can be imported at once: split it into smaller files.`, '/vcard', 'import');
  return components.map((jcard) => new ICAL.Component(jcard));
}

/** ical.js's reason, with the line it quotes found in the text. */
function parseProblem(text: string, err: unknown): string {
  if (/^VERSION:2\.1\s*$/im.test(text)) return 'vCard 2.1 is not supported: save the cards as vCard 3.0 or 4.0.';
  const message = err instanceof Error ? err.message : String(err);
  const quoted = /"([^"]*)"$/.exec(message)?.[1] ?? /'([^']*)'$/.exec(message)?.[1];
  const line = quoted ? text.split(/\r?\n/).findIndex((l) => l === quoted) + 1 : 0;
  const reason = message.startsWith('invalid line') ? 'a line is neither a property (NAME:value) nor a continuation' : message;
  return `${reason}${line > 0 ? ` (line ${line}: ${quoted!.slice(0, 80)})` : ''}.`;
}

function prepareCards(engine: Engine, cards: Card[]): PreparedRow[] {
  const definitions = new Map([...engine.customFields.definitions('contact').values()].map((d) => [d.name, d.type]));
  return cards.map((card, i) => cardToRow(card, i + 1, definitions));
}

/** One card as the body of `POST /v2/contacts`, keeping the property each value came from. */
function cardToRow(card: Card, row: number, customTypes: ReadonlyMap<string, CustomFieldType>): PreparedRow {
  const version = String(card.getFirstPropertyValue('version') ?? '');
  if (version && version !== '3.0' && version !== '4.0') {
    const error: RowError = { field: null, source: 'VERSION', code: 'incorrect_value', message: `vCard ${version} is not supported: save the cards as vCard 3.0 or 4.0.` };
    return { row, data: {}, isOrganization: false, errors: [error], sources: {} };
  }
  const properties: Record<string, string> = {};
  const body = new RecordBody((field) => properties[field] ?? null);
  const put = (field: string, value: unknown, property: string) => {
    if (value === undefined || value === '' || (Array.isArray(value) && value.length === 0)) return;
    properties[field] = property;
    body.put(field, value);
  };
  const names = cardNames(card);
  if (names.isOrganization) {
    put('is_organization', true, names.kindProperty);
    put('name', names.organization ?? names.formatted, names.organization ? 'ORG' : 'FN');
  } else {
    const split = !names.family && !names.given && names.formatted ? splitFullName(names.formatted) : undefined;
    put('first_name', split ? split.first : names.given, split ? 'FN' : 'N');
    put('last_name', split ? split.last : names.family, split ? 'FN' : 'N');
  }
  readContactDetails(card, put);
  readCustomFields(card, customTypes, put);
  const linked = !names.isOrganization && names.organization
    && names.organization !== personName(body.data.first_name as string | undefined, body.data.last_name as string | undefined);
  if (linked) {
    properties.organization_name = 'ORG';
    body.note('contact_id', 'organization_name');
  }
  return { row, data: body.data, isOrganization: names.isOrganization, errors: [], sources: body.sources, ...(linked ? { organization: names.organization } : {}) };
}

interface CardNames {
  family?: string;
  given?: string;
  formatted?: string;
  organization?: string;
  isOrganization: boolean;
  kindProperty: string;
}

/**
 * A card is an organization when it says so (KIND:org in 4.0, Apple's
 * X-ABShowAs:COMPANY in 3.0) or when it names only an organization (ORG,
 * and no N, or an FN equal to the ORG).
 */
function cardNames(card: Card): CardNames {
  const n = card.getFirstPropertyValue('n') as string | string[] | null;
  const family = part(n, 0);
  const given = part(n, 1);
  const formatted = text(card.getFirstPropertyValue('fn'));
  const organization = part(card.getFirstPropertyValue('org') as string | string[] | null, 0);
  const kind = text(card.getFirstPropertyValue('kind'))?.toLowerCase();
  const showAs = text(card.getFirstPropertyValue('x-abshowas'))?.toLowerCase();
  const said = kind === 'org' || kind === 'organization' || showAs === 'company';
  const onlyOrganization = !family && !given && Boolean(organization) && (!formatted || formatted === organization);
  return { family, given, formatted, organization, isOrganization: said || onlyOrganization, kindProperty: kind ? 'KIND' : showAs ? 'X-ABSHOWAS' : 'ORG' };
}

type Put = (field: string, value: unknown, property: string) => void;

function readContactDetails(card: Card, put: Put): void {
  put('title', text(card.getFirstPropertyValue('title')), 'TITLE');
  put('description', text(card.getFirstPropertyValue('note')), 'NOTE');
  put('website', text(card.getFirstPropertyValue('url')), 'URL');
  put('email', text(preferred(card.getAllProperties('email'))[0]?.getFirstValue()), 'EMAIL');
  readPhones(card, put);
  readAddresses(card, put);
  put('tags', card.getAllProperties('categories').flatMap((p) => p.getValues().map(text)).filter(Boolean), 'CATEGORIES');
  for (const profile of card.getAllProperties('x-socialprofile')) {
    const network = typesOf(profile).find((t): t is (typeof SOCIAL)[number] => (SOCIAL as readonly string[]).includes(t));
    if (network) put(network, text(profile.getFirstValue()), 'X-SOCIALPROFILE');
  }
  const skype = card.getAllProperties('impp').map((p) => text(p.getFirstValue()) ?? '').find((v) => /^skype:/i.test(v));
  put('skype', skype?.replace(/^skype:/i, '') ?? text(card.getFirstPropertyValue('x-skype')) ?? text(card.getFirstPropertyValue('x-skype-username')), skype ? 'IMPP' : 'X-SKYPE');
  put('industry', text(card.getFirstPropertyValue(X_INDUSTRY)), X_INDUSTRY.toUpperCase());
  put('customer_status', text(card.getFirstPropertyValue(X_CUSTOMER_STATUS))?.toLowerCase(), X_CUSTOMER_STATUS.toUpperCase());
  put('prospect_status', text(card.getFirstPropertyValue(X_PROSPECT_STATUS))?.toLowerCase(), X_PROSPECT_STATUS.toUpperCase());
}

/** The first TEL of each kind: fax, cell (mobile), any other (phone); preferred ones first. */
function readPhones(card: Card, put: Put): void {
  const found: Record<'fax' | 'mobile' | 'phone', string | undefined> = { fax: undefined, mobile: undefined, phone: undefined };
  for (const tel of preferred(card.getAllProperties('tel'))) {
    const types = typesOf(tel);
    const kind = types.includes('fax') ? 'fax' : types.includes('cell') || types.includes('mobile') || types.includes('iphone') ? 'mobile' : 'phone';
    found[kind] ??= text(tel.getFirstValue())?.replace(/^tel:/i, '');
  }
  for (const [field, value] of Object.entries(found)) put(field, value, 'TEL');
}

/** ADR;TYPE=x-billing and x-shipping are those addresses; the first other ADR is the main one. */
function readAddresses(card: Card, put: Put): void {
  const taken = new Set<string>();
  for (const adr of preferred(card.getAllProperties('adr'))) {
    const types = typesOf(adr);
    const field = (Object.keys(ADDRESS_TYPES) as (keyof typeof ADDRESS_TYPES)[]).find((f) => types.includes(ADDRESS_TYPES[f])) ?? 'address';
    if (taken.has(field)) continue;
    taken.add(field);
    const value = adr.getFirstValue() as string | string[] | null;
    const parts = { line1: part(value, 2) ?? part(value, 0), city: part(value, 3), state: part(value, 4), postal_code: part(value, 5), country: part(value, 6) };
    for (const key of ADDRESS_KEYS) put(`${field}.${key}`, parts[key], 'ADR');
  }
}

/** X-OUTPOST-CUSTOM-FIELD;X-NAME=<name>: the account's own fields (unknown names are left out: the card is still imported). */
function readCustomFields(card: Card, customTypes: ReadonlyMap<string, CustomFieldType>, put: Put): void {
  const values = new Map<string, string[]>();
  for (const property of card.getAllProperties(X_CUSTOM_FIELD)) {
    const name = property.getFirstParameter('x-name');
    const value = text(property.getFirstValue());
    if (!name || value === undefined || !customTypes.has(name)) continue;
    values.set(name, [...(values.get(name) ?? []), value]);
  }
  for (const [name, list] of values) put(`custom_fields.${name}`, customTypes.get(name) === 'multi_select_list' ? list : list[0], X_CUSTOM_FIELD.toUpperCase());
}

/** Preferred first: PREF=1 (4.0) or TYPE=pref (3.0). */
function preferred(properties: CardProperty[]): CardProperty[] {
  const isPreferred = (p: CardProperty) => typesOf(p).includes('pref') || p.getFirstParameter('pref') === '1';
  return [...properties.filter(isPreferred), ...properties.filter((p) => !isPreferred(p))];
}

function typesOf(property: CardProperty): string[] {
  const type = property.getParameter('type') as string | string[] | undefined;
  return (Array.isArray(type) ? type : type ? [type] : []).flatMap((t) => t.split(',')).map((t) => t.trim().toLowerCase());
}

/** A component of a structured value (N, ORG, ADR); a list inside a component is joined with `, `. */
function part(value: string | string[] | null | undefined, index: number): string | undefined {
  if (value === null || value === undefined) return undefined;
  const component = Array.isArray(value) ? value[index] : index === 0 ? value : undefined;
  return text(Array.isArray(component) ? component.join(', ') : component);
}

function text(value: unknown): string | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = String(value).trim();
  return trimmed === '' ? undefined : trimmed;
}

/** A card's values for the preview, flattened as the CSV export's columns (`address.city`, lists joined with `; `). */
function sampleValues(row: PreparedRow): Record<string, string> {
  const values: Record<string, string> = {};
  for (const field of Object.keys(row.sources)) {
    if (field === 'contact_id') continue;
    const dot = field.indexOf('.');
    const value = dot < 0 ? row.data[field] : (row.data[field.slice(0, dot)] as Record<string, unknown>)[field.slice(dot + 1)];
    values[field] = Array.isArray(value) ? value.join('; ') : String(value);
  }
  if (row.organization) values.organization_name = row.organization;
  return values;
}
