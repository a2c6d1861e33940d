import type { ImportField, ImportType } from './importFields.js';
import type { PreparedRow, ValueSource } from './recordImport.js';

/** The cells of one row by import field (mapped, trimmed, blanks left out). */
export type MappedValues = Record<string, string>;

const TRUE = new Set(['true', 'yes', 'y', '1', 'x']);
const FALSE = new Set(['false', 'no', 'n', '0']);

/** `true`/`yes`/`1` and their twins, any case; anything else is left for the record's own check to refuse. */
export function parseBoolean(value: string): boolean | string {
  const text = value.trim().toLowerCase();
  return TRUE.has(text) ? true : FALSE.has(text) ? false : value;
}

/** Several values in one cell (tags, multi-select custom fields) are separated by `;`, as the CSV export writes them. */
export function splitList(value: string): string[] {
  return value.split(';').map((v) => v.trim()).filter(Boolean);
}

/** `Jane Mary Doe` → Jane Mary / Doe; `Doe, Jane` → Jane / Doe; one word is a last name. */
export function splitFullName(full: string): { first?: string; last: string } {
  const comma = full.indexOf(',');
  if (comma > 0) {
    const first = full.slice(comma + 1).trim();
    return { last: full.slice(0, comma).trim(), ...(first ? { first } : {}) };
  }
  const words = full.trim().split(/\s+/);
  const last = words.pop()!;
  return words.length > 0 ? { first: words.join(' '), last } : { last };
}

/** What a contact's `name` is derived as for a person: the API accepts that back and ignores it. */
export const personName = (first?: string, last?: string) => [first, last].filter(Boolean).join(' ');

/** Builds a record's create body while keeping where each value came from. */
export class RecordBody {
  readonly data: Record<string, unknown> = {};
  readonly sources: Record<string, ValueSource> = {};

  constructor(private readonly sourceOf: (field: string) => string | null) {}

  /** `apiField` may be nested once (`address.city`, `custom_fields.Size`); `field` is the import field it came from. */
  put(apiField: string, value: unknown, field = apiField): void {
    const dot = apiField.indexOf('.');
    if (dot < 0) {
      this.data[apiField] = value;
    } else {
      const parent = apiField.slice(0, dot);
      const object = (this.data[parent] ??= Object.create(null)) as Record<string, unknown>;
      object[apiField.slice(dot + 1)] = value;
    }
    this.sources[apiField] = { field, source: this.sourceOf(field) };
  }

  /** Marks where a value the import resolves itself (a person's organization) came from. */
  note(apiField: string, field: string): void {
    this.sources[apiField] = { field, source: this.sourceOf(field) };
  }
}

/**
 * One mapped row as the create body of a contact or lead. Names: a full
 * name is split only when the row gives neither first nor last name. A
 * contacts row is an organization when `is_organization` says so, or (when
 * it does not) when it has an organization but no person's name; on a
 * person's row the organization is linked by name instead.
 */
export function prepareRow(
  type: ImportType, row: number, values: MappedValues, fields: ReadonlyMap<string, ImportField>, sourceOf: (field: string) => string | null,
): PreparedRow {
  const body = new RecordBody(sourceOf);
  for (const [name, value] of Object.entries(values)) {
    const field = fields.get(name);
    if (field) putValue(body, field, value);
  }
  if (type === 'contact') return { ...contactRow(row, values, body), sourceOf };
  splitPersonName(body, values);
  return { row, data: body.data, isOrganization: false, errors: [], sources: body.sources, sourceOf };
}

/** A person's full name, when the row gives neither first nor last name. */
function splitPersonName(body: RecordBody, values: MappedValues): void {
  const { first_name: first, last_name: last, full_name: full } = values;
  if (first || last || !full) return;
  const split = splitFullName(full);
  if (split.first) body.put('first_name', split.first, 'full_name');
  body.put('last_name', split.last, 'full_name');
}

function putValue(body: RecordBody, field: ImportField, value: string): void {
  switch (field.kind) {
    case 'text':
      return body.put(field.name, value);
    case 'lowercase':
      return body.put(field.name, value.toLowerCase());
    case 'boolean':
      return body.put(field.name, parseBoolean(value));
    case 'tags':
      return body.put(field.name, splitList(value));
    case 'custom':
      return body.put(field.name, field.customType === 'multi_select_list' ? splitList(value) : value);
    case 'fullName':
    case 'organization':
      // Resolved with the other names of the row.
      return;
  }
}

function contactRow(row: number, values: MappedValues, body: RecordBody): PreparedRow {
  const { first_name: first, last_name: last, full_name: full, organization_name: organization } = values;
  const given = body.data.is_organization;
  const isOrganization = typeof given === 'boolean' ? given : !first && !last && !full && Boolean(organization);
  const prepared = (extra: Partial<PreparedRow>): PreparedRow => ({ row, data: body.data, isOrganization, errors: [], sources: body.sources, ...extra });
  if (isOrganization) {
    if (given === undefined) body.put('is_organization', true, 'organization_name');
    const name = organization ?? full;
    if (name !== undefined) body.put('name', name, organization !== undefined ? 'organization_name' : 'full_name');
    return prepared({});
  }
  splitPersonName(body, values);
  const derived = personName(body.data.first_name as string | undefined, body.data.last_name as string | undefined);
  if (organization === undefined || organization === derived) return prepared({});
  body.note('contact_id', 'organization_name');
  return prepared({ organization });
}
