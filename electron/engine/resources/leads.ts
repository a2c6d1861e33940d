import type { EngineContext, Actor } from '../context.js';
import { FieldErrors, notFound } from '../problems.js';
import { assignColumns, checkFields, isBlank, type FieldTable } from './fields.js';
import { ftsPrefixQuery, idsMatching, runList, type Clause, type ListDefinition, type ListPage } from './listing.js';
import { jsonColumns, jsonObject } from '../db/sqlJson.js';
import { Tagging } from './tags.js';
import { RecordStore } from './recordStore.js';
import type { CustomFields } from './customFields.js';
import type { Users } from './users.js';
import type { RawQuery } from './params.js';
import { ADDRESS_KEYS } from '../../../shared/resources/address.js';
import { CONTACT_TEXT_FIELDS } from '../../../shared/resources/contact.js';
import { DEFAULT_LEAD_STATUS } from '../../../shared/resources/lead.js';
import type { SyncSource } from '../sync/sources.js';

/** The real service's Lead fields (the spec shows only the create shape). */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  owner_id: { kind: 'id' },
  first_name: { kind: 'string' },
  last_name: { kind: 'string' },
  organization_name: { kind: 'string' },
  status: { kind: 'string' },
  source_id: { kind: 'id' },
  unqualified_reason_id: { kind: 'id' },
  ...Object.fromEntries(CONTACT_TEXT_FIELDS.map((f) => [f, { kind: 'string', maxLength: f === 'description' ? 65535 : 255 }])),
  address: { kind: 'address' },
  tags: { kind: 'tags' },
  custom_fields: { kind: 'customFields' },
};

const LEAD_JSON = jsonObject({
  id: 'l.id',
  creator_id: 'l.creator_id',
  owner_id: 'l.owner_id',
  first_name: 'l.first_name',
  last_name: 'l.last_name',
  organization_name: 'l.organization_name',
  status: 'l.status',
  source_id: 'l.source_id',
  unqualified_reason_id: 'l.unqualified_reason_id',
  ...Object.fromEntries(CONTACT_TEXT_FIELDS.map((f) => [f, `l.${f}`])),
  address: jsonColumns('address', ADDRESS_KEYS, 'l', false),
  tags: Tagging.jsonArray('lead', 'l.id'),
  custom_fields: 'json(l.custom_fields)',
  created_at: 'l.created_at',
  updated_at: 'l.updated_at',
});

/** Leads as devices receive them (sync/): what GET serves. */
export const LEAD_SYNC: SyncSource = { type: 'lead', from: 'leads l', idColumn: 'l.id', json: LEAD_JSON };

/** The stored columns of a lead (the address flattened into `address_<key>` columns). */
export interface LeadRow {
  id: number;
  creator_id: number;
  owner_id: number;
  first_name: string | null;
  last_name: string | null;
  organization_name: string | null;
  status: string;
  source_id: number | null;
  unqualified_reason_id: number | null;
  custom_fields: string;
  [column: string]: unknown;
}

const WRITABLE_COLUMNS = [
  'owner_id', 'first_name', 'last_name', 'organization_name', 'status', 'source_id', 'unqualified_reason_id',
  ...CONTACT_TEXT_FIELDS, ...ADDRESS_KEYS.map((k) => `address_${k}`), 'custom_fields',
];

/** Leads at /v2/leads: individuals or organizations interested in what the account sells. */
export class Leads {
  private readonly byId;
  private readonly byIdJson;
  private readonly list: ListDefinition;
  private readonly store: RecordStore;

  constructor(
    private readonly ctx: EngineContext,
    private readonly users: Users,
    private readonly customFields: CustomFields,
    private readonly tagging: Tagging,
  ) {
    this.store = new RecordStore(ctx, 'leads', 'lead', WRITABLE_COLUMNS);
    this.byId = ctx.db.prepare('SELECT * FROM leads WHERE id = ?');
    this.byIdJson = ctx.db.prepare(`SELECT ${LEAD_JSON} FROM leads l WHERE l.id = ?`).pluck();
    this.list = this.listDefinition();
  }

  json(id: number): string {
    const json = this.byIdJson.get(id) as string | undefined;
    if (json === undefined) throw notFound('lead', id);
    return json;
  }

  find(id: number): LeadRow | undefined {
    return this.byId.get(id) as LeadRow | undefined;
  }

  /** `actor`: who is asking, for `smart_list_id` (a private smart list is its owner's only). */
  listPage(query: RawQuery, actor?: Actor): ListPage {
    return runList(this.list, query, this.ctx.statements, actor?.userId);
  }

  /** The list definition (filters, sorts) a smart list of leads is checked and run with. */
  listFor(): ListDefinition {
    return this.list;
  }

  idsMatching(query: RawQuery, actor?: Actor): number[] {
    return idsMatching(this.list, query, this.ctx.statements, actor?.userId);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { values, errors } = checkFields('lead', FIELDS, data);
    if (values.status === undefined) values.status = DEFAULT_LEAD_STATUS;
    const row = this.apply({ owner_id: actor.userId, custom_fields: '{}' }, values, errors, true);
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId, (id) => {
      if (Array.isArray(values.tags)) this.tagging.replace('lead', id, values.tags as string[], actor.userId);
    });
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.find(id);
    if (!current) throw notFound('lead', id);
    const { values, errors } = checkFields('lead', FIELDS, data);
    const row = this.apply({ ...current }, values, errors, false);
    this.store.update(id, row, actor.userId, () => {
      if (values.tags !== undefined) this.tagging.replace('lead', id, (values.tags as string[] | null) ?? [], actor.userId);
    });
  }

  /**
   * Sets a lead's status (a conversion marks its lead converted). Call inside
   * the caller's transaction; logged as an update.
   */
  setStatus(id: number, status: string, actor: Actor): void {
    const current = this.find(id);
    if (!current) throw notFound('lead', id);
    this.store.update(id, { ...current, status }, actor.userId);
  }

  /** A deleted lead takes its tags and everything attached to it (tasks, notes, …) with it. */
  delete(id: number, actor: Actor): void {
    if (!this.find(id)) throw notFound('lead', id);
    this.store.remove(id, actor.userId, () => {
      this.tagging.removeAll('lead', id);
      this.ctx.dependents.deleted('lead', id, actor.userId);
    });
  }

  /** Merges checked values into the row and enforces the rules across fields and records; throws one 422 with every problem. */
  private apply(row: Partial<LeadRow>, values: Record<string, unknown>, errors: FieldErrors, creating: boolean): Partial<LeadRow> {
    const out: Partial<LeadRow> = { ...row };
    assignColumns(out, values, FIELDS, ['tags', 'custom_fields']);
    this.requireName(out, values, errors, creating);
    if (values.status !== undefined && isBlank(values.status) && !errors.has('/status')) errors.add('/status', 'blank', "status can't be blank.");
    this.users.checkReference('owner_id', values.owner_id, errors);
    this.checkReference('source_id', values.source_id, "SELECT 1 FROM sources WHERE id = ? AND resource_type = 'lead'", 'lead source', errors);
    this.checkReference('unqualified_reason_id', values.unqualified_reason_id, 'SELECT 1 FROM lead_unqualified_reasons WHERE id = ?', 'lead unqualified reason', errors);
    if (values.custom_fields !== undefined) out.custom_fields = this.customFields.mergeColumn('lead', row.custom_fields, values.custom_fields, errors);
    errors.throwIfAny();
    return out;
  }

  /**
   * A lead is a person (last_name) or an organization (organization_name), or
   * both: one error when it would have neither (the real service answers an
   * empty lead with exactly one error).
   */
  private requireName(out: Partial<LeadRow>, values: Record<string, unknown>, errors: FieldErrors, creating: boolean): void {
    if (errors.has('/last_name') || errors.has('/organization_name')) return;
    if (!isBlank(out.last_name) || !isBlank(out.organization_name)) return;
    const neverGiven = creating && values.last_name === undefined && values.organization_name === undefined;
    errors.add('/last_name', neverGiven ? 'missing' : 'blank', 'A lead needs a last_name or an organization_name.');
  }

  /** An id field naming a row found by `existsSql`; null clears it. */
  private checkReference(field: string, value: unknown, existsSql: string, what: string, errors: FieldErrors): void {
    if (value === undefined || value === null || errors.has(`/${field}`)) return;
    if (this.ctx.statements.get(existsSql).get(value) === undefined) {
      errors.add(`/${field}`, 'incorrect_value', `There is no ${what} with id ${String(value)}.`);
    }
  }

  private listDefinition(): ListDefinition {
    const addressFilters = Object.fromEntries(ADDRESS_KEYS.map((k) => [`address[${k}]`, { kind: 'string' as const, column: `l.address_${k}` }]));
    return {
      resource: 'lead',
      from: 'leads l',
      json: LEAD_JSON,
      idColumn: 'l.id',
      filters: {
        creator_id: { kind: 'id', column: 'l.creator_id' },
        owner_id: { kind: 'id', column: 'l.owner_id' },
        source_id: { kind: 'id', column: 'l.source_id' },
        unqualified_reason_id: { kind: 'id', column: 'l.unqualified_reason_id' },
        first_name: { kind: 'string', column: 'l.first_name' },
        last_name: { kind: 'string', column: 'l.last_name' },
        organization_name: { kind: 'string', column: 'l.organization_name' },
        email: { kind: 'string', column: 'l.email' },
        phone: { kind: 'phone', column: 'l.phone' },
        mobile: { kind: 'phone', column: 'l.mobile' },
        status: { kind: 'string', column: 'l.status' },
        ...addressFilters,
      },
      sorts: {
        id: 'l.id', first_name: 'l.first_name', last_name: 'l.last_name', organization_name: 'l.organization_name',
        email: 'l.email', status: 'l.status', updated_at: 'l.updated_at', created_at: 'l.created_at',
      },
      // The real service lists leads by updated_at.
      defaultOrder: 'l.updated_at ASC',
      narrowing: ['q'],
      extraFilter: (name, value) => this.extraFilter(name, value),
      extraSort: (name) => this.customFields.sort('lead', name, 'l.custom_fields'),
    };
  }

  /** Extensions beyond the real service's exact filters: `q` (search as you type) and `tag`; plus custom fields. */
  private extraFilter(name: string, value: string): Clause | undefined {
    if (name === 'q') return ftsPrefixQuery('leads_fts', 'l.id', value);
    if (name === 'tag') return { sql: Tagging.hasTag('lead', 'l.id'), params: [value] };
    return this.customFields.filter('lead', name, value, 'l.custom_fields');
  }
}
