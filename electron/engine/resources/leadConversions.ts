import { newRecordId, type Actor, type EngineContext } from '../context.js';
import { fromBase64, toBase64Url, utf8Bytes, utf8Text } from '../bytes.js';
import { isoSeconds } from '../clock.js';
import { invalidParam, notFound, type FieldErrors } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { currencyCode, currencyCodeProblem, parseDecimal } from './decimal.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import { single, type RawQuery } from './params.js';
import { jsonObject } from '../db/sqlJson.js';
import { LeadActivityMover } from './leadActivities.js';
import type { Leads } from './leads.js';
import type { Contacts } from './contacts.js';
import type { Users } from './users.js';
import { CONTACT_TEXT_FIELDS, type ContactTextField } from '../../../shared/resources/contact.js';
import { CONVERTED_LEAD_STATUS, dealNameOfLead, type Lead } from '../../../shared/resources/lead.js';
import type { SyncSource } from '../sync/sources.js';

/** What a conversion needs of the deals service (resources/deals.ts). */
export interface DealCreator {
  create(data: Record<string, unknown>, actor: Actor): number;
}

/** What a conversion needs of the associated contacts service (resources/associatedContacts.ts). */
export interface ContactAssociator {
  create(dealId: number, data: Record<string, unknown>, actor: Actor): number;
}

/** The services a conversion creates records through, so their rules (and change-log entries) apply. */
export interface ConversionServices {
  users: Users;
  leads: Leads;
  contacts: Contacts;
  deals: DealCreator;
  associatedContacts: ContactAssociator;
}

export const FIELDS: FieldTable = {
  lead_id: { kind: 'id' },
  owner_id: { kind: 'id' },
  create_deal: { kind: 'boolean' },
  // Outpost extensions: what the deal is called and worth, set in the same write as the conversion.
  deal_name: { kind: 'string' },
  deal_currency: { kind: 'string' },
};

/** The deal's fields a conversion may be given (deal_value is a decimal, checked on its own). */
const DEAL_FIELDS = ['deal_name', 'deal_value', 'deal_currency'] as const;

/** What the rep chose for the deal; a field left out takes the deal's default. */
interface DealChoice {
  name?: string;
  value?: string;
  currency?: string;
}

const CONVERSION_JSON = jsonObject({
  id: 'lc.id',
  lead_id: 'lc.lead_id',
  individual_id: 'lc.individual_id',
  organization_id: 'lc.organization_id',
  deal_id: 'lc.deal_id',
  creator_id: 'lc.creator_id',
  created_at: 'lc.created_at',
});

/** Conversions as devices receive them (sync/): what GET serves as `data`. */
export const LEAD_CONVERSION_SYNC: SyncSource = { type: 'lead_conversion', from: 'lead_conversions lc', idColumn: 'lc.id', json: CONVERSION_JSON };

/** When a lead becomes both, the person's fields go to the individual and these to the organization. */
const ORGANIZATION_FIELDS: readonly ContactTextField[] = ['industry', 'website', 'description'];
const PERSON_FIELDS: readonly ContactTextField[] = CONTACT_TEXT_FIELDS.filter((f) => f !== 'industry' && f !== 'website');

/** A list page of conversions, with the cursor of the page after it (when there is one). */
export interface ConversionPage extends ListPage {
  nextCursor: string | null;
}

/**
 * Lead conversions at /v2/lead_conversions: a lead becomes an individual
 * (when it has a last_name), an organization (when it has an
 * organization_name), or both, the individual then belonging to the
 * organization; and a deal unless `create_deal` is false. The lead stays, with
 * status `Converted`; converting it again is refused. Its activities move to
 * the new records in the background (leadActivities.ts).
 */
export class LeadConversions {
  readonly activities: LeadActivityMover;
  private readonly list: ListDefinition;
  private readonly byIdJson;
  private readonly byLead;

  constructor(private readonly ctx: EngineContext, private readonly services: () => ConversionServices) {
    this.activities = new LeadActivityMover(ctx);
    this.byIdJson = ctx.db.prepare(`SELECT ${CONVERSION_JSON} FROM lead_conversions lc WHERE lc.id = ?`).pluck();
    this.byLead = ctx.db.prepare('SELECT id FROM lead_conversions WHERE lead_id = ?').pluck();
    this.list = {
      resource: 'lead_conversion',
      from: 'lead_conversions lc',
      json: CONVERSION_JSON,
      idColumn: 'lc.id',
      filters: {
        lead_id: { kind: 'id', column: 'lc.lead_id' },
        individual_id: { kind: 'id', column: 'lc.individual_id' },
        organization_id: { kind: 'id', column: 'lc.organization_id' },
        deal_id: { kind: 'id', column: 'lc.deal_id' },
        creator_id: { kind: 'id', column: 'lc.creator_id' },
      },
      // The real service takes no sort_by here: newest conversion first.
      sorts: {},
      defaultOrder: 'lc.id DESC',
      maxPerPage: 200,
      maxPage: 50,
      narrowing: ['cursor'],
      extraFilter: (name, value) => (name === 'cursor' ? { sql: 'lc.id < ?', params: [readCursor(value)] } : undefined),
    };
    // Conversions whose activities were still to move when the engine last closed.
    this.activities.schedule();
  }

  json(id: number): string {
    const json = this.byIdJson.get(id) as string | undefined;
    if (json === undefined) throw notFound('lead_conversion', id);
    return json;
  }

  /**
   * Pages by `page` (up to 50) or by `cursor` (the token in `next_page`,
   * naming the last conversion seen), never both at once.
   */
  listPage(query: RawQuery): ConversionPage {
    const cursor = single(query, 'cursor');
    const page = single(query, 'page');
    if (cursor !== undefined && page !== undefined && page !== '1') throw invalidParam('page', 'page and cursor cannot be combined');
    const result = runList(this.list, query, this.ctx.statements);
    const last = result.rows.at(-1);
    const nextCursor = result.hasMore && last !== undefined ? writeCursor((JSON.parse(last) as { id: number }).id) : null;
    return { ...result, nextCursor };
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { users, leads } = this.services();
    const { deal_value: dealValue, ...rest } = data;
    const { values, errors } = checkFields('lead_conversion', FIELDS, rest);
    let lead: Lead | undefined;
    if (!errors.has('/lead_id')) {
      if (values.lead_id === undefined || values.lead_id === null) errors.add('/lead_id', 'missing', 'lead_id is required.');
      else if (!leads.find(values.lead_id as number)) errors.add('/lead_id', 'incorrect_value', `There is no lead with id ${String(values.lead_id)}.`);
      else if (this.byLead.get(values.lead_id) !== undefined) errors.add('/lead_id', 'already_exists', `Lead ${String(values.lead_id)} has already been converted.`);
      else lead = JSON.parse(leads.json(values.lead_id as number)) as Lead;
    }
    users.checkReference('owner_id', values.owner_id, errors);
    const createDeal = values.create_deal !== false;
    const deal = dealChoice(values, dealValue, createDeal, data, errors);
    errors.throwIfAny();
    const ownerId = (values.owner_id as number | undefined) ?? lead!.owner_id;
    const id = this.ctx.db.transaction(() => this.convert(lead!, ownerId, createDeal ? deal : null, actor))();
    this.activities.schedule();
    return id;
  }

  /** Stops the background moves (the engine is closing). */
  stop(): void {
    this.activities.stop();
  }

  /** Creates the contacts and the deal, records the conversion and marks the lead converted. Runs in one transaction. */
  private convert(lead: Lead, ownerId: number, deal: DealChoice | null, actor: Actor): number {
    const { contacts, leads } = this.services();
    const hasPerson = !!lead.last_name?.trim();
    const hasOrganization = !!lead.organization_name?.trim();
    const both = hasPerson && hasOrganization;
    const common = { owner_id: ownerId, address: lead.address, tags: lead.tags };
    const organizationId = hasOrganization
      ? contacts.create({ ...common, ...copy(lead, both ? ORGANIZATION_FIELDS : CONTACT_TEXT_FIELDS), is_organization: true, name: lead.organization_name }, actor)
      : null;
    const individualId = hasPerson
      ? contacts.create({
        ...common, ...copy(lead, both ? PERSON_FIELDS : CONTACT_TEXT_FIELDS), first_name: lead.first_name, last_name: lead.last_name, contact_id: organizationId,
      }, actor)
      : null;
    const dealId = deal ? this.createDeal(lead, deal, ownerId, organizationId, individualId, actor) : null;
    const id = newRecordId(this.ctx, 'lead_conversions', 'lead_conversion');
    this.ctx.statements.get(`INSERT INTO lead_conversions (id, lead_id, individual_id, organization_id, deal_id, creator_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)`).run(id, lead.id, individualId, organizationId, dealId, actor.userId, isoSeconds(this.ctx.clock.now()));
    this.ctx.changes.record('lead_conversion', id, 'created', actor.userId);
    leads.setStatus(lead.id, CONVERTED_LEAD_STATUS, actor);
    return id;
  }

  /**
   * The deal a conversion makes: named after the organization and the person
   * (dealNameOfLead), its primary contact the organization when there is one,
   * with the person then associated with it, so the deal shows on the
   * person's page too. Leads carry no value: the deal takes the name, value
   * and currency the rep gave (`deal_*`), else starts at 0 in the account's
   * currency, as any deal created without one.
   */
  private createDeal(lead: Lead, deal: DealChoice, ownerId: number, organizationId: number | null, individualId: number | null, actor: Actor): number {
    const { deals, associatedContacts } = this.services();
    const chosen = { ...(deal.value !== undefined && { value: deal.value }), ...(deal.currency !== undefined && { currency: deal.currency }) };
    const dealId = deals.create({ name: deal.name ?? dealNameOfLead(lead), contact_id: organizationId ?? individualId, owner_id: ownerId, ...chosen }, actor);
    if (organizationId !== null && individualId !== null) associatedContacts.create(dealId, { contact_id: individualId }, actor);
    return dealId;
  }
}

/**
 * The deal's name, value and currency as sent, checked here so each error
 * names the conversion's own field: a blank name, a value that is not a
 * non-negative decimal, a currency not in ISO 4217; and none of them with
 * `create_deal` false (there would be no deal to give them to).
 */
function dealChoice(values: Record<string, unknown>, value: unknown, createDeal: boolean, data: Record<string, unknown>, errors: FieldErrors): DealChoice {
  if (!createDeal) {
    for (const field of DEAL_FIELDS) {
      if (data[field] !== undefined && data[field] !== null && !errors.has(`/${field}`)) errors.add(`/${field}`, 'incorrect_value', `${field} needs create_deal: no deal is created.`);
    }
    return {};
  }
  const choice: DealChoice = {};
  if (values.deal_name !== undefined && values.deal_name !== null && !errors.has('/deal_name')) {
    if (isBlank(values.deal_name)) errors.add('/deal_name', 'blank', "deal_name can't be blank.");
    else choice.name = (values.deal_name as string).trim();
  }
  if (value !== undefined && value !== null) {
    const parsed = parseDecimal(value);
    if (parsed.ok) choice.value = parsed.value;
    else errors.add('/deal_value', parsed.code, `deal_value ${parsed.problem}.`);
  }
  if (values.deal_currency !== undefined && values.deal_currency !== null && !errors.has('/deal_currency')) {
    const code = currencyCode(values.deal_currency);
    if (code) choice.currency = code;
    else errors.add('/deal_currency', 'incorrect_value', currencyCodeProblem('deal_currency', values.deal_currency));
  }
  return choice;
}

/** The given text fields of a lead that hold something. */
function copy(lead: Lead, fields: readonly ContactTextField[]): Record<string, string> {
  return Object.fromEntries(fields.flatMap((f) => (lead[f] ? [[f, lead[f]]] : [])));
}

/** Cursors are opaque to clients: the id of the last conversion seen, encoded. */
function writeCursor(lastId: number): string {
  return toBase64Url(utf8Bytes(`lead_conversion:${lastId}`));
}

function readCursor(token: string): number {
  const match = /^lead_conversion:(-?[1-9]\d{0,14})$/.exec(utf8Text(fromBase64(token)));
  if (!match || !/^[\w-]+$/.test(token)) throw invalidParam('cursor', 'not a cursor this service issued');
  return Number(match[1]);
}
