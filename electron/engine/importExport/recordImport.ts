import type { Actor } from '../context.js';
import { utf8Length } from '../bytes.js';
import type { Engine } from '../engine.js';
import type { ErrorCode } from '../../../shared/errors.js';
import { writeLocally } from '../sync/localWrites.js';
import { ApiProblem, FieldErrors, problem } from '../problems.js';
import type { ImportType } from './importFields.js';

/** Where a value of the record came from: the import field (mapping target) and the column or vCard property. */
export interface ValueSource {
  field: string;
  source: string | null;
}

/** One problem of one row, in the import's terms. */
export interface RowError {
  /** The import field (`last_name`, `address.city`, `custom_fields.Size`), or null for the row as a whole. */
  field: string | null;
  /** The CSV column or vCard property the value came from, when known. */
  source: string | null;
  code: ErrorCode;
  message: string;
}

/** A row (or card) turned into the body of a create request, ready to be written. */
export interface PreparedRow {
  /** 1-based number of the data row (header not counted) or card. */
  row: number;
  /** What `POST /v2/contacts` or `POST /v2/leads` would be sent. */
  data: Record<string, unknown>;
  /** Contacts: a person's organization, linked by name (one this import made, else an existing one, else a new one); its source is `sources.contact_id`. */
  organization?: string;
  isOrganization: boolean;
  /** Problems found before the record's own checks (a row with more values than the header has columns). */
  errors: RowError[];
  /** Keyed by the API field (`name`, `address.city`): where its value came from. */
  sources: Record<string, ValueSource>;
  /** The column a field is mapped to, for errors about a value the row left blank. */
  sourceOf?: (field: string) => string | null;
}

export type ImportMode = 'preview' | 'all-or-nothing' | 'skip-invalid';

export interface ImportOutcome {
  /** Ids of the created records, in row order. */
  ids: number[];
  /** Rows not imported, in row order, with every problem found. */
  rejected: { row: number; errors: RowError[] }[];
  /** Organizations created to link people to (contacts only). */
  organizationIds: number[];
}

/** Undoes the whole import's transaction (a preview, or a refused all-or-nothing import). */
const ROLL_BACK = Symbol('roll back');

/** A row's problems; thrown inside its savepoint (when it has one) so its writes are undone. */
class RowFailed extends Error {
  constructor(readonly errors: RowError[]) {
    super('row failed');
  }
}

const COLLECTIONS: Record<ImportType, string> = { contact: '/v2/contacts', lead: '/v2/leads' };

/**
 * Writes prepared rows through the resource's own create (the validation and
 * write path of `POST /v2/contacts` / `POST /v2/leads`: change log, search
 * index, and on a replica the outbox) inside one transaction. A refused row
 * is undone alone (a create checks before it writes; a row that also makes
 * an organization runs in a savepoint) and every row is checked. A preview
 * runs the very same writes and rolls them all back, so its errors are
 * exactly the import's; an all-or-nothing import with any error rolls back
 * too, and the caller answers 422 listing every problem.
 */
export function runImport(engine: Engine, type: ImportType, rows: readonly PreparedRow[], actor: Actor, mode: ImportMode): ImportOutcome {
  return new ImportRun(engine, type, actor, mode).run(rows);
}

class ImportRun {
  private readonly created = new Map<number, number>();
  private readonly failed = new Map<number, RowError[]>();
  private readonly organizations: number[] = [];
  private readonly linker: OrganizationLinker;

  constructor(private readonly engine: Engine, private readonly type: ImportType, private readonly actor: Actor, private readonly mode: ImportMode) {
    this.linker = new OrganizationLinker(engine, (data) => this.write(() => engine.contacts.create(data, actor), data, 'contact'));
  }

  run(rows: readonly PreparedRow[]): ImportOutcome {
    const { db } = this.engine;
    try {
      db.transaction(() => {
        for (const row of writingOrder(rows)) {
          try {
            this.created.set(row.row, row.organization === undefined ? this.importRow(row) : db.transaction(() => this.importRow(row))());
          } catch (err) {
            if (!(err instanceof RowFailed)) throw err;
            this.failed.set(row.row, err.errors);
          }
        }
        if (this.mode === 'preview' || (this.mode === 'all-or-nothing' && this.failed.size > 0)) throw ROLL_BACK;
      })();
    } catch (err) {
      if (err !== ROLL_BACK) throw err;
    }
    const rowOrder = (a: number, b: number) => a - b;
    return {
      ids: [...this.created.keys()].sort(rowOrder).map((row) => this.created.get(row)!),
      rejected: [...this.failed.keys()].sort(rowOrder).map((row) => ({ row, errors: this.failed.get(row)! })),
      organizationIds: this.organizations,
    };
  }

  /** A create as POST makes it; a preview's writes are all rolled back, so they need no outbox entries. */
  private write(run: () => number, data: Record<string, unknown>, recordType: ImportType): number {
    if (this.mode === 'preview') return run();
    return writeLocally(this.engine.ctx, run, (id) => ({ method: 'POST', type: recordType, collection: COLLECTIONS[recordType], id, data }));
  }

  /** One row's record (and its person's organization); throws RowFailed with every problem found. */
  private importRow(row: PreparedRow): number {
    const errors: RowError[] = [...row.errors];
    if (errors.length > 0) throw new RowFailed(errors);
    const data = { ...row.data };
    let newOrganization: number | null = null;
    if (row.organization !== undefined) {
      try {
        const link = this.linker.resolve(row.organization);
        data.contact_id = link.id;
        if (link.created) newOrganization = link.id;
      } catch (err) {
        errors.push(...rowErrors(err, row, 'contact_id'));
      }
    }
    let id = 0;
    try {
      const service = this.type === 'contact' ? this.engine.contacts : this.engine.leads;
      id = this.write(() => service.create(data, this.actor), data, this.type);
    } catch (err) {
      errors.push(...rowErrors(err, row));
    }
    if (errors.length > 0) throw new RowFailed(errors);
    // Only now that the row stands: later rows may link to what it made.
    if (newOrganization !== null) {
      this.linker.remember(row.organization!, newOrganization);
      this.organizations.push(newOrganization);
    }
    if (this.type === 'contact' && row.isOrganization) this.linker.remember(String(data.name), id);
    return id;
  }
}

/** Organizations first, so the people of the same file link to them rather than to a new one of the same name. */
function writingOrder(rows: readonly PreparedRow[]): PreparedRow[] {
  return [...rows.filter((r) => r.isOrganization), ...rows.filter((r) => !r.isOrganization)];
}

/**
 * A create's 422 in the import's terms: each API pointer (`/address/city`)
 * back to the field and column it came from; `sourceOf` names the one
 * source of every error (an organization made for a person's row).
 */
function rowErrors(err: unknown, row: PreparedRow, sourceOf?: string): RowError[] {
  if (!(err instanceof ApiProblem)) throw err;
  return err.errors.map((error) => {
    const apiField = apiFieldOf(error.field);
    const origin = row.sources[sourceOf ?? apiField ?? ''];
    const field = origin?.field ?? apiField;
    const source = origin ? origin.source : field === null ? null : row.sourceOf?.(field) ?? null;
    return { field, source, code: error.code, message: error.message };
  });
}

/** `/address/city` → `address.city`, `/custom_fields/Size` → `custom_fields.Size`, `/tags/0` → `tags`. */
function apiFieldOf(pointer: string): string | null {
  const [first, second] = pointer.split('/').filter(Boolean);
  if (first === undefined) return null;
  const nested = first === 'custom_fields' || first.endsWith('address');
  return nested && second !== undefined ? `${first}.${second}` : first;
}

/**
 * Finds the organization a person's row names: one this import made, else
 * an existing organization of that name (case-insensitive, the oldest),
 * else a new one made through the contacts' create like any other record.
 */
class OrganizationLinker {
  private readonly known = new Map<string, number>();
  private readonly existing;

  constructor(engine: Engine, private readonly create: (data: Record<string, unknown>) => number) {
    this.existing = engine.ctx.statements.get('SELECT id FROM contacts WHERE is_organization = 1 AND name = ? COLLATE NOCASE ORDER BY id LIMIT 1').pluck();
  }

  resolve(name: string): { id: number; created: boolean } {
    const known = this.known.get(name.toLowerCase()) ?? (this.existing.get(name) as number | undefined);
    if (known !== undefined) return { id: known, created: false };
    return { id: this.create({ is_organization: true, name }), created: true };
  }

  remember(name: string, id: number): void {
    if (!this.known.has(name.toLowerCase())) this.known.set(name.toLowerCase(), id);
  }
}

/** The 422 of an all-or-nothing import: one error per problem, at `/rows/<row>/<field>`. */
export function importRefused(type: ImportType, rejected: ImportOutcome['rejected']): ApiProblem {
  return new ApiProblem(rejected.flatMap(({ row, errors }) => errors.map((e) => {
    const message = `Row ${row}: ${e.message}`;
    // Only the first dot nests (`address.city`): a custom field's own name may hold dots.
    return { resource: type, field: `/rows/${row}${e.field === null ? '' : `/${e.field.replace('.', '/')}`}`, code: e.code, message, details: message };
  })));
}

/** A preview's flat error list, and the rejected rows of an import, as the answers carry them. */
export function errorList(rejected: ImportOutcome['rejected']): { row: number; field: string | null; source: string | null; code: ErrorCode; message: string }[] {
  return rejected.flatMap(({ row, errors }) => errors.map((e) => ({ row, ...e })));
}

/** The answer of an import (CSV or vCard). */
export function importAnswer(type: ImportType, outcome: ImportOutcome): Record<string, unknown> {
  return {
    resource_type: type,
    imported: outcome.ids.length,
    ids: outcome.ids,
    rejected: outcome.rejected,
    created_organization_ids: outcome.organizationIds,
  };
}

/** Files larger than this are refused (of the text, in UTF-8). */
export const MAX_FILE_BYTES = 5 * 1024 * 1024;
/** Rows (or cards) in one file at most. */
export const MAX_ROWS = 20_000;
/** The request body may hold the file JSON-escaped: quotes and line breaks take two bytes. */
export const IMPORT_BODY_LIMIT = 2 * MAX_FILE_BYTES + 64 * 1024;

/** The problems of an import request's attributes: unknown ones, and a `skip_invalid` that is no boolean. */
export function requestErrors(data: Record<string, unknown>, known: readonly string[], what: string): FieldErrors {
  const errors = new FieldErrors('import');
  for (const name of Object.keys(data)) if (!known.includes(name)) errors.add(`/${name}`, 'unknown', `${name} is not an attribute of ${what}.`);
  if (data.skip_invalid !== undefined && typeof data.skip_invalid !== 'boolean') errors.add('/skip_invalid', 'invalid_type', 'skip_invalid must be a boolean (true or false).');
  return errors;
}

/** The file text of a request: a non-blank string within the size limit. */
export function fileText(data: Record<string, unknown>, name: string, kind: string): string {
  const text = data[name];
  if (text === undefined || text === null) throw problem('missing', `${name} is required: the text of the ${kind} file.`, `/${name}`, 'import');
  if (typeof text !== 'string') throw problem('invalid_type', `${name} must be a string: the text of the ${kind} file.`, `/${name}`, 'import');
  if (text.trim() === '' || text.replace(/^\uFEFF/, '').trim() === '') throw problem('blank', `The ${kind} file is empty.`, `/${name}`, 'import');
  if (utf8Length(text) > MAX_FILE_BYTES) {
    throw problem('incorrect_value', `The ${kind} file is larger than ${MAX_FILE_BYTES / 1024 / 1024} MB: split it into smaller files.`, `/${name}`, 'import');
  }
  if (text.includes('\u0000')) throw problem('incorrect_value', `This is not a ${kind} text file (it holds binary data).`, `/${name}`, 'import');
  return text;
}
