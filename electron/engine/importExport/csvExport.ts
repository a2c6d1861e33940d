import { stringify } from 'csv-stringify/sync';
import { ADDRESS_KEYS } from '../../../shared/resources/address.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * The columns of an export: the records' fields in the order the JSON has
 * them, nested objects opened up (`address.city`). A field that is an
 * object in one record and null in another is still opened up; keys seen
 * in only some records (custom fields) are columns all the same.
 */
class ColumnTree {
  private readonly children = new Map<string, ColumnTree>();
  private leaf = false;
  private object = false;

  add(value: Json): void {
    if (value === null) return;
    if (typeof value !== 'object' || Array.isArray(value)) {
      this.leaf = true;
      return;
    }
    this.object = true;
    for (const [key, child] of Object.entries(value)) {
      if (!this.children.has(key)) this.children.set(key, new ColumnTree());
      this.children.get(key)!.add(child);
    }
  }

  /** Puts these keys of `key`'s object first, in this order (custom fields in their definitions' order). */
  lead(key: string, first: readonly string[]): void {
    const node = this.children.get(key);
    if (!node) return;
    const rest = [...node.children].filter(([k]) => !first.includes(k));
    node.children.clear();
    for (const name of first) node.children.set(name, new ColumnTree());
    for (const [k, v] of rest) node.children.set(k, v);
  }

  /** Top-level fields whose name matches: their object has these keys even where every record has null. */
  shape(match: RegExp, keys: readonly string[]): void {
    for (const [name, node] of this.children) {
      if (!match.test(name)) continue;
      for (const key of keys) if (!node.children.has(key)) node.children.set(key, new ColumnTree());
    }
  }

  paths(prefix: string[] = []): string[][] {
    // An always-empty object (no custom fields at all) makes no column; an always-null field makes an empty one.
    const own = this.leaf || (this.children.size === 0 && !this.object) ? [prefix] : [];
    return [...own, ...[...this.children].flatMap(([key, child]) => child.paths([...prefix, key]))];
  }
}

/** Cells that a spreadsheet would run as a formula start with one of these (OWASP's list). */
const FORMULA_START = /^[=+\-@\t\r]/;
const PLAIN_NUMBER = /^[+-]?\d+(\.\d+)?$/;

/**
 * Guards against formula injection: a text cell a spreadsheet would run as
 * a formula gets a leading `'`, which spreadsheets show as text. A plain
 * number (`-12.50`) is no formula and is left alone.
 */
export function safeCell(text: string): string {
  return FORMULA_START.test(text) && !PLAIN_NUMBER.test(text) ? `'${text}` : text;
}

/** The export's guard undone on import: `'=SUM(1)` reads back as `=SUM(1)`, so an export imports back unchanged. */
export function unguardCell(text: string): string {
  return text.startsWith("'") && FORMULA_START.test(text.slice(1)) ? text.slice(1) : text;
}

function cellOf(value: Json | undefined): string {
  if (value === null || value === undefined) return '';
  if (Array.isArray(value)) return value.map((v) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v))).join('; ');
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

function valueAt(record: Json, path: string[]): Json | undefined {
  let at: Json | undefined = record;
  for (const key of path) {
    if (at === null || at === undefined || typeof at !== 'object' || Array.isArray(at)) return undefined;
    at = at[key];
  }
  return at;
}

/**
 * Records (JSON text, as the list answers them) as CSV: a header row of
 * column paths, one row per record; arrays joined with `; `; UTF-8 with a
 * BOM and CRLF line ends, so spreadsheet apps read accents right.
 * `customFields` are the resource's custom field names: they are columns
 * even when no exported record has a value. `header` names a column
 * (its path joined with dots unless given: `address.city`).
 */
export function recordsToCsv(records: string[], customFields: readonly string[] = [], sample?: string, header = (path: string[]) => path.join('.')): string {
  const parsed = records.map((r) => JSON.parse(r) as Json);
  const tree = new ColumnTree();
  for (const record of parsed.length > 0 ? parsed : sample ? [JSON.parse(sample) as Json] : []) tree.add(record);
  tree.lead('custom_fields', customFields);
  // Addresses (`address`, `billing_address`, …) are nullable objects: always their five columns, so exports line up.
  tree.shape(/(^|_)address$/, ADDRESS_KEYS);
  const paths = tree.paths();
  if (paths.length === 1 && paths[0].length === 0) return '\uFEFF';
  const rows = [paths.map((p) => safeCell(header(p))), ...parsed.map((record) => paths.map((p) => safeCell(cellOf(valueAt(record, p)))))];
  return stringify(rows, { bom: true, record_delimiter: 'windows' });
}
