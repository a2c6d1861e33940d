import type { EngineContext, Actor } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, notFound } from '../problems.js';
import { assignColumns, checkFields, isBlank, type FieldTable } from './fields.js';
import { ftsPrefixQuery, idsMatching, runList, type Clause, type ListDefinition, type ListPage } from './listing.js';
import { jsonBool, jsonColumns, jsonObject } from '../db/sqlJson.js';
import { Tagging } from './tags.js';
import { installDocuments } from '../db/documents.js';
import { RecordStore } from './recordStore.js';
import type { CustomFields } from './customFields.js';
import type { Users } from './users.js';
import type { RawQuery } from './params.js';
import { ADDRESS_KEYS, type Address } from '../../../shared/resources/address.js';
import {
  CONTACT_TEXT_FIELDS, CUSTOMER_STATUSES, PROSPECT_STATUSES, type CustomerStatus, type ProspectStatus,
} from '../../../shared/resources/contact.js';
import type { SyncSource } from '../sync/sources.js';

/** The spec's Contact field table. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  owner_id: { kind: 'id' },
  is_organization: { kind: 'boolean', createOnly: true },
  contact_id: { kind: 'id' },
  parent_organization_id: { kind: 'id' },
  name: { kind: 'string' },
  first_name: { kind: 'string' },
  last_name: { kind: 'string' },
  customer_status: { kind: 'enum', values: CUSTOMER_STATUSES },
  prospect_status: { kind: 'enum', values: PROSPECT_STATUSES },
  ...Object.fromEntries(CONTACT_TEXT_FIELDS.map((f) => [f, { kind: 'string', maxLength: f === 'description' ? 65535 : 255 }])),
  address: { kind: 'address' },
  billing_address: { kind: 'address' },
  shipping_address: { kind: 'address' },
  tags: { kind: 'tags' },
  custom_fields: { kind: 'customFields' },
};

const ADDRESS_FIELDS = ['address', 'billing_address', 'shipping_address'] as const;
type AddressField = (typeof ADDRESS_FIELDS)[number];

export const CONTACT_JSON = jsonObject({
  id: 'c.id',
  creator_id: 'c.creator_id',
  owner_id: 'c.owner_id',
  is_organization: jsonBool('c.is_organization'),
  contact_id: 'c.contact_id',
  parent_organization_id: 'c.parent_organization_id',
  name: 'c.name',
  first_name: 'c.first_name',
  last_name: 'c.last_name',
  customer_status: 'c.customer_status',
  prospect_status: 'c.prospect_status',
  ...Object.fromEntries(CONTACT_TEXT_FIELDS.map((f) => [f, `c.${f}`])),
  address: jsonColumns('address', ADDRESS_KEYS, 'c', false),
  billing_address: jsonColumns('billing_address', ADDRESS_KEYS, 'c', true),
  shipping_address: jsonColumns('shipping_address', ADDRESS_KEYS, 'c', true),
  tags: Tagging.jsonArray('contact', 'c.id'),
  custom_fields: 'json(c.custom_fields)',
  created_at: 'c.created_at',
  updated_at: 'c.updated_at',
});

/** The stored columns of a contact (addresses flattened into `<field>_<key>` columns). */
interface ContactRow {
  id: number;
  creator_id: number;
  owner_id: number;
  is_organization: number;
  contact_id: number | null;
  parent_organization_id: number | null;
  name: string | null;
  first_name: string | null;
  last_name: string | null;
  customer_status: CustomerStatus;
  prospect_status: ProspectStatus;
  custom_fields: string;
  [column: string]: unknown;
}

const WRITABLE_COLUMNS = [
  'owner_id', 'is_organization', 'contact_id', 'parent_organization_id', 'name', 'first_name', 'last_name',
  'customer_status', 'prospect_status', ...CONTACT_TEXT_FIELDS,
  ...ADDRESS_FIELDS.flatMap((f) => ADDRESS_KEYS.map((k) => `${f}_${k}`)),
  'custom_fields',
];

/** Full name of an individual, kept in `name` so filters, sorting and search treat both kinds alike. */
const fullName = (first: string | null, last: string | null) => [first, last].filter(Boolean).join(' ') || null;

/** Fields of one kind of contact only (spec: Contact). */
const INDIVIDUAL_ONLY: readonly string[] = ['first_name', 'last_name', 'contact_id'];
const ORGANIZATION_ONLY: readonly string[] = ['name', 'parent_organization_id'];

/**
 * The body without the fields of the other kind, which are ignored rather than
 * refused, as the real service does: the official clients' test fixtures create
 * individuals with a `name` beside `first_name` and `last_name`. (An individual's
 * `name` is derived from those two anyway.)
 */
function withoutOtherKindFields(data: Record<string, unknown>, isOrganization: boolean): Record<string, unknown> {
  const ignored = isOrganization ? INDIVIDUAL_ONLY : ORGANIZATION_ONLY;
  return Object.fromEntries(Object.entries(data).filter(([field]) => !ignored.includes(field)));
}

export class Contacts {
  private readonly byIdJson;
  private readonly byId;
  /** Contacts as devices receive them (sync/): the JSON GET serves. */
  readonly syncSource: SyncSource;
  private readonly list: ListDefinition;
  private readonly store: RecordStore;

  constructor(
    private readonly ctx: EngineContext,
    private readonly users: Users,
    private readonly customFields: CustomFields,
    private readonly tagging: Tagging,
  ) {
    // Stored on a hub; a replica builds each contact's JSON when read (db/documents.ts says why).
    const documents = installDocuments(ctx.db, {
      table: 'contacts',
      docTable: 'contact_docs',
      alias: 'c',
      json: CONTACT_JSON,
      dependencies: [
        { table: 'taggings', event: 'INSERT', ids: "SELECT NEW.resource_id WHERE NEW.resource_type = 'contact'" },
        { table: 'taggings', event: 'DELETE', ids: "SELECT OLD.resource_id WHERE OLD.resource_type = 'contact'" },
        { table: 'tags', event: 'UPDATE', ids: "SELECT resource_id FROM taggings WHERE tag_id = NEW.id AND resource_type = 'contact'" },
      ],
    }, !ctx.replica);
    this.byIdJson = ctx.db.prepare(`SELECT ${documents.json} FROM ${documents.from} WHERE ${documents.idColumn} = ?`).pluck();
    this.syncSource = { type: 'contact', from: documents.from, idColumn: documents.idColumn, json: documents.json, records: documents.records };
    this.store = new RecordStore(ctx, 'contacts', 'contact', WRITABLE_COLUMNS);
    this.byId = ctx.db.prepare('SELECT * FROM contacts WHERE id = ?');
    this.list = this.listDefinition(documents.ofRow);
  }

  json(id: number): string {
    const json = this.byIdJson.get(id) as string | undefined;
    if (json === undefined) throw notFound('contact', id);
    return json;
  }

  find(id: number): ContactRow | undefined {
    return this.byId.get(id) as ContactRow | undefined;
  }

  /** `actor`: who is asking, for `smart_list_id` (a private smart list is its owner's only). */
  listPage(query: RawQuery, actor?: Actor): ListPage {
    return runList(this.list, query, this.ctx.statements, actor?.userId);
  }

  /** The list definition (filters, sorts) a smart list of contacts is checked and run with. */
  listFor(): ListDefinition {
    return this.list;
  }

  idsMatching(query: RawQuery, actor?: Actor): number[] {
    return idsMatching(this.list, query, this.ctx.statements, actor?.userId);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const isOrganization = data.is_organization === true;
    const { values, errors } = checkFields('contact', FIELDS, withoutOtherKindFields(data, isOrganization));
    const row: Partial<ContactRow> = {
      owner_id: actor.userId,
      is_organization: isOrganization ? 1 : 0,
      customer_status: 'none',
      prospect_status: 'none',
      custom_fields: '{}',
    };
    this.requireName(values, isOrganization, errors, true);
    const merged = this.apply(row, values, errors);
    return this.store.insert(merged, { creator_id: actor.userId }, actor.userId, (id) => {
      if (Array.isArray(values.tags)) this.tagging.replace('contact', id, values.tags as string[], actor.userId);
    });
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.find(id);
    if (!current) throw notFound('contact', id);
    const { values, errors } = checkFields('contact', FIELDS, withoutOtherKindFields(data, current.is_organization === 1));
    if (values.is_organization !== undefined && values.is_organization !== (current.is_organization === 1)) {
      errors.add('/is_organization', 'incorrect_value', 'is_organization can be set only when the contact is created.');
    }
    this.requireName(values, current.is_organization === 1, errors, false);
    const merged = this.apply({ ...current }, values, errors);
    this.store.update(id, merged, actor.userId, () => {
      if (values.tags !== undefined) this.tagging.replace('contact', id, (values.tags as string[] | null) ?? [], actor.userId);
    });
  }

  /** Deleting an organization detaches its people and child organizations (each logged as updated). */
  delete(id: number, actor: Actor): void {
    if (!this.find(id)) throw notFound('contact', id);
    const { db } = this.ctx;
    this.store.remove(id, actor.userId, () => {
      const now = isoSeconds(this.ctx.clock.now());
      for (const column of ['contact_id', 'parent_organization_id']) {
        const dependents = db.prepare(`SELECT id FROM contacts WHERE ${column} = ?`).pluck().all(id) as number[];
        db.prepare(`UPDATE contacts SET ${column} = NULL, updated_at = ? WHERE ${column} = ?`).run(now, id);
        for (const dependent of dependents) this.ctx.changes.record('contact', dependent, 'updated', actor.userId);
      }
      this.tagging.removeAll('contact', id);
      this.ctx.dependents.deleted('contact', id, actor.userId);
    });
  }

  /** `name` is required for organizations, `last_name` for individuals (spec: Errors 7). */
  private requireName(values: Record<string, unknown>, isOrganization: boolean, errors: FieldErrors, creating: boolean): void {
    const field = isOrganization ? 'name' : 'last_name';
    if (errors.has(`/${field}`)) return;
    const kind = isOrganization ? 'an organization' : 'an individual';
    if (creating && values[field] === undefined) errors.add(`/${field}`, 'missing', `${field} is required for ${kind}.`);
    else if (values[field] !== undefined && isBlank(values[field])) errors.add(`/${field}`, 'blank', `${field} can't be blank for ${kind}.`);
  }

  /**
   * Applies checked values onto a row and enforces the rules that involve
   * several fields or other records; throws a 422 listing every problem.
   */
  private apply(row: Partial<ContactRow>, values: Record<string, unknown>, errors: FieldErrors): Partial<ContactRow> {
    const isOrganization = row.is_organization === 1;
    const out: Partial<ContactRow> = { ...row };
    assignColumns(out, values, FIELDS, ['is_organization', 'tags', 'custom_fields']);
    this.checkReferences(out, values, errors);
    this.checkStatuses(out, values, errors);
    if (values.custom_fields !== undefined) out.custom_fields = this.customFields.mergeColumn('contact', row.custom_fields, values.custom_fields, errors, isOrganization);
    errors.throwIfAny();
    if (!isOrganization) out.name = fullName(out.first_name ?? null, out.last_name ?? null);
    return out;
  }

  private checkReferences(out: Partial<ContactRow>, values: Record<string, unknown>, errors: FieldErrors): void {
    this.users.checkReference('owner_id', values.owner_id, errors);
    for (const field of ['contact_id', 'parent_organization_id'] as const) {
      const target = values[field];
      if (target === undefined || target === null || errors.has(`/${field}`)) continue;
      const org = this.find(target as number);
      if (!org || org.is_organization !== 1) {
        errors.add(`/${field}`, 'incorrect_value', `${field} must point to an existing organization.`);
      } else if (field === 'parent_organization_id' && out.id !== undefined && this.isAncestorOrSelf(out.id, org.id)) {
        errors.add(`/${field}`, 'incorrect_value', 'parent_organization_id would make an organization its own ancestor.');
      }
    }
  }

  private isAncestorOrSelf(id: number, start: number): boolean {
    const seen = new Set<number>();
    for (let at: number | null = start; at !== null && !seen.has(at); at = this.find(at)?.parent_organization_id ?? null) {
      if (at === id) return true;
      seen.add(at);
    }
    return false;
  }

  /**
   * A lost prospect was never a customer; billing and shipping addresses apply
   * only to customers and prospects (a status other than `none`).
   */
  private checkStatuses(out: Partial<ContactRow>, values: Record<string, unknown>, errors: FieldErrors): void {
    if (out.prospect_status === 'lost' && out.customer_status !== 'none' && !errors.has('/prospect_status')) {
      errors.add('/prospect_status', 'incorrect_value', 'A lost prospect cannot be a customer: set customer_status to none.');
    }
    if (out.customer_status !== 'none' || out.prospect_status !== 'none') return;
    for (const field of ['billing_address', 'shipping_address'] as const) {
      const given = values[field] as Partial<Address> | null | undefined;
      if (given && ADDRESS_KEYS.some((k) => !isBlank(given[k]))) {
        errors.add(`/${field}`, 'incorrect_value', `${field} applies only when customer_status or prospect_status is not none.`);
      }
      for (const key of ADDRESS_KEYS) out[`${field}_${key}`] = null;
    }
  }

  private listDefinition(json: string): ListDefinition {
    const addressFilters = Object.fromEntries(
      ADDRESS_FIELDS.flatMap((f: AddressField) =>
        ADDRESS_KEYS.map((k) => [`${f}[${k}]`, { kind: 'string' as const, column: `c.${f}_${k}` }]),
      ),
    );
    return {
      resource: 'contact',
      from: 'contacts c',
      json,
      idColumn: 'c.id',
      filters: {
        creator_id: { kind: 'id', column: 'c.creator_id' },
        owner_id: { kind: 'id', column: 'c.owner_id' },
        is_organization: { kind: 'bool', column: 'c.is_organization' },
        contact_id: { kind: 'id', column: 'c.contact_id' },
        parent_organization_id: { kind: 'id', column: 'c.parent_organization_id' },
        name: { kind: 'string', column: 'c.name' },
        first_name: { kind: 'string', column: 'c.first_name' },
        last_name: { kind: 'string', column: 'c.last_name' },
        email: { kind: 'string', column: 'c.email' },
        phone: { kind: 'phone', column: 'c.phone' },
        mobile: { kind: 'phone', column: 'c.mobile' },
        customer_status: { kind: 'enum', column: 'c.customer_status', values: CUSTOMER_STATUSES },
        prospect_status: { kind: 'enum', column: 'c.prospect_status', values: PROSPECT_STATUSES },
        ...addressFilters,
      },
      sorts: {
        id: 'c.id', name: 'c.name', first_name: 'c.first_name', last_name: 'c.last_name', email: 'c.email',
        updated_at: 'c.updated_at', created_at: 'c.created_at',
      },
      defaultOrder: 'c.last_name ASC',
      narrowing: ['q'],
      extraFilter: (name, value) => this.extraFilter(name, value),
      extraSort: (name) => this.customFields.sort('contact', name, 'c.custom_fields'),
    };
  }

  /** Extensions beyond the spec's exact filters: `q` (search as you type) and `tag`; plus custom fields. */
  private extraFilter(name: string, value: string): Clause | undefined {
    if (name === 'q') return ftsPrefixQuery('contacts_fts', 'c.id', value);
    if (name === 'tag') return { sql: Tagging.hasTag('contact', 'c.id'), params: [value] };
    return this.customFields.filter('contact', name, value, 'c.custom_fields');
  }
}
