import type { Actor, EngineContext } from '../context.js';
import { notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { RecordStore } from './recordStore.js';
import { jsonObject } from '../db/sqlJson.js';
import type { Contacts } from './contacts.js';
import type { Deals } from './deals.js';
import { DEFAULT_ASSOCIATED_CONTACT_ROLE } from '../../../shared/resources/deal.js';
import type { SyncSource } from '../sync/sources.js';

export const FIELDS: FieldTable = {
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  contact_id: { kind: 'id' },
  role: { kind: 'string' },
};

/** The spec's shape: an association is named by its deal (the path) and its contact. */
const ASSOCIATED_CONTACT_JSON = jsonObject({ contact_id: 'a.contact_id', role: 'a.role', created_at: 'a.created_at', updated_at: 'a.updated_at' });

/**
 * An association on its own: with its surrogate `id` and its `deal_id`. Devices
 * hold associations apart from their deals, and `/v2/associated_contacts` (an
 * Outpost extension, the form a desktop replica replays its changes in) serves it.
 */
const ASSOCIATION_JSON = jsonObject({ id: 'a.id', deal_id: 'a.deal_id', contact_id: 'a.contact_id', role: 'a.role', created_at: 'a.created_at', updated_at: 'a.updated_at' });

export const ASSOCIATED_CONTACT_SYNC: SyncSource = { type: 'associated_contact', from: 'associated_contacts a', idColumn: 'a.id', json: ASSOCIATION_JSON };

export const FLAT_FIELDS: FieldTable = { ...FIELDS, id: { kind: 'readOnly' }, deal_id: { kind: 'id' } };

/** The list of associations by their own id (`/v2/associated_contacts`); the OpenAPI document lists its filters and sorts from it. */
export const FLAT_LIST: ListDefinition = {
  resource: 'associated_contact', from: 'associated_contacts a', json: ASSOCIATION_JSON, idColumn: 'a.id',
  filters: { deal_id: { kind: 'id', column: 'a.deal_id' }, contact_id: { kind: 'id', column: 'a.contact_id' } },
  sorts: { id: 'a.id', created_at: 'a.created_at', updated_at: 'a.updated_at' }, defaultOrder: 'a.id ASC',
};

/**
 * The contacts associated with a deal, each with a role (`involved` unless
 * given), at /v2/deals/:deal_id/associated_contacts. A contact is associated
 * with a deal at most once. Associations go with their deal and with their
 * contact.
 */
export class AssociatedContacts {
  private readonly store: RecordStore;
  private readonly byPair;

  constructor(private readonly ctx: EngineContext, private readonly deals: Deals, private readonly contacts: Contacts) {
    this.store = new RecordStore(ctx, 'associated_contacts', 'associated_contact', ['deal_id', 'contact_id', 'role']);
    this.byPair = ctx.db.prepare('SELECT id FROM associated_contacts WHERE deal_id = ? AND contact_id = ?').pluck();
    const ofDeal = ctx.db.prepare('SELECT id FROM associated_contacts WHERE deal_id = ?').pluck();
    const ofContact = ctx.db.prepare('SELECT id FROM associated_contacts WHERE contact_id = ?').pluck();
    ctx.dependents.onDelete((type, id, actorId) => {
      const statement = type === 'deal' ? ofDeal : type === 'contact' ? ofContact : null;
      for (const association of (statement?.all(id) ?? []) as number[]) this.store.remove(association, actorId);
    });
  }

  listPage(dealId: number, query: RawQuery): ListPage {
    this.requireDeal(dealId);
    return runList({
      resource: 'associated_contact',
      from: 'associated_contacts a',
      json: ASSOCIATED_CONTACT_JSON,
      idColumn: 'a.id',
      filters: {},
      sorts: {},
      defaultOrder: 'a.id ASC',
      scope: [{ sql: 'a.deal_id = ?', params: [dealId] }],
    }, query, this.ctx.statements);
  }

  json(dealId: number, contactId: number): string {
    const json = this.ctx.statements.get(`SELECT ${ASSOCIATED_CONTACT_JSON} FROM associated_contacts a WHERE a.deal_id = ? AND a.contact_id = ?`)
      .pluck().get(dealId, contactId) as string | undefined;
    if (json === undefined) throw notFound('associated_contact', contactId);
    return json;
  }

  /** Associates a contact with the deal; answers the association's own id. */
  create(dealId: number, data: Record<string, unknown>, actor: Actor, fields = FIELDS): number {
    this.requireDeal(dealId);
    const { values, errors } = checkFields('associated_contact', fields, data);
    const contactId = values.contact_id;
    if (!errors.has('/contact_id')) {
      if (contactId === undefined) errors.add('/contact_id', 'missing', 'contact_id is required.');
      else if (contactId === null) errors.add('/contact_id', 'blank', "contact_id can't be blank.");
      else if (!this.contacts.find(contactId as number)) errors.add('/contact_id', 'incorrect_value', `There is no contact with id ${String(contactId)}.`);
      else if (this.byPair.get(dealId, contactId) !== undefined) {
        errors.add('/contact_id', 'already_exists', `Contact ${String(contactId)} is already associated with deal ${dealId}.`);
      }
    }
    if (values.role !== undefined && isBlank(values.role) && !errors.has('/role')) errors.add('/role', 'blank', "role can't be blank.");
    errors.throwIfAny();
    const role = (values.role as string | undefined)?.trim() ?? DEFAULT_ASSOCIATED_CONTACT_ROLE;
    return this.store.insert({ deal_id: dealId, contact_id: contactId, role }, { creator_id: actor.userId }, actor.userId);
  }

  /** The id of the deal's association with the contact (404 when there is none). */
  idOf(dealId: number, contactId: number): number {
    this.requireDeal(dealId);
    const id = this.byPair.get(dealId, contactId) as number | undefined;
    if (id === undefined) throw notFound('associated_contact', contactId);
    return id;
  }

  /** The contact an association names. */
  contactOf(id: number): number {
    const contactId = this.ctx.statements.get('SELECT contact_id FROM associated_contacts WHERE id = ?').pluck().get(id) as number | undefined;
    if (contactId === undefined) throw notFound('associated_contact', id);
    return contactId;
  }

  remove(id: number, actor: Actor): void {
    this.contactOf(id);
    this.store.remove(id, actor.userId);
  }

  /**
   * `/v2/associated_contacts` (extension): associations addressed by their own
   * id, with `deal_id` in the body; what a replica replays its changes as.
   */
  get flat() {
    const json = (id: number) => {
      const found = this.ctx.statements.get(`SELECT ${ASSOCIATION_JSON} FROM associated_contacts a WHERE a.id = ?`).pluck().get(id) as string | undefined;
      if (found === undefined) throw notFound('associated_contact', id);
      return found;
    };
    return {
      json,
      listPage: (query: RawQuery) => runList(FLAT_LIST, query, this.ctx.statements),
      create: (data: Record<string, unknown>, actor: Actor) => {
        const { deal_id: dealId, ...rest } = data;
        const checked = checkFields('associated_contact', { deal_id: FLAT_FIELDS.deal_id }, dealId === undefined ? {} : { deal_id: dealId });
        if (dealId === undefined || dealId === null) checked.errors.add('/deal_id', 'missing', 'deal_id is required.');
        else if (!checked.errors.has('/deal_id') && !this.deals.exists(checked.values.deal_id as number)) {
          checked.errors.add('/deal_id', 'incorrect_value', `There is no deal with id ${String(dealId)}.`);
        }
        checked.errors.throwIfAny();
        return this.create(checked.values.deal_id as number, rest, actor, FLAT_FIELDS);
      },
      delete: (id: number, actor: Actor) => this.remove(id, actor),
    };
  }

  private requireDeal(dealId: number): void {
    if (!this.deals.exists(dealId)) throw notFound('deal', dealId);
  }
}
