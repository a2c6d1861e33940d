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

/** How each type's keys are read from its table: a name and the scope a name must share (an organization). */
interface KeySource {
  table: string;
  name: string;
  scope: string;
}

const SOURCES: Record<MergeableType, KeySource> = {
  // A person's name within their organization; an organization's among organizations.
  contact: { table: 'contacts', name: 'lower(trim(name))', scope: "CAST(is_organization AS TEXT) || ':' || CAST(coalesce(contact_id, 0) AS TEXT)" },
  lead: { table: 'leads', name: "lower(trim(trim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))))", scope: "lower(trim(coalesce(organization_name, '')))" },
};

/** Every record's keys, one row each: (reason, key, scope, id). */
function keysSql(source: KeySource): string {
  const { table, name, scope } = source;
  return `SELECT 'email' AS reason, lower(trim(email)) AS key, '' AS scope, id FROM ${table} WHERE email IS NOT NULL AND trim(email) <> ''
    UNION ALL
    SELECT 'phone' AS reason, ${phoneKey('d')} AS key, '' AS scope, id FROM (
      SELECT id, ${digits('phone')} AS d FROM ${table} WHERE phone IS NOT NULL
      UNION ALL SELECT id, ${digits('mobile')} AS d FROM ${table} WHERE mobile IS NOT NULL) p WHERE length(d) >= ${MIN_PHONE_DIGITS}
    UNION ALL
    SELECT 'name' AS reason, ${name} AS key, ${scope} AS scope, id FROM ${table} WHERE ${name} <> ''`;
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
    const rows = this.ctx.statements.get(`SELECT reason, key, json_group_array(DISTINCT id) AS ids FROM (${keysSql(SOURCES[type])}) k
      GROUP BY reason, key, scope HAVING COUNT(DISTINCT id) > 1 ORDER BY reason, key, scope LIMIT ? OFFSET ?`)
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
    const phoneMatch = (column: string) => `(${column} IS NOT NULL AND length(${digits(column)}) >= ${MIN_PHONE_DIGITS} AND ${phoneKey(digits(column))} = ?)`;
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
