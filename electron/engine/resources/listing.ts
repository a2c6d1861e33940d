import { invalidParam } from '../problems.js';
import type { StatementCache } from '../db/statements.js';
import { phoneKeySql } from '../db/phoneKeySql.js';
import { boolParam, enumParam, idListParam, intParam, recordIdParam, single, type RawQuery } from './params.js';
import { ftsMatchExpression } from './search.js';
import { savedSelection, type SavedSelection } from './savedSelections.js';
import { SMART_LIST_TYPES } from '../../../shared/resources/smartList.js';

/** How one list filter maps to SQL. Values are always bound, never spliced. */
export type FilterDef =
  | { kind: 'id'; column: string }
  | { kind: 'string'; column: string }
  /** A phone number, matched exactly: found through its key's index (migration 33), then compared. */
  | { kind: 'phone'; column: string }
  | { kind: 'bool'; column: string }
  | { kind: 'enum'; column: string; values: readonly string[] };

export interface Clause {
  sql: string;
  params: unknown[];
  /**
   * The same condition written so that no index drives the query (SQLite: `+column`): for a filter that may
   * match a large part of a big table (a status, an owner), which must then be sorted (see walkSortIndex).
   */
  undriven?: string;
}

/**
 * The list interface of one resource: which filters and sorts exist and
 * how the row becomes JSON. Every name a client sends is checked against
 * these tables; anything else is a 400 invalid_param.
 */
export interface ListDefinition {
  resource: string;
  /** FROM clause, the table aliased (`contacts c`). */
  from: string;
  /** SQL expression producing the record's JSON text. */
  json: string;
  idColumn: string;
  filters: Record<string, FilterDef>;
  sorts: Record<string, string>;
  /** ORDER BY used when no sort_by is given (without the id tie-breaker): columns, each with its direction (`s.pipeline_id ASC, s.position ASC`). */
  defaultOrder: string;
  /**
   * The FTS5 table behind `q`. A search without sort_by is then driven by the
   * index itself, newest match first: FTS5 streams its matches in rowid order,
   * the other filters apply as they come, and LIMIT stops early, instead of
   * collecting every match and sorting them. Newest first also reads best.
   */
  searchIndex?: string;
  maxPerPage?: number;
  maxPage?: number;
  /** Parameters the resource handles itself (`q`, `custom_fields[...]`); return undefined for unknown names. */
  extraFilter?: (name: string, value: string) => Clause | undefined;
  /** Sort names the resource handles itself (`custom_fields:<name>`). */
  extraSort?: (name: string) => string | undefined;
  /** `sort_by=<field>` without a direction sorts descending (text messages: "default descending"). */
  descendingByDefault?: boolean;
  /** Filters that only make sense together (`resource_type` with `resource_id`): one without the other is a 400. */
  together?: readonly (readonly [string, string])[];
  /** Parameters that always narrow the result, even with inclusive=false (like `ids`). */
  narrowing?: readonly string[];
  /** Clauses that always apply (visibility rules), ANDed with the rest. */
  scope?: Clause[];
}

export interface ListPage {
  rows: string[];
  page: number;
  perPage: number;
  hasMore: boolean;
  /** How many records match in all: only when the client asked with `count=true` (an Outpost extension; it costs a count). */
  total?: number;
}

const PAGING = new Set(['page', 'per_page', 'sort_by', 'inclusive', 'count', 'smart_list_id']);

/**
 * What a list query needs besides its definition: the statement cache, and
 * who is asking, for `smart_list_id` (a private smart list is its owner's
 * only). Without a viewer only shared smart lists can be named.
 */
export interface ListReader {
  statements: StatementCache;
  viewerId?: number;
}

export function runList(def: ListDefinition, query: RawQuery, statements: StatementCache, viewerId?: number): ListPage {
  const reader: ListReader = { statements, viewerId };
  const { page, perPage } = pagingParams(query, def.maxPerPage, def.maxPage);
  const chosen = selection(def, query, reader);
  const params = [...chosen.params, perPage + 1, (page - 1) * perPage];
  const rows = statements.get(pageSqlFor(def, chosen, statements, params)).pluck().all(...params) as string[];
  const hasMore = rows.length > perPage;
  if (hasMore) rows.pop();
  return { rows, page, perPage, hasMore, ...totalAsked(def, query, reader) };
}

/** Filters by a status, a kind or an owner that match at least this many rows are left to the sort's index (walkSortIndex). */
export const BROAD_MATCHES = 2000;

/**
 * The page's SQL, its ids read by walking the sort's index where SQLite
 * would otherwise sort a large part of the table (walkSortIndex).
 */
function pageSqlFor(def: ListDefinition, chosen: Selection, statements: StatementCache, params: unknown[]): string {
  const sql = pageSql(def, chosen);
  if (!chosen.undriven || statements.dialect !== 'sqlite' || !statements.sortsRows(sql, params)) return sql;
  return walkSortIndex(chosen, statements) ? pageSql(def, { ...chosen, whereSql: chosen.undriven.whereSql }) : sql;
}

/**
 * Whether a page filtered by equality on a status, a kind or an owner
 * should walk its sort's index, skipping the rows that do not match, rather
 * than let the filter's index find the matches and sort them all. SQLite's
 * planner prefers the filter's index whatever the LIMIT: at a million
 * contacts, a page of one status sorted by name sorted a third of the table
 * (390 ms), where walking `contacts_name` reads about three rows per row of
 * the page (5 ms over HTTP); an owner's contacts alike. Walking only pays
 * while the filters match many rows (a rare status, a colleague with a few
 * contacts, an organization's people would be walked past the whole table),
 * so a bounded count decides (BROAD_MATCHES rows at most: well under a
 * millisecond). Asked only when SQLite's plan sorts: where an index gives
 * both the filter and the order (a kind and a status by last name), it is
 * left alone. PostgreSQL's planner weighs the LIMIT itself.
 */
function walkSortIndex(chosen: Selection, statements: StatementCache): boolean {
  const { broad } = chosen.undriven!;
  const matches = `SELECT count(*) FROM (SELECT 1 FROM ${chosen.from} WHERE ${broad.map((c) => c.sql).join(' AND ')} LIMIT ${BROAD_MATCHES})`;
  return statements.get(matches).pluck().get(...broad.flatMap((c) => c.params)) === BROAD_MATCHES;
}

/**
 * A page in two steps: the page's ids (filters, order, LIMIT and OFFSET over
 * ids alone, read off an index where one serves the order), then the JSON of
 * those rows only. In one step the database builds the JSON of every row it
 * passes on the way: PostgreSQL of each row the OFFSET skips, SQLite of each
 * row its sorter holds (every match, when no index gives the order).
 *
 * The page drives the join (SQLite keeps a CROSS JOIN's order; PostgreSQL
 * plans each run knowing the LIMIT and fetches each row by its key: a generic
 * plan, guessing a tenth of the table, would hash it whole and costs more, so
 * it is not chosen). The page carries its sort keys, so the rows are ordered
 * by the page's own columns: SQLite then reads them in the page's order with
 * no sort of its own, PostgreSQL sorts its few rows.
 */
function pageSql(def: ListDefinition, chosen: Selection): string {
  const items = orderItems(def, chosen);
  // The last item is always the record's id (the search index's rowid is it): the id the JSON is built for.
  const keys = items.slice(0, -1);
  const id = items[items.length - 1]!;
  const columns = [...keys.map((key, i) => `${key.expr} AS sort_${i + 1}`), `${id.expr} AS listed_id`].join(', ');
  const ids = `SELECT ${columns} FROM ${chosen.from}${chosen.whereSql} ORDER BY ${orderSql(items)} LIMIT ? OFFSET ?`;
  const pageOrder = [...keys.map((key, i) => `page.sort_${i + 1} ${key.direction}`), `page.listed_id ${id.direction}`].join(', ');
  const byId = jsonById(def);
  if (byId !== null) return `SELECT ${byId} FROM (${ids}) AS page ORDER BY ${pageOrder}`;
  return `SELECT ${def.json} FROM (${ids}) AS page CROSS JOIN ${def.from} WHERE ${def.idColumn} = page.listed_id ORDER BY ${pageOrder}`;
}

/**
 * The JSON over the page's id alone, when the list's JSON reads nothing of
 * the row but its id (a stored document, db/documents.ts: `(SELECT doc FROM
 * contact_docs WHERE id = c.id)`); null when it reads the row's columns. The
 * row itself is then never read (on SQLite a seek per row, measured ~13 µs a
 * page of 26 contacts).
 */
function jsonById(def: ListDefinition): string | null {
  const alias = def.idColumn.slice(0, def.idColumn.indexOf('.'));
  const json = def.json.replace(new RegExp(`\\b${alias}\\.id\\b`, 'g'), 'page.listed_id');
  return new RegExp(`\\b${alias}\\.`).test(json) ? null : json;
}

/** `count=true` asks for the list's total too, for "1–100 of 50 000" (an Outpost extension; real clients never send it, so pay nothing). */
export function countAsked(query: RawQuery): boolean {
  const asked = single(query, 'count');
  return asked !== undefined && boolParam('count', asked);
}

function totalAsked(def: ListDefinition, query: RawQuery, reader: ListReader): { total?: number } {
  return countAsked(query) ? { total: countList(def, query, reader.statements, reader.viewerId) } : {};
}

/** How many records the list's filters select (paging and sorting ignored): the counts beside a list. */
export function countList(def: ListDefinition, query: RawQuery, statements: StatementCache, viewerId?: number): number {
  const { from, whereSql, params } = selection(def, query, { statements, viewerId });
  return statements.get(`SELECT count(*) FROM ${from}${whereSql}`).pluck().get(...params) as number;
}

/**
 * The ids of every record a list query selects, across all its pages, in the
 * list's order (paging ignored): what "all N matching" a list means to a bulk
 * edit. The same selection() as the list itself, so the two never disagree.
 */
export function idsMatching(def: ListDefinition, query: RawQuery, statements: StatementCache, viewerId?: number): number[] {
  const chosen = selection(def, query, { statements, viewerId });
  const items = orderItems(def, chosen);
  // The order's last term is the record's id (the search index's rowid when it drives, whose FROM may be the index alone).
  return statements.get(`SELECT ${items[items.length - 1]!.expr} FROM ${chosen.from}${chosen.whereSql} ORDER BY ${orderSql(items)}`).pluck().all(...chosen.params) as number[];
}

export interface Selection {
  from: string;
  whereSql: string;
  params: unknown[];
  /** Set when the search index drives the query (see ListDefinition.searchIndex). */
  searchIndex?: string;
  /** The sort asked for: the query's `sort_by`, else its smart list's. */
  sortBy?: string;
  /** With filters that may match many rows (all ANDed): the WHERE with those written undriven, and those filters. */
  undriven?: { whereSql: string; broad: Clause[] };
}

/**
 * The FROM and WHERE of a list query: every parameter checked, every value
 * bound. `smart_list_id` (contacts, leads, deals, tasks) adds the smart
 * list's saved filters as one more condition, a nested selection of ids, so
 * they and the query's own filters must both hold, whatever `inclusive` says.
 * `reader` is needed only for `smart_list_id`. `nested`: the selection is a
 * subquery's, whose order does not matter (never driven by the search index).
 */
export function selection(def: ListDefinition, query: RawQuery, reader?: ListReader, nested = false): Selection {
  for (const [a, b] of def.together ?? []) {
    if ((query[a] === undefined) !== (query[b] === undefined)) {
      const missing = query[a] === undefined ? a : b;
      throw invalidParam(missing, `${a} and ${b} are given together`);
    }
  }
  const inclusive = query.inclusive === undefined ? true : boolParam('inclusive', single(query, 'inclusive')!);

  const saved = query.smart_list_id === undefined ? null : smartListOf(def, query, reader);
  const sortBy = single(query, 'sort_by') ?? saved?.sortBy ?? undefined;
  const filters: Clause[] = [];
  const always: Clause[] = [...(def.scope ?? [])];
  if (saved) always.push(savedClause(def, saved));
  // Without a sort, a search (the query's, else the smart list's) lists newest match first, as the list alone would.
  const searchText = single(query, 'q') ?? single(saved?.filters ?? {}, 'q');
  const search = def.searchIndex && !nested && searchText !== undefined && sortBy === undefined ? searchDriven(def.searchIndex, searchText) : null;
  if (search) always.push(search.clause);
  for (const [name, raw] of Object.entries(query)) {
    if (PAGING.has(name) || raw === undefined || (search && name === 'q')) continue;
    if (name === 'ids') {
      const ids = idListParam(name, raw);
      always.push({ sql: `${def.idColumn} IN (${ids.map(() => '?').join(',')})`, params: ids });
      continue;
    }
    (def.narrowing?.includes(name) ? always : filters).push(filterClause(def, name, raw));
  }

  const joiner = inclusive ? ' AND ' : ' OR ';
  /** The WHERE of `always` and the filters (joined as `inclusive` says), each clause written as `sqlOf` says. */
  const whereOf = (sqlOf: (c: Clause) => string) => {
    const clauses = [...always.map(sqlOf), ...(filters.length > 0 ? [`(${filters.map(sqlOf).join(joiner)})`] : [])];
    return clauses.length ? ` WHERE ${clauses.join(' AND ')}` : '';
  };
  const whereSql = whereOf((c) => c.sql);
  const params = [...always, ...filters].flatMap((c) => c.params);
  if (!search) {
    // Filters that may match many rows, when all must hold: the page may walk its sort's index past them instead.
    const broad = filters.filter((f) => f.undriven !== undefined);
    const undriven = broad.length > 0 && inclusive ? { whereSql: whereOf((c) => c.undriven ?? c.sql), broad } : undefined;
    return { from: def.from, whereSql, params, sortBy, undriven };
  }
  const index = def.searchIndex!;
  // The match alone: the index answers it without the records (its rowids are theirs), as it does the order.
  if (always.length === 1 && filters.length === 0) return { from: index, whereSql, params, searchIndex: index, sortBy };
  return { from: `${index} JOIN ${def.from} ON ${def.idColumn} = ${index}.rowid`, whereSql, params, searchIndex: index, sortBy };
}

/** The smart list `smart_list_id` names, visible to the reader and of this list's resource. */
function smartListOf(def: ListDefinition, query: RawQuery, reader: ListReader | undefined): SavedSelection {
  if (!(SMART_LIST_TYPES as readonly string[]).includes(def.resource)) throw invalidParam('smart_list_id', 'unknown parameter');
  const id = recordIdParam('smart_list_id', single(query, 'smart_list_id')!);
  if (!reader) throw invalidParam('smart_list_id', 'not taken here');
  return savedSelection(reader.statements, id, def.resource, reader.viewerId);
}

/** The saved filters as one condition: the ids they select (their own `inclusive` applies among them only). */
function savedClause(def: ListDefinition, saved: SavedSelection): Clause {
  // No reader inside: a smart list's filters never name another smart list (refused when saved).
  const inner = selection(def, saved.filters, undefined, true);
  return { sql: `${def.idColumn} IN (SELECT ${def.idColumn} FROM ${inner.from}${inner.whereSql})`, params: inner.params };
}

/**
 * Checks a list query as the list would (every filter, its value, and the
 * sort) without running it: smart lists are checked so when saved. Throws the
 * list's own `invalid_param` problems.
 */
export function checkListQuery(def: ListDefinition, query: RawQuery): void {
  const { sortBy } = selection(def, query, undefined, true);
  if (sortBy !== undefined && sortBy !== '') sortAsked(def, sortBy);
}

/**
 * `q` over an FTS5 table: every word of the input must prefix-match a word
 * of the indexed text or a part of a name's word, or a phone is matched by
 * its digits (search.ts makes the words safe to match).
 */
export function ftsPrefixQuery(ftsTable: string, idColumn: string, text: string): Clause {
  const match = ftsMatchExpression(text, ftsTable);
  if (match === null) return { sql: '1 = 1', params: [] };
  return { sql: `${idColumn} IN (SELECT rowid FROM ${ftsTable} WHERE ${ftsTable} MATCH ?)`, params: [match] };
}

/** The MATCH clause of an index-driven search (see ListDefinition.searchIndex). */
function searchDriven(index: string, text: string): { clause: Clause } {
  const match = ftsMatchExpression(text, index);
  return { clause: match === null ? { sql: '1 = 1', params: [] } : { sql: `${index} MATCH ?`, params: [match] } };
}

/** A list's `page` (from 1) and `per_page` (25 unless given, at most `maxPerPage`). */
export function pagingParams(query: RawQuery, maxPerPage = 100, maxPage = Number.MAX_SAFE_INTEGER): { page: number; perPage: number } {
  return { page: pageParam(query, 'page', maxPage, 1), perPage: pageParam(query, 'per_page', maxPerPage, 25) };
}

function pageParam(query: RawQuery, name: string, max: number, fallback: number): number {
  const value = single(query, name);
  return value === undefined || value === '' ? fallback : intParam(name, value, 1, max);
}

function filterClause(def: ListDefinition, name: string, raw: string | string[]): Clause {
  const filter = Object.hasOwn(def.filters, name) ? def.filters[name] : undefined;
  if (!filter) {
    const value = Array.isArray(raw) ? raw.join(',') : raw;
    const extra = def.extraFilter?.(name, value);
    if (extra) return extra;
    throw invalidParam(name, 'unknown parameter');
  }
  const value = single({ [name]: raw }, name)!;
  // An id, a flag or a status may match much of the table: the page may walk its sort's index past it (walkSortIndex).
  const broad = (param: unknown): Clause => ({ sql: `${filter.column} = ?`, params: [param], undriven: `+${filter.column} = ?` });
  switch (filter.kind) {
    case 'id':
      return broad(recordIdParam(name, value));
    case 'bool':
      return broad(boolParam(name, value) ? 1 : 0);
    case 'enum':
      return broad(enumParam(name, value, filter.values));
    case 'string':
      return { sql: `${filter.column} = ?`, params: [value] };
    case 'phone':
      return { sql: `(${phoneKeySql(filter.column)} = ${phoneKeySql('?')} AND ${filter.column} = ?)`, params: [value, value] };
  }
}

/** One term of a list's ORDER BY. */
interface OrderItem {
  expr: string;
  direction: 'ASC' | 'DESC';
}

const orderSql = (items: OrderItem[]) => items.map((item) => `${item.expr} ${item.direction}`).join(', ');

/**
 * The ORDER BY of a selection, its last term always the record's id: the
 * search index's rowid, newest match first, when it drives; else the sort
 * asked for (`sort_by=name`, `name:asc`, `name:desc`), or the list's default,
 * always tie-broken by id so pages are stable.
 */
function orderItems(def: ListDefinition, { searchIndex, sortBy }: Selection): OrderItem[] {
  if (searchIndex) return [{ expr: `${searchIndex}.rowid`, direction: 'DESC' }];
  if (sortBy === undefined || sortBy === '') return [...defaultOrderItems(def), { expr: def.idColumn, direction: 'ASC' }];
  const { column, direction } = sortAsked(def, sortBy);
  return [{ expr: column, direction }, { expr: def.idColumn, direction }];
}

/** `defaultOrder` as terms: columns, each with its direction. */
const defaultOrderItems = (def: ListDefinition): OrderItem[] =>
  def.defaultOrder.split(',').map((term) => {
    const [expr, direction] = term.trim().split(/\s+/);
    return { expr: expr!, direction: direction?.toUpperCase() === 'DESC' ? 'DESC' : 'ASC' };
  });

/** The column and direction `sort_by` names; anything else is a 400 invalid_param. */
function sortAsked(def: ListDefinition, sortBy: string): { column: string; direction: 'ASC' | 'DESC' } {
  const match = /^(.+?)(?::(asc|desc))?$/i.exec(sortBy.trim());
  const field = match?.[1] ?? '';
  const direction = (match?.[2] ?? (def.descendingByDefault ? 'desc' : 'asc')).toUpperCase() as 'ASC' | 'DESC';
  const column = (Object.hasOwn(def.sorts, field) ? def.sorts[field] : undefined) ?? def.extraSort?.(field);
  if (!column) {
    const allowed = Object.keys(def.sorts).join(', ');
    throw invalidParam('sort_by', `must be one of ${allowed}${def.extraSort ? ', custom_fields:<name>' : ''}, given: ${sortBy}`);
  }
  return { column, direction };
}
