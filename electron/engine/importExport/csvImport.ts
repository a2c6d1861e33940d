import { parse, CsvError } from 'csv-parse/sync';
import type { Actor } from '../context.js';
import type { Engine } from '../engine.js';
import { FieldErrors, problem } from '../problems.js';
import { IMPORT_TYPES, importFields, suggestMapping, type ImportField, type ImportType } from './importFields.js';
import { prepareRow, type MappedValues } from './importRows.js';
import { unguardCell } from './csvExport.js';
import {
  errorList, fileText, importAnswer, importRefused, MAX_ROWS, requestErrors, runImport, type PreparedRow,
} from './recordImport.js';

/** A CSV file read: its column names and its data rows (1-based numbers, header not counted). */
export interface CsvFile {
  headers: string[];
  records: { row: number; cells: string[] }[];
}

/** Separators a file may use; the one the header line holds most of wins (a comma on a tie). */
const SEPARATORS = [',', ';', '\t'] as const;

/**
 * Reads CSV text (RFC 4180: quoted fields with separators, quotes and line
 * breaks inside; a UTF-8 BOM and CRLF or LF line ends are fine). Blank
 * header cells become `Column <n>`, a repeated header `<name> (2)`. Rows whose
 * every cell is blank are skipped but keep their number, so row numbers stay
 * those of the spreadsheet (minus the header).
 */
export function readCsv(text: string): CsvFile {
  let rows: string[][];
  try {
    rows = parse(text, { bom: true, delimiter: separatorOf(text), relax_column_count: true, relax_quotes: true }) as string[][];
  } catch (err) {
    if (!(err instanceof CsvError)) throw err;
    throw problem('incorrect_value', `The file is not valid CSV: ${syntaxProblem(err)}.`, '/csv', 'import');
  }
  const [header, ...data] = rows;
  if (!header || header.every((cell) => cell.trim() === '')) throw problem('blank', 'The CSV file has no header row naming its columns.', '/csv', 'import');
  const records = data.map((cells, i) => ({ row: i + 1, cells })).filter((r) => r.cells.some((cell) => cell.trim() !== ''));
  if (records.length === 0) throw problem('blank', 'The CSV file has a header but no data rows.', '/csv', 'import');
  if (records.length > MAX_ROWS) throw problem('incorrect_value', `The CSV file has ${records.length} rows; at most ${MAX_ROWS} can be imported at once: split it into smaller files.`, '/csv', 'import');
  return { headers: headerNames(header), records };
}

/** csv-parse's error in words, with its line number. */
function syntaxProblem(err: CsvError): string {
  const line = (err as CsvError & { lines?: number }).lines;
  switch (err.code) {
    case 'CSV_QUOTE_NOT_CLOSED':
      return `a quoted value is never closed (a " is missing before the end of the file, line ${line})`;
    case 'CSV_INVALID_CLOSING_QUOTE':
      return `on line ${line} a quoted value is followed by more characters before the separator`;
    default:
      return `${err.message.replace(/^[^:]+: /, '')}${line && !/line \d/.test(err.message) ? ` (line ${line})` : ''}`;
  }
}

function separatorOf(text: string): string {
  const firstLine = text.replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0].replace(/"[^"]*"/g, '');
  const counts = SEPARATORS.map((s) => firstLine.split(s).length - 1);
  return SEPARATORS[counts.indexOf(Math.max(...counts))];
}

function headerNames(cells: string[]): string[] {
  const seen = new Map<string, number>();
  return cells.map((cell, i) => {
    const name = cell.trim() || `Column ${i + 1}`;
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name} (${count})`;
  });
}

type Mapping = Record<string, string | null>;

interface CsvRequest {
  type: ImportType;
  file: CsvFile;
  fields: ImportField[];
  mapping: Mapping;
  skipInvalid: boolean;
}

/** `POST /v2/imports/preview`: headers, mapping (given or suggested), fields, sample, and every error the import would answer. */
export function previewCsv(engine: Engine, data: Record<string, unknown>, actor: Actor): Record<string, unknown> {
  const request = readRequest(engine, data, false);
  const rows = prepareRows(request);
  const outcome = runImport(engine, request.type, rows, actor, 'preview');
  return {
    resource_type: request.type,
    headers: request.file.headers,
    mapping: request.mapping,
    fields: request.fields.map(({ name, label, required, requirement }) => ({ name, label, required, ...(requirement ? { requirement } : {}) })),
    rows: rows.length,
    sample: request.file.records.slice(0, 10).map((record) => ({ row: record.row, values: mappedValues(request, record.cells) })),
    errors: errorList(outcome.rejected),
  };
}

/** `POST /v2/imports`: all or nothing (422 listing every problem), or with `skip_invalid` the valid rows. */
export function importCsv(engine: Engine, data: Record<string, unknown>, actor: Actor): Record<string, unknown> {
  const request = readRequest(engine, data, true);
  const outcome = runImport(engine, request.type, prepareRows(request), actor, request.skipInvalid ? 'skip-invalid' : 'all-or-nothing');
  if (!request.skipInvalid && outcome.rejected.length > 0) throw importRefused(request.type, outcome.rejected);
  return importAnswer(request.type, outcome);
}

function readRequest(engine: Engine, data: Record<string, unknown>, importing: boolean): CsvRequest {
  const errors = requestErrors(data, importing ? ['resource_type', 'csv', 'mapping', 'skip_invalid'] : ['resource_type', 'csv', 'mapping'], 'an import');
  const type = data.resource_type;
  if (type === undefined || type === null) errors.add('/resource_type', 'missing', 'resource_type is required: contact or lead.');
  else if (!(IMPORT_TYPES as readonly unknown[]).includes(type)) errors.add('/resource_type', 'incorrect_value', 'resource_type must be one of: contact, lead.');
  if (importing && (data.mapping === undefined || data.mapping === null)) errors.add('/mapping', 'missing', 'mapping is required: an object naming the field of each column (null to leave a column out).');
  errors.throwIfAny();
  const file = readCsv(fileText(data, 'csv', 'CSV'));
  const definitions = [...engine.customFields.definitions(type as ImportType).values()].map((d) => ({ name: d.name, type: d.type }));
  const fields = importFields(type as ImportType, definitions);
  const mapping = data.mapping === undefined || data.mapping === null ? suggestMapping(file.headers, fields) : checkMapping(data.mapping, file.headers, fields);
  return { type: type as ImportType, file, fields, mapping, skipInvalid: data.skip_invalid === true };
}

/** A given mapping: every key a column of the file, every value a field (once) or null; unnamed columns are left out. */
function checkMapping(given: unknown, headers: string[], fields: ImportField[]): Mapping {
  const errors = new FieldErrors('import');
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    errors.add('/mapping', 'invalid_type', 'mapping must be an object: {"<column>": "<field>" or null}.');
    errors.throwIfAny();
  }
  const names = new Set(fields.map((f) => f.name));
  const mapping: Mapping = Object.fromEntries(headers.map((h) => [h, null]));
  const mappedTo = new Map<string, string>();
  for (const [header, field] of Object.entries(given as Record<string, unknown>)) {
    const pointer = `/mapping/${header.replace(/~/g, '~0').replace(/\//g, '~1')}`;
    if (!headers.includes(header)) errors.add(pointer, 'unknown', `${header} is not a column of the file (its columns: ${headers.join(', ')}).`);
    else if (field === null) continue;
    else if (typeof field !== 'string') errors.add(pointer, 'invalid_type', `The field of column ${header} must be a field name or null.`);
    else if (!names.has(field)) errors.add(pointer, 'incorrect_value', `${field} is not a field a column can be imported into.`);
    else if (mappedTo.has(field)) errors.add(pointer, 'incorrect_value', `${field} is already the field of column ${mappedTo.get(field)}: map each field once.`);
    else {
      mapping[header] = field;
      mappedTo.set(field, header);
    }
  }
  errors.throwIfAny();
  return mapping;
}

function mappedValues(request: CsvRequest, cells: string[]): MappedValues {
  const values: MappedValues = {};
  request.file.headers.forEach((header, i) => {
    const field = request.mapping[header];
    const value = unguardCell((cells[i] ?? '').trim());
    if (field && value !== '') values[field] = value;
  });
  return values;
}

function prepareRows(request: CsvRequest): PreparedRow[] {
  const fields = new Map(request.fields.map((f) => [f.name, f]));
  const columnOf = new Map(Object.entries(request.mapping).filter(([, f]) => f !== null).map(([h, f]) => [f as string, h]));
  const sourceOf = (field: string) => columnOf.get(field) ?? null;
  const width = request.file.headers.length;
  return request.file.records.map(({ row, cells }) => {
    const prepared = prepareRow(request.type, row, mappedValues(request, cells), fields, sourceOf);
    const used = cells.findLastIndex((cell) => cell.trim() !== '') + 1;
    if (used > width) {
      prepared.errors.push({
        field: null, source: null, code: 'incorrect_value',
        message: `The row has ${used} values but the header names ${width} columns: a separator or quote is probably missing.`,
      });
    }
    return prepared;
  });
}
