import { randomBytes } from '../platform/crypto.js';
import { toHex } from '../bytes.js';
import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { FieldErrors, invalidParam, notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { idsMatching, runList, type Clause, type ListDefinition, type ListPage } from './listing.js';
import { parseDateTime, recordIdParam, type RawQuery } from './params.js';
import { RecordStore, recordJson } from './recordStore.js';
import { jsonBool, jsonObject } from '../db/sqlJson.js';
import { Tagging } from './tags.js';
import { currencyCode, currencyCodeProblem, decimalSortKey, parseDecimal } from './decimal.js';
import type { Contacts } from './contacts.js';
import type { CustomFields } from './customFields.js';
import type { Stages } from './stages.js';
import type { Users } from './users.js';
import type { SyncSource } from '../sync/sources.js';

/**
 * The real service's deal fields. `value` is not in the table: it is a
 * decimal, parsed on its own (resources/decimal.ts). What the service keeps
 * itself is read-only: sent back, it is accepted and ignored.
 */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  dropbox_email: { kind: 'readOnly' },
  last_stage_change_at: { kind: 'readOnly' },
  last_stage_change_by_id: { kind: 'readOnly' },
  last_activity_at: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  owner_id: { kind: 'id' },
  name: { kind: 'string' },
  currency: { kind: 'string' },
  hot: { kind: 'boolean' },
  stage_id: { kind: 'id' },
  contact_id: { kind: 'id' },
  organization_id: { kind: 'id' },
  source_id: { kind: 'id' },
  loss_reason_id: { kind: 'id' },
  unqualified_reason_id: { kind: 'id' },
  estimated_close_date: { kind: 'string' },
  customized_win_likelihood: { kind: 'integer', min: 0 },
  added_on: { kind: 'string' },
  tags: { kind: 'tags' },
  custom_fields: { kind: 'customFields' },
};

const DEAL_JSON = jsonObject({
  id: 'd.id',
  creator_id: 'd.creator_id',
  owner_id: 'd.owner_id',
  name: 'd.name',
  value: 'd.value',
  currency: 'd.currency',
  hot: jsonBool('d.hot'),
  stage_id: 'd.stage_id',
  contact_id: 'd.contact_id',
  organization_id: 'd.organization_id',
  source_id: 'd.source_id',
  loss_reason_id: 'd.loss_reason_id',
  unqualified_reason_id: 'd.unqualified_reason_id',
  dropbox_email: 'd.dropbox_email',
  last_stage_change_at: 'd.last_stage_change_at',
  last_stage_change_by_id: 'd.last_stage_change_by_id',
  last_activity_at: 'd.last_activity_at',
  estimated_close_date: 'd.estimated_close_date',
  customized_win_likelihood: 'd.customized_win_likelihood',
  added_on: 'd.added_on',
  tags: Tagging.jsonArray('deal', 'd.id'),
  custom_fields: 'json(d.custom_fields)',
  created_at: 'd.created_at',
  updated_at: 'd.updated_at',
});

/** Deals as devices receive them (sync/). */
export const DEAL_SYNC: SyncSource = { type: 'deal', from: 'deals d', idColumn: 'd.id', json: DEAL_JSON };

const WRITABLE = [
  'owner_id', 'name', 'value', 'currency', 'hot', 'stage_id', 'contact_id', 'organization_id', 'source_id',
  'loss_reason_id', 'unqualified_reason_id', 'dropbox_email', 'last_stage_change_at', 'last_stage_change_by_id',
  'estimated_close_date', 'customized_win_likelihood', 'added_on', 'custom_fields',
] as const;

type DealRow = { id?: number } & Partial<Record<(typeof WRITABLE)[number], unknown>>;

/** The lists a deal refers to by id, each checked to exist (a source must be a deal source). */
const LOOKUPS = [
  { field: 'source_id', sql: "SELECT 1 FROM sources WHERE id = ? AND resource_type = 'deal'", what: 'deal source' },
  { field: 'loss_reason_id', sql: 'SELECT 1 FROM loss_reasons WHERE id = ?', what: 'loss reason' },
  { field: 'unqualified_reason_id', sql: 'SELECT 1 FROM deal_unqualified_reasons WHERE id = ?', what: 'deal unqualified reason' },
] as const;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD (2026-02-30 is not one). */
function isCalendarDate(text: string): boolean {
  const match = DATE.exec(text);
  if (!match) return false;
  const date = new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])));
  return date.toISOString().startsWith(text);
}

/**
 * The day a date field names: `YYYY-MM-DD`, or the date part, as written, of an
 * ISO 8601 date-time (the Java client's test fixtures send
 * `estimated_close_date: "2014-09-27T16:32:56Z"`); null when it is neither.
 */
function calendarDayOf(text: string): string | null {
  const day = text.slice(0, 10);
  if (!isCalendarDate(day)) return null;
  return text.length === day.length || parseDateTime(text) !== null ? day : null;
}

/**
 * Deals at /v2/deals. A deal sits in one stage of a pipeline (by default the
 * first stage of the default pipeline); moving it to another stage records
 * when and by whom. Its primary contact is required on create, as the real
 * service has it; its organization follows from that contact unless given.
 */
export class Deals {
  private readonly list: ListDefinition;
  private readonly store: RecordStore;
  private readonly byId;

  constructor(
    private readonly ctx: EngineContext,
    private readonly users: Users,
    private readonly contacts: Contacts,
    private readonly stages: Stages,
    private readonly customFields: CustomFields,
    private readonly tagging: Tagging,
  ) {
    this.store = new RecordStore(ctx, 'deals', 'deal', WRITABLE);
    this.byId = ctx.db.prepare('SELECT * FROM deals WHERE id = ?');
    this.list = this.listDefinition();
    ctx.dependents.onDelete((type, id, actorId) => {
      if (type === 'contact') this.detachContact(id, actorId);
    });
  }

  json(id: number): string {
    return recordJson(this.ctx, 'deal', `SELECT ${DEAL_JSON} FROM deals d WHERE d.id = ?`, id);
  }

  exists(id: number): boolean {
    return this.byId.get(id) !== undefined;
  }

  /** `actor`: who is asking, for `smart_list_id` (a private smart list is its owner's only). */
  listPage(query: RawQuery, actor?: Actor): ListPage {
    return runList(this.list, query, this.ctx.statements, actor?.userId);
  }

  /** The list definition (filters, sorts) a smart list of deals is checked and run with. */
  listFor(): ListDefinition {
    return this.list;
  }

  idsMatching(query: RawQuery, actor?: Actor): number[] {
    return idsMatching(this.list, query, this.ctx.statements, actor?.userId);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const { value, ...rest } = data;
    const { values, errors } = checkFields('deal', FIELDS, rest);
    for (const field of ['name', 'contact_id'] as const) {
      if (values[field] === undefined && !errors.has(`/${field}`)) errors.add(`/${field}`, 'missing', `${field} is required.`);
    }
    const now = isoSeconds(this.ctx.clock.now());
    const defaults: DealRow = {
      owner_id: actor.userId,
      value: '0',
      currency: this.accountCurrency(),
      hot: 0,
      stage_id: this.stages.defaultStageId() ?? null,
      dropbox_email: `dropbox@${toHex(randomBytes(4))}.deals.outpost.invalid`,
      // A new deal has just entered its stage.
      last_stage_change_at: now,
      last_stage_change_by_id: actor.userId,
      added_on: now.slice(0, 10),
      custom_fields: '{}',
    };
    const row = this.apply(defaults, values, value, errors, actor, true);
    return this.store.insert(row, { creator_id: actor.userId }, actor.userId, (id) => {
      if (Array.isArray(values.tags)) this.tagging.replace('deal', id, values.tags as string[], actor.userId);
    });
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.byId.get(id) as DealRow | undefined;
    if (!current) throw notFound('deal', id);
    const { value, ...rest } = data;
    const { values, errors } = checkFields('deal', FIELDS, rest);
    const row = this.apply({ ...current }, values, value, errors, actor, false);
    this.store.update(id, row, actor.userId, () => {
      if (values.tags !== undefined) this.tagging.replace('deal', id, (values.tags as string[] | null) ?? [], actor.userId);
    });
  }

  /** The deal's tags, associated contacts, tasks and notes go with it (dependents registered by their modules). */
  delete(id: number, actor: Actor): void {
    if (!this.exists(id)) throw notFound('deal', id);
    this.store.remove(id, actor.userId, () => {
      this.tagging.removeAll('deal', id);
      this.forgetInCalls(id, actor.userId);
      this.ctx.dependents.deleted('deal', id, actor.userId);
    });
  }

  /**
   * Merges checked values into the row and enforces the rules across fields
   * and other records; throws one 422 listing every problem.
   */
  private apply(row: DealRow, values: Record<string, unknown>, value: unknown, errors: FieldErrors, actor: Actor, creating: boolean): DealRow {
    const out: DealRow = { ...row };
    this.applyValue(out, value, errors);
    this.applyText(out, values, errors);
    for (const field of ['owner_id', 'source_id', 'loss_reason_id', 'unqualified_reason_id', 'customized_win_likelihood'] as const) {
      if (values[field] !== undefined) out[field] = values[field];
    }
    if (values.hot !== undefined) out.hot = values.hot ? 1 : 0;
    this.users.checkReference('owner_id', values.owner_id, errors);
    if (typeof out.customized_win_likelihood === 'number' && out.customized_win_likelihood > 100 && !errors.has('/customized_win_likelihood')) {
      errors.add('/customized_win_likelihood', 'incorrect_value', 'customized_win_likelihood is a percentage: at most 100.');
    }
    for (const { field, sql, what } of LOOKUPS) {
      const id = values[field];
      if (typeof id === 'number' && this.ctx.db.prepare(sql).get(id) === undefined) errors.add(`/${field}`, 'incorrect_value', `There is no ${what} with id ${id}.`);
    }
    this.applyStage(out, values, errors, actor, creating);
    this.applyContacts(out, values, errors, creating);
    if (values.custom_fields !== undefined) out.custom_fields = this.customFields.mergeColumn('deal', row.custom_fields as string | undefined, values.custom_fields, errors);
    errors.throwIfAny();
    return out;
  }

  /** `value` as a string, a number or null (0); kept when not sent. */
  private applyValue(out: DealRow, value: unknown, errors: FieldErrors): void {
    if (value === undefined) return;
    const parsed = parseDecimal(value);
    if (parsed.ok) out.value = parsed.value;
    else errors.add('/value', parsed.code, `value ${parsed.problem}.`);
  }

  /** name (required, not blank), currency (ISO 4217 code), and the two dates. */
  private applyText(out: DealRow, values: Record<string, unknown>, errors: FieldErrors): void {
    if (values.name !== undefined && !errors.has('/name')) {
      if (isBlank(values.name)) errors.add('/name', 'blank', "name can't be blank.");
      else out.name = (values.name as string).trim();
    }
    if (values.currency !== undefined && !errors.has('/currency')) {
      const currency = currencyCode(values.currency);
      if (isBlank(values.currency)) errors.add('/currency', 'blank', "currency can't be blank.");
      else if (!currency) errors.add('/currency', 'incorrect_value', currencyCodeProblem('currency', values.currency));
      else out.currency = currency;
    }
    for (const field of ['estimated_close_date', 'added_on'] as const) {
      const given = values[field];
      if (given === undefined || errors.has(`/${field}`)) continue;
      if (isBlank(given)) {
        if (field === 'added_on') errors.add('/added_on', 'blank', "added_on can't be blank.");
        else out[field] = null;
      } else {
        const day = calendarDayOf((given as string).trim());
        if (day === null) errors.add(`/${field}`, 'incorrect_value', `${field} must be a date written YYYY-MM-DD.`);
        else out[field] = day;
      }
    }
  }

  /** The stage must exist; a move to another stage records when and by whom. */
  private applyStage(out: DealRow, values: Record<string, unknown>, errors: FieldErrors, actor: Actor, creating: boolean): void {
    const stageId = values.stage_id;
    if (stageId === null) errors.add('/stage_id', 'blank', "stage_id can't be blank: a deal is always in a stage.");
    if (typeof stageId === 'number') {
      if (!this.stages.find(stageId)) errors.add('/stage_id', 'incorrect_value', `There is no stage with id ${stageId}.`);
      else if (!creating && stageId !== out.stage_id) {
        out.last_stage_change_at = isoSeconds(this.ctx.clock.now());
        out.last_stage_change_by_id = actor.userId;
      }
      out.stage_id = stageId;
    }
    if (creating && out.stage_id === null && !errors.has('/stage_id')) {
      errors.add('/stage_id', 'missing', 'stage_id is required: no pipeline has stages to put the deal in.');
    }
  }

  /**
   * The primary contact (any contact) and the organization (an organization
   * contact). Unless given, the organization follows the contact: the
   * contact itself when it is an organization, else the organization it
   * belongs to. Sending back a null contact (its contact was deleted) is fine.
   */
  private applyContacts(out: DealRow, values: Record<string, unknown>, errors: FieldErrors, creating: boolean): void {
    const contactId = values.contact_id;
    if (contactId === null && (creating || out.contact_id !== null)) {
      errors.add('/contact_id', 'blank', "contact_id can't be blank: a deal needs a primary contact.");
    } else if (typeof contactId === 'number') {
      const contact = this.contacts.find(contactId);
      if (!contact) errors.add('/contact_id', 'incorrect_value', `There is no contact with id ${contactId}.`);
      else if (values.organization_id === undefined && contactId !== out.contact_id) {
        out.organization_id = contact.is_organization === 1 ? contact.id : contact.contact_id;
      }
      out.contact_id = contactId;
    }
    const organizationId = values.organization_id;
    if (typeof organizationId === 'number' && this.contacts.find(organizationId)?.is_organization !== 1) {
      errors.add('/organization_id', 'incorrect_value', `organization_id must point to an existing organization; ${organizationId} is not one.`);
    }
    if (organizationId !== undefined) out.organization_id = organizationId;
  }

  private accountCurrency(): string {
    return (this.ctx.statements.get('SELECT currency FROM account WHERE id = 1').pluck().get() as string | undefined) ?? 'USD';
  }

  /** Deals of a deleted contact keep existing without it (each logged as updated). */
  private detachContact(contactId: number, actorId: number): void {
    const now = isoSeconds(this.ctx.clock.now());
    for (const column of ['contact_id', 'organization_id']) {
      const deals = this.ctx.db.prepare(`SELECT id FROM deals WHERE ${column} = ?`).pluck().all(contactId) as number[];
      if (deals.length === 0) continue;
      this.ctx.db.prepare(`UPDATE deals SET ${column} = NULL, updated_at = ? WHERE ${column} = ?`).run(now, contactId);
      for (const deal of deals) this.ctx.changes.record('deal', deal, 'updated', actorId);
    }
  }

  /**
   * Calls that named a deleted deal in `associated_deal_ids` drop it (each
   * logged as updated): a call sent back as GET returned it must stay valid,
   * and calls check that every deal they name exists.
   */
  private forgetInCalls(dealId: number, actorId: number): void {
    const { db } = this.ctx;
    const calls = db.prepare('SELECT id FROM calls WHERE EXISTS (SELECT 1 FROM json_each(associated_deal_ids) WHERE value = ?)').pluck().all(dealId) as number[];
    const rewrite = db.prepare(`UPDATE calls SET updated_at = ?,
      associated_deal_ids = (SELECT json_group_array(CAST(value AS INTEGER)) FROM json_each(associated_deal_ids) WHERE CAST(value AS INTEGER) != ?) WHERE id = ?`);
    const now = isoSeconds(this.ctx.clock.now());
    for (const call of calls) {
      rewrite.run(now, dealId, call);
      this.ctx.changes.record('call', call, 'updated', actorId);
    }
  }

  private listDefinition(): ListDefinition {
    const id = (column: string) => ({ kind: 'id' as const, column });
    return {
      resource: 'deal',
      from: 'deals d',
      json: DEAL_JSON,
      idColumn: 'd.id',
      filters: {
        creator_id: id('d.creator_id'),
        owner_id: id('d.owner_id'),
        contact_id: id('d.contact_id'),
        organization_id: id('d.organization_id'),
        stage_id: id('d.stage_id'),
        source_id: id('d.source_id'),
        loss_reason_id: id('d.loss_reason_id'),
        unqualified_reason_id: id('d.unqualified_reason_id'),
        hot: { kind: 'bool', column: 'd.hot' },
        name: { kind: 'string', column: 'd.name' },
        currency: { kind: 'string', column: 'd.currency' },
      },
      sorts: {
        id: 'd.id', name: 'd.name', value: decimalSortKey('d.value'), currency: 'd.currency', owner_id: 'd.owner_id',
        stage_id: 'd.stage_id', hot: 'd.hot', estimated_close_date: 'd.estimated_close_date',
        customized_win_likelihood: 'd.customized_win_likelihood', added_on: 'd.added_on',
        last_stage_change_at: 'd.last_stage_change_at', last_activity_at: 'd.last_activity_at',
        created_at: 'd.created_at', updated_at: 'd.updated_at',
      },
      defaultOrder: 'd.id ASC',
      extraFilter: (name, value) => this.extraFilter(name, value),
      extraSort: (name) => this.customFields.sort('deal', name, 'd.custom_fields'),
    };
  }

  /** Filters whose value needs checking (`value`, dates), the extensions `pipeline_id`, `tag` and `associated_contact_id`, and custom fields. */
  private extraFilter(name: string, value: string): Clause | undefined {
    switch (name) {
      case 'value': {
        const parsed = parseDecimal(value);
        if (!parsed.ok) throw invalidParam(name, `must be a decimal number, given: ${value}`);
        return { sql: 'd.value = ?', params: [parsed.value] };
      }
      case 'estimated_close_date':
      case 'added_on':
        if (!isCalendarDate(value.trim())) throw invalidParam(name, `must be a date written YYYY-MM-DD, given: ${value}`);
        return { sql: `d.${name} = ?`, params: [value.trim()] };
      case 'pipeline_id':
        return { sql: 'd.stage_id IN (SELECT id FROM stages WHERE pipeline_id = ?)', params: [recordIdParam(name, value)] };
      case 'tag':
        return { sql: Tagging.hasTag('deal', 'd.id'), params: [value] };
      case 'associated_contact_id':
        return { sql: 'd.id IN (SELECT deal_id FROM associated_contacts WHERE contact_id = ?)', params: [recordIdParam(name, value)] };
      default:
        return this.customFields.filter('deal', name, value, 'd.custom_fields');
    }
  }
}
