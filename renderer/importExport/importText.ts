import { isErrorEnvelope } from '../../shared/errors.js';
import { ApiFailure } from '../api/client.js';
import type { ImportResourceType, RowError } from './types.js';
import { refusalText } from '../api/formErrors.js';

/** What a file is made of: CSV rows or vCard cards. */
export type ImportUnit = 'row' | 'card';

/** What an import brings in, for headings and counts. */
export const IMPORT_NOUNS: Record<ImportResourceType, { one: string; many: string; list: string }> = {
  contact: { one: 'contact', many: 'contacts', list: '/contacts' },
  lead: { one: 'lead', many: 'leads', list: '/leads' },
};

export function counted(n: number, one: string, many: string): string {
  return `${n.toLocaleString()} ${n === 1 ? one : many}`;
}

/**
 * Why a chosen file's text cannot be sent for import, or null when it can:
 * the engine checks the content, this catches what reading it already shows
 * (nothing in it; bytes that are not UTF-8 text, such as an .xlsx workbook).
 */
export function fileTextProblem(text: string, kind: 'CSV' | 'vCard'): string | null {
  if (text.trim() === '') return 'The file is empty: there is nothing to import.';
  if (text.includes('\u0000')) return `This is not a ${kind} text file (a spreadsheet workbook, perhaps?): export it as ${kind === 'CSV' ? '"CSV UTF-8"' : 'a .vcf file'} and choose that.`;
  if (text.includes('\uFFFD')) return `The file is not UTF-8 text, so names and accents would come out garbled: save it ${kind === 'CSV' ? 'as "CSV UTF-8"' : 'in UTF-8'} and choose it again.`;
  return null;
}

const ROW_FIELD = /^\/rows\/(\d+)\/?(.*)$/;

/** The per-row problems of a refused import (`field` = `/rows/<row>/<field>`), in row order. */
export function rowErrorsOf(failure: ApiFailure): RowError[] {
  if (!isErrorEnvelope(failure.body)) return [];
  const errors: RowError[] = [];
  for (const { error } of failure.body.errors) {
    const match = ROW_FIELD.exec(error.field);
    // The message names its row for API clients ("Row 3: …"); the list says it already.
    if (match) errors.push({ row: Number(match[1]), field: match[2].replace('/', '.') || null, message: error.message.replace(/^Row \d+: /, '') });
  }
  return errors.sort((a, b) => a.row - b.row);
}

/** How many rows have no problem at all. */
export function validRowCount(rows: number, errors: RowError[]): number {
  return rows - new Set(errors.map((e) => e.row)).size;
}

/** A refused import: why, and the rows (or cards) it named. */
export interface Refusal {
  message: string;
  errors: RowError[];
}

/** What to tell about a failed import; the engine writes nothing when it refuses one. */
export function refusalOf(err: unknown, unit: ImportUnit): Refusal {
  const errors = err instanceof ApiFailure ? rowErrorsOf(err) : [];
  if (errors.length === 0) return { message: refusalText(err, 'The import failed; nothing was imported.'), errors };
  const rows = new Set(errors.map((e) => e.row)).size;
  return { message: `Nothing was imported: ${counted(rows, `${unit} has`, `${unit}s have`)} problems.`, errors };
}
