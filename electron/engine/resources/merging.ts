import type { Actor, EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { ApiProblem, FieldErrors } from '../problems.js';
import { ADDRESS_KEYS } from '../../../shared/resources/address.js';
import { ADDRESS_FIELDS, MERGE_FIELDS, MERGE_SIDES, mergedRecord, type AddressChoice, type FieldChoices, type MergeableType, type MergeSide } from '../../../shared/resources/merge.js';

/** What a merge needs of the contacts' or leads' service. */
export interface MergeableRecords {
  json(id: number): string;
  update(id: number, data: Record<string, unknown>, actor: Actor): void;
  delete(id: number, actor: Actor): void;
}

/**
 * A column elsewhere that names a contact or a lead: of a fixed type, or with
 * a `resource_type` beside it naming the type. `resource` is the change log's
 * type of the table's rows; `oncePer` the columns that, with this one, may
 * hold a value once (a deal's associated contact, an enrollment per sequence):
 * the merged record's row goes where the survivor has one already.
 */
export interface MergeReference {
  table: string;
  column: string;
  resource: string;
  /** The merged type this column names. */
  names: MergeableType;
  /** Set when a `resource_type` column says what `column` names: these are the values meaning `names`. */
  typeValues?: readonly string[];
  oncePer?: readonly string[];
  /** The table has `updated_at` (moved rows take the merge's time). */
  touch: boolean;
}

const ACTIVITY_TABLES: [string, string][] = [
  ['tasks', 'task'], ['notes', 'note'], ['calls', 'call'], ['text_messages', 'text_message'], ['visits', 'visit'], ['documents', 'document'],
];

/**
 * Every column of the schema that refers to a contact or a lead, except the
 * taggings (tags are joined through the survivor's update) and the sync
 * bookkeeping (change log, revisions, device holds). test/api/merge.test.ts
 * compares this list with the schema, so a new referring column fails it
 * until it is added here.
 */
export const MERGE_REFERENCES: readonly MergeReference[] = [
  ...ACTIVITY_TABLES.flatMap(([table, resource]) => [
    { table, column: 'resource_id', resource, names: 'contact' as const, typeValues: ['contact', 'sales_account'], touch: true },
    { table, column: 'resource_id', resource, names: 'lead' as const, typeValues: ['lead'], touch: true },
  ]),
  { table: 'collaborations', column: 'resource_id', resource: 'collaboration', names: 'contact', typeValues: ['contact', 'sales_account'], oncePer: ['resource_type', 'collaborator_id'], touch: true },
  { table: 'collaborations', column: 'resource_id', resource: 'collaboration', names: 'lead', typeValues: ['lead'], oncePer: ['resource_type', 'collaborator_id'], touch: true },
  { table: 'sequence_enrollments', column: 'resource_id', resource: 'sequence_enrollment', names: 'contact', typeValues: ['contact'], oncePer: ['resource_type', 'sequence_id'], touch: true },
  { table: 'sequence_enrollments', column: 'resource_id', resource: 'sequence_enrollment', names: 'lead', typeValues: ['lead'], oncePer: ['resource_type', 'sequence_id'], touch: true },
  { table: 'contacts', column: 'contact_id', resource: 'contact', names: 'contact', touch: true },
  { table: 'contacts', column: 'parent_organization_id', resource: 'contact', names: 'contact', touch: true },
  { table: 'deals', column: 'contact_id', resource: 'deal', names: 'contact', touch: true },
  { table: 'deals', column: 'organization_id', resource: 'deal', names: 'contact', touch: true },
  { table: 'associated_contacts', column: 'contact_id', resource: 'associated_contact', names: 'contact', oncePer: ['deal_id'], touch: true },
  { table: 'lead_conversions', column: 'individual_id', resource: 'lead_conversion', names: 'contact', touch: false },
  { table: 'lead_conversions', column: 'organization_id', resource: 'lead_conversion', names: 'contact', touch: false },
  { table: 'lead_conversions', column: 'lead_id', resource: 'lead_conversion', names: 'lead', touch: false },
];

/** What `data` of a merge request holds. */
interface MergeRequest {
  otherId: number;
  choices: FieldChoices;
}

/**
 * Merging two contacts or two leads: the survivor keeps its
 * values, fills its blanks from the other (or takes the values the caller
 * chose, field by field), gets both records' tags; everything that named the
 * other record now names the survivor, each moved record logged as updated;
 * then the other record is deleted and remembered as merged (changes/mergedIds.ts).
 * One transaction.
 */
export class Merges {
  constructor(private readonly ctx: EngineContext, private readonly records: Record<MergeableType, MergeableRecords>) {}

  merge(type: MergeableType, survivorId: number, data: Record<string, unknown>, actor: Actor): void {
    const service = this.records[type];
    const survivor = JSON.parse(service.json(survivorId)) as Record<string, unknown>;
    const { otherId, choices } = this.checked(type, survivorId, survivor, data);
    const other = JSON.parse(service.json(otherId)) as Record<string, unknown>;
    this.ctx.db.transaction(() => {
      service.update(survivorId, this.survivorFields(type, survivorId, survivor, other, choices), actor);
      this.moveReferences(type, otherId, survivorId, actor.userId);
      this.ctx.dependents.merged(type, otherId, survivorId, actor.userId);
      service.delete(otherId, actor);
      this.ctx.mergedIds.record(type, otherId, survivorId, actor.userId);
    })();
  }

  /** The request's fields, checked: one 422 naming every problem (a record merged with itself, with one of another kind, an unknown field). */
  private checked(type: MergeableType, survivorId: number, survivor: Record<string, unknown>, data: Record<string, unknown>): MergeRequest {
    const errors = new FieldErrors(type);
    const otherId = data.merge_with_id;
    if (otherId === undefined || otherId === null) errors.add('/merge_with_id', 'missing', 'merge_with_id is required: the id of the record to merge into this one.');
    else if (!Number.isSafeInteger(otherId)) errors.add('/merge_with_id', 'invalid_type', 'merge_with_id must be an integer id.');
    else if (otherId === survivorId) errors.add('/merge_with_id', 'incorrect_value', `A ${type} cannot be merged with itself.`);
    else this.checkOther(type, survivor, otherId as number, errors);
    const choices = this.checkedChoices(type, data.fields, errors);
    errors.throwIfAny();
    return { otherId: otherId as number, choices };
  }

  private checkOther(type: MergeableType, survivor: Record<string, unknown>, otherId: number, errors: FieldErrors): void {
    let other: Record<string, unknown>;
    try {
      other = JSON.parse(this.records[type].json(otherId)) as Record<string, unknown>;
    } catch (err) {
      // The record's own 404 becomes this field's error: the path named the survivor, which exists.
      if (!(err instanceof ApiProblem)) throw err;
      errors.add('/merge_with_id', 'incorrect_value', `There is no ${type} with id ${otherId}.`);
      return;
    }
    // A person and an organization have different fields and relations: merging them would lose either's.
    if (type === 'contact' && other.is_organization !== survivor.is_organization) {
      errors.add('/merge_with_id', 'incorrect_value', 'A person can be merged only with a person, an organization only with an organization.');
    }
  }

  private checkedChoices(type: MergeableType, fields: unknown, errors: FieldErrors): FieldChoices {
    if (fields === undefined || fields === null) return {};
    if (typeof fields !== 'object' || Array.isArray(fields)) {
      errors.add('/fields', 'invalid_type', 'fields must be an object naming, per field, the side whose value to keep ("survivor" or "other").');
      return {};
    }
    const choices: FieldChoices = {};
    for (const [field, side] of Object.entries(fields as Record<string, unknown>)) {
      if (!MERGE_FIELDS[type].includes(field)) errors.add(`/fields/${field}`, 'unknown', `${field} is not a field a merge decides.`);
      else if (isSide(side)) choices[field] = side;
      else if (ADDRESS_FIELDS.has(field) && typeof side === 'object' && side !== null && !Array.isArray(side)) choices[field] = this.checkedParts(field, side as Record<string, unknown>, errors);
      else errors.add(`/fields/${field}`, 'incorrect_value', ADDRESS_FIELDS.has(field)
        ? `${field} takes "survivor" or "other", or an object naming a side per part (${ADDRESS_KEYS.join(', ')}).`
        : 'Each field takes "survivor" or "other".');
    }
    return choices;
  }

  /** An address chosen part by part: each key an address part, each value a side. */
  private checkedParts(field: string, parts: Record<string, unknown>, errors: FieldErrors): AddressChoice {
    const choice: AddressChoice = {};
    for (const [key, side] of Object.entries(parts)) {
      if (!(ADDRESS_KEYS as readonly string[]).includes(key)) errors.add(`/fields/${field}/${key}`, 'unknown', `${key} is not a part of an address (${ADDRESS_KEYS.join(', ')}).`);
      else if (!isSide(side)) errors.add(`/fields/${field}/${key}`, 'incorrect_value', 'Each part takes "survivor" or "other".');
      else choice[key as keyof AddressChoice] = side;
    }
    return choice;
  }

  /**
   * The survivor's update. A value naming the survivor itself (the other's
   * parent organization was the survivor) is left out: it would point at itself.
   * Billing and shipping addresses go only with a status that takes them.
   */
  private survivorFields(type: MergeableType, survivorId: number, survivor: Record<string, unknown>, other: Record<string, unknown>, choices: FieldChoices): Record<string, unknown> {
    const data = mergedRecord(type, survivor, other, choices);
    for (const field of ['contact_id', 'parent_organization_id']) if (data[field] === survivorId || data[field] === other.id) data[field] = survivor[field] ?? null;
    if (type === 'contact' && data.customer_status === 'none' && data.prospect_status === 'none') {
      delete data.billing_address;
      delete data.shipping_address;
    }
    return data;
  }

  /** Every row naming the other record now names the survivor (or goes, where the survivor has its twin already); each change logged. */
  private moveReferences(type: MergeableType, fromId: number, toId: number, actorId: number): void {
    const now = isoSeconds(this.ctx.clock.now());
    // The survivor's own parent organization was the merged one: it would become its own parent.
    if (type === 'contact') this.ctx.statements.get('UPDATE contacts SET parent_organization_id = NULL WHERE id = ? AND parent_organization_id = ?').run(toId, fromId);
    for (const ref of MERGE_REFERENCES.filter((r) => r.names === type)) {
      const typed = ref.typeValues ? ` AND resource_type IN (${ref.typeValues.map((v) => `'${v}'`).join(', ')})` : '';
      const rows = this.ctx.statements.get(`SELECT id FROM ${ref.table} WHERE ${ref.column} = ?${typed}`).pluck().all(fromId) as number[];
      const twins = ref.oncePer ? this.withTwins(ref, rows, toId) : new Set<number>();
      for (const id of rows) {
        if (twins.has(id)) {
          this.ctx.statements.get(`DELETE FROM ${ref.table} WHERE id = ?`).run(id);
          this.ctx.changes.record(ref.resource, id, 'deleted', actorId);
          continue;
        }
        const touch = ref.touch ? ', updated_at = ?' : '';
        this.ctx.statements.get(`UPDATE ${ref.table} SET ${ref.column} = ?${touch} WHERE id = ?`).run(...(ref.touch ? [toId, now, id] : [toId, id]));
        this.ctx.changes.record(ref.resource, id, 'updated', actorId);
      }
    }
  }

  /** The rows among `ids` whose twin (the same `oncePer` values) already names the survivor. */
  private withTwins(ref: MergeReference, ids: number[], toId: number): Set<number> {
    const same = ref.oncePer!.map((c) => `t.${c} = r.${c}`).join(' AND ');
    const twin = this.ctx.statements.get(`SELECT 1 FROM ${ref.table} r WHERE r.id = ? AND EXISTS (SELECT 1 FROM ${ref.table} t WHERE t.${ref.column} = ? AND ${same})`).pluck();
    return new Set(ids.filter((id) => twin.get(id, toId) !== undefined));
  }
}

const isSide = (value: unknown): value is MergeSide => (MERGE_SIDES as readonly unknown[]).includes(value);
