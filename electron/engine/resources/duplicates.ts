import type { EngineContext } from '../context.js';
import { invalidParam } from '../problems.js';
import { pagingParams, type ListPage } from './listing.js';
import { single, type RawQuery } from './params.js';
import type { DuplicateReason, MergeableType } from '../../../shared/resources/merge.js';

/**
 * A phone number's digits without the usual separators, as SQL. Spelled with
 * REPLACE so it runs alike on SQLite and PostgreSQL.
 */
const digits = (column: string) => ['+', ' ', '-', '(', ')', '.', '/'].reduce((sql, sign) => `replace(${sql}, '${sign}', '')`, column);

/**
 * The phone key: the last nine digits, so "+1 555 123 4567" and "(555) 123-4567"
 * meet whatever prefix (country code, trunk 0) each was typed with; shorter
 * numbers (extensions) are not keys.
 */
const phoneKey = (d: string) => `substr(${d}, max(1, length(${d}) - 8))`;
const MIN_PHONE_DIGITS = 7;

/** How each type's keys are read from its table: a name, and the columns a name must share (an organization). */
interface KeySource {
  table: string;
  name: string;
  scope: string;
}

const SOURCES: Record<MergeableType, KeySource> = {
  // A person's name within their organization; an organization's among organizations.
  contact: { table: 'contacts', name: 'lower(trim(name))', scope: 'is_organization, contact_id' },
  lead: { table: 'leads', name: "lower(trim(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))))", scope: "lower(trim(coalesce(organization_name, '')))" },
};

/** The phone key of a column, as SQL (the expression the phone indexes of migration 30 hold). */
export const phoneKeyOf = (column: string) => phoneKey(digits(column));

/**
 * Every group of two or more records sharing a key: (reason, key, ids). Each
 * reason is grouped on its own, over its expression, so the database reads the
 * key's index in order instead of sorting the table.
 */
function groupsSql(source: KeySource): string {
  const { table, name, scope } = source;
  const phone = (column: string) => `SELECT id, ${phoneKeyOf(column)} AS k FROM ${table} WHERE ${column} IS NOT NULL AND length(${digits(column)}) >= ${MIN_PHONE_DIGITS}`;
  return `SELECT 'email' AS reason, lower(trim(email)) AS key, json_group_array(id) AS ids, MIN(id) AS first_id FROM ${table}
      WHERE lower(trim(email)) <> '' GROUP BY lower(trim(email)) HAVING COUNT(*) > 1
    UNION ALL
    SELECT 'name' AS reason, ${name} AS key, json_group_array(id) AS ids, MIN(id) AS first_id FROM ${table}
      WHERE ${name} <> '' GROUP BY ${name}, ${scope} HAVING COUNT(*) > 1
    UNION ALL
    SELECT 'phone' AS reason, k AS key, json_group_array(DISTINCT id) AS ids, MIN(id) AS first_id FROM (${phone('phone')} UNION ALL ${phone('mobile')}) p
      GROUP BY k HAVING COUNT(DISTINCT id) > 1`;
}

/**
 * Likely duplicates among contacts or leads (issue 32): records sharing an
 * email (ignoring case), a phone number (its digits, see phoneKey), or a name
 * in the same organization (ignoring case and surrounding spaces). Keys are
 * grouped in SQL, one pass over the table, never compared pair by pair.
 */
export class Duplicates {
  constructor(private readonly ctx: EngineContext) {}

  /** `GET /v2/{contacts|leads}/duplicates`: groups of two or more, a page at a time; or, given `email`, `phone` or `name`, the records a new one would duplicate. */
  page(type: MergeableType, query: RawQuery): ListPage {
    const candidate = candidateOf(query);
    const { page, perPage } = pagingParams(query);
    if (candidate) return { rows: this.matches(type, candidate).map(groupJson), page: 1, perPage, hasMore: false };
    const rows = this.ctx.statements.get(`SELECT reason, key, ids FROM (${groupsSql(SOURCES[type])}) g ORDER BY reason, key, first_id LIMIT ? OFFSET ?`)
      .all(perPage + 1, (page - 1) * perPage) as { reason: DuplicateReason; key: string; ids: string }[];
    const hasMore = rows.length > perPage;
    if (hasMore) rows.pop();
    return { rows: rows.map((row) => groupJson({ reason: row.reason, key: row.key, ids: (JSON.parse(row.ids) as number[]).sort((a, b) => a - b) })), page, perPage, hasMore };
  }

  /** The records a record not yet saved would duplicate, one group per reason that matched. */
  private matches(type: MergeableType, candidate: Candidate): Group[] {
    const source = SOURCES[type];
    const groups: Group[] = [];
    const find = (reason: DuplicateReason, key: string | null, sql: string, params: unknown[]) => {
      if (key === null || key === '') return;
      const ids = this.ctx.statements.get(`SELECT id FROM ${source.table} WHERE ${sql} ORDER BY id LIMIT 10`).pluck().all(...params) as number[];
      if (ids.length > 0) groups.push({ reason, key, ids });
    };
    const email = candidate.email?.trim().toLowerCase() ?? null;
    find('email', email, 'lower(trim(email)) = ?', [email]);
    const phone = phoneDigits(candidate.phone);
    const phoneMatch = (column: string) => `${phoneKeyOf(column)} = ?`;
    find('phone', phone, `${phoneMatch('phone')} OR ${phoneMatch('mobile')}`, [phone, phone]);
    const name = candidate.name?.trim().toLowerCase() ?? null;
    // Contacts' email and name keys are indexed (migration 30); a lead's name is two columns.
    find('name', name, `${source.name} = ?`, [name]);
    return groups;
  }
}

interface Group {
  reason: DuplicateReason;
  key: string;
  ids: number[];
}

interface Candidate {
  email?: string;
  phone?: string;
  name?: string;
}

const CANDIDATE_PARAMS = ['email', 'phone', 'name'] as const;
const KNOWN_PARAMS = new Set<string>([...CANDIDATE_PARAMS, 'page', 'per_page']);

function candidateOf(query: RawQuery): Candidate | null {
  const unknown = Object.keys(query).find((name) => !KNOWN_PARAMS.has(name));
  if (unknown !== undefined) throw invalidParam(unknown, 'unknown parameter');
  const given = CANDIDATE_PARAMS.filter((name) => single(query, name) !== undefined);
  if (given.length === 0) return null;
  return Object.fromEntries(given.map((name) => [name, single(query, name)]));
}

/** A typed phone number's key (see phoneKey), or null when it has too few digits to be one. */
function phoneDigits(phone: string | undefined): string | null {
  const only = (phone ?? '').replace(/\D/g, '');
  return only.length >= MIN_PHONE_DIGITS ? only.slice(-9) : null;
}

function groupJson(group: Group): string {
  return JSON.stringify(group);
}
