import { newRecordId, type Actor, type EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { invalidParam, notFound } from '../problems.js';
import { checkFields, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import { single, type RawQuery } from './params.js';
import { jsonObject } from './sqlJson.js';
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
};

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
    const { values, errors } = checkFields('lead_conversion', FIELDS, data);
    let lead: Lead | undefined;
    if (!errors.has('/lead_id')) {
      if (values.lead_id === undefined || values.lead_id === null) errors.add('/lead_id', 'missing', 'lead_id is required.');
      else if (!leads.find(values.lead_id as number)) errors.add('/lead_id', 'incorrect_value', `There is no lead with id ${String(values.lead_id)}.`);
      else if (this.byLead.get(values.lead_id) !== undefined) errors.add('/lead_id', 'already_exists', `Lead ${String(values.lead_id)} has already been converted.`);
      else lead = JSON.parse(leads.json(values.lead_id as number)) as Lead;
    }
    users.checkReference('owner_id', values.owner_id, errors);
    errors.throwIfAny();
    const ownerId = (values.owner_id as number | undefined) ?? lead!.owner_id;
    const id = this.ctx.db.transaction(() => this.convert(lead!, ownerId, values.create_deal !== false, actor))();
    this.activities.schedule();
    return id;
  }

  /** Stops the background moves (the engine is closing). */
  stop(): void {
    this.activities.stop();
  }

  /** Creates the contacts and the deal, records the conversion and marks the lead converted. Runs in one transaction. */
  private convert(lead: Lead, ownerId: number, createDeal: boolean, actor: Actor): number {
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
    const dealId = createDeal ? this.createDeal(lead, ownerId, organizationId, individualId, actor) : null;
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
   * person's page too. Leads carry no value, so the deal starts at 0, as any
   * deal created without one.
   */
  private createDeal(lead: Lead, ownerId: number, organizationId: number | null, individualId: number | null, actor: Actor): number {
    const { deals, associatedContacts } = this.services();
    const dealId = deals.create({ name: dealNameOfLead(lead), contact_id: organizationId ?? individualId, owner_id: ownerId }, actor);
    if (organizationId !== null && individualId !== null) associatedContacts.create(dealId, { contact_id: individualId }, actor);
    return dealId;
  }
}

/** The given text fields of a lead that hold something. */
function copy(lead: Lead, fields: readonly ContactTextField[]): Record<string, string> {
  return Object.fromEntries(fields.flatMap((f) => (lead[f] ? [[f, lead[f]]] : [])));
}

/** Cursors are opaque to clients: the id of the last conversion seen, encoded. */
function writeCursor(lastId: number): string {
  return Buffer.from(`lead_conversion:${lastId}`).toString('base64url');
}

function readCursor(token: string): number {
  const match = /^lead_conversion:(-?[1-9]\d{0,14})$/.exec(Buffer.from(token, 'base64url').toString('utf8'));
  if (!match || !/^[\w-]+$/.test(token)) throw invalidParam('cursor', 'not a cursor this service issued');
  return Number(match[1]);
}
