import type { EngineContext } from '../context.js';
import { invalidParam } from '../problems.js';
import { pagingParams, type ListPage } from './listing.js';
import { recordIdParam, single, type RawQuery } from './params.js';
import { closeNameGroups, normalizeName, normalizedNamesAreClose, type NamedRecord } from '../../../shared/resources/nameCloseness.js';
import type { DuplicateReason, MergeableType } from '../../../shared/resources/merge.js';
import { phoneDigitsSql, phoneKeySql } from '../db/phoneKeySql.js';

/** Numbers with fewer digits (extensions) have no phone key: they make no duplicates. */
const MIN_PHONE_DIGITS = 7;

/**
 * How each type's keys are read from its table: a name, and the columns a
 * name must share (an organization); and which records are in an
 * organization, whose names are compared for closeness within it.
 */
interface KeySource {
  table: string;
  name: string;
  scope: string;
  /** The records that belong to an organization (a SQL condition). */
  inOrganization: string;
  /** Their organization: records with equal values are compared. */
  organization: string;
  /** The name as typed, before normalizing. */
  typedName: string;
}

const LEAD_NAME = "trim(coalesce(first_name, '') || ' ' || coalesce(last_name, ''))";
const LEAD_ORGANIZATION = "lower(trim(coalesce(organization_name, '')))";

const SOURCES: Record<MergeableType, KeySource> = {
  // A person's name within their organization; an organization's among organizations.
  contact: {
    table: 'contacts', name: 'lower(trim(name))', scope: 'is_organization, contact_id',
    inOrganization: 'is_organization = 0 AND contact_id IS NOT NULL', organization: 'contact_id', typedName: 'name',
  },
  lead: {
    table: 'leads', name: `lower(trim(${LEAD_NAME}))`, scope: LEAD_ORGANIZATION,
    inOrganization: `${LEAD_ORGANIZATION} <> ''`, organization: LEAD_ORGANIZATION, typedName: LEAD_NAME,
  },
};

/**
 * Every group of two or more records sharing a key, for one reason: (reason,
 * key, ids, first_id). Each reason is grouped on its own, over its
 * expression, so the database reads the key's index in order instead of
 * sorting the table. Names are grouped here only outside organizations
 * (people without one, organizations themselves, leads without an
 * organization name), and only when equal: close names are compared within
 * an organization (closeNameGroups).
 */
function groupsSql(source: KeySource, reason: DuplicateReason): string {
  const { table, name, scope, inOrganization } = source;
  const phone = (column: string) => `SELECT id, ${phoneKeySql(column)} AS k FROM ${table} WHERE ${column} IS NOT NULL AND length(${phoneDigitsSql(column)}) >= ${MIN_PHONE_DIGITS}`;
  switch (reason) {
    case 'email':
      return `SELECT 'email' AS reason, lower(trim(email)) AS key, json_group_array(id) AS ids, MIN(id) AS first_id FROM ${table}
        WHERE lower(trim(email)) <> '' GROUP BY lower(trim(email)) HAVING COUNT(*) > 1`;
    case 'name':
      return `SELECT 'name' AS reason, ${name} AS key, json_group_array(id) AS ids, MIN(id) AS first_id FROM ${table}
        WHERE ${name} <> '' AND NOT (${inOrganization}) GROUP BY ${name}, ${scope} HAVING COUNT(*) > 1`;
    case 'phone':
      return `SELECT 'phone' AS reason, k AS key, json_group_array(DISTINCT id) AS ids, MIN(id) AS first_id FROM (${phone('phone')} UNION ALL ${phone('mobile')}) p
        GROUP BY k HAVING COUNT(DISTINCT id) > 1`;
  }
}

/**
 * The names of records in an organization of two or more named records,
 * by organization: what closeNameGroups compares.
 */
function organizationNamesSql(source: KeySource): string {
  const { table, name, inOrganization, organization, typedName } = source;
  const named = `${inOrganization} AND ${name} <> ''`;
  return `SELECT ${organization} AS organization, id, ${typedName} AS name FROM ${table}
    WHERE ${named} AND ${organization} IN (SELECT ${organization} FROM ${table} WHERE ${named} GROUP BY ${organization} HAVING COUNT(*) > 1)
    ORDER BY ${organization}, id`;
}

type GroupRow = { reason: DuplicateReason; key: string; ids: string };

const groupOfRow = (row: GroupRow): Group => ({ reason: row.reason, key: row.key, ids: (JSON.parse(row.ids) as number[]).sort((a, b) => a - b) });

/** Name groups' order, as the SQL groups': by key, then lowest id. */
const byKeyThenId = (a: Group, b: Group) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.ids[0]! - b.ids[0]!);

/**
 * Likely duplicates among contacts or leads: records sharing an
 * email (ignoring case), a phone number (its last nine digits, db/phoneKeySql.ts), or a name
 * in the same organization. Email and phone keys, and names outside any
 * organization, are grouped in SQL, one pass over the table, never compared
 * pair by pair; names within an organization are compared with each other
 * (shared/resources/nameCloseness.ts: close names, not only equal ones), an
 * organization at a time, since each has few people.
 */
export class Duplicates {
  constructor(private readonly ctx: EngineContext) {}

  /** `GET /v2/{contacts|leads}/duplicates`: groups of two or more, a page at a time; or, given `email`, `phone` or `name`, the records a new one would duplicate. */
  page(type: MergeableType, query: RawQuery): ListPage {
    const candidate = candidateOf(type, query);
    const { page, perPage } = pagingParams(query);
    if (candidate) return { rows: this.matches(type, candidate).map(groupJson), page: 1, perPage, hasMore: false };
    // Groups come by reason (email, name, phone), then key, then lowest id. Email
    // and phone groups are paged by the database; name groups are all computed
    // (they are few) and take their place between them.
    const source = SOURCES[type];
    const start = (page - 1) * perPage;
    const wanted = perPage + 1;
    const rows: Group[] = [];
    const sqlGroups = (reason: DuplicateReason, offset: number, limit: number) =>
      (this.ctx.statements.get(`SELECT reason, key, ids FROM (${groupsSql(source, reason)}) g ORDER BY key, first_id LIMIT ? OFFSET ?`)
        .all(limit, offset) as GroupRow[]).map(groupOfRow);
    const emails = Number(this.ctx.statements.get(`SELECT COUNT(*) FROM (${groupsSql(source, 'email')}) g`).pluck().get());
    if (start < emails) rows.push(...sqlGroups('email', start, wanted));
    const names = this.nameGroups(type);
    const namesFrom = Math.max(0, start - emails);
    rows.push(...names.slice(namesFrom, namesFrom + wanted - rows.length));
    if (rows.length < wanted) rows.push(...sqlGroups('phone', Math.max(0, start - emails - names.length), wanted - rows.length));
    const hasMore = rows.length > perPage;
    if (hasMore) rows.pop();
    return { rows: rows.map(groupJson), page, perPage, hasMore };
  }

  /** Every name group, by key then lowest id: equal names outside organizations (SQL), close names within each. */
  private nameGroups(type: MergeableType): Group[] {
    const source = SOURCES[type];
    const groups = (this.ctx.statements.get(`SELECT reason, key, ids FROM (${groupsSql(source, 'name')}) g`).all() as GroupRow[]).map(groupOfRow);
    const rows = this.ctx.statements.get(organizationNamesSql(source)).raw().all() as [unknown, number, string | null][];
    for (let i = 0; i < rows.length;) {
      const organization = rows[i]![0];
      const members: NamedRecord[] = [];
      for (; i < rows.length && rows[i]![0] === organization; i++) members.push({ id: Number(rows[i]![1]), name: rows[i]![2] ?? '' });
      for (const group of closeNameGroups(members)) groups.push({ reason: 'name', ...group });
    }
    return groups.sort(byKeyThenId);
  }

  /** The records a record not yet saved would duplicate, one group per reason that matched. */
  private matches(type: MergeableType, candidate: Candidate): Group[] {
    const source = SOURCES[type];
    const groups: Group[] = [];
    const find = (reason: DuplicateReason, key: string | null, sql: string, params: unknown[], also: number[] = []) => {
      if (key === null || key === '') return;
      const found = this.ctx.statements.get(`SELECT id FROM ${source.table} WHERE ${sql} ORDER BY id LIMIT ${MATCHES}`).pluck().all(...params) as number[];
      const ids = [...new Set([...found.map(Number), ...also])].sort((a, b) => a - b).slice(0, MATCHES);
      if (ids.length > 0) groups.push({ reason, key, ids });
    };
    const email = candidate.email?.trim().toLowerCase() ?? null;
    find('email', email, 'lower(trim(email)) = ?', [email]);
    const phone = this.phoneKeyOf(candidate.phone);
    const phoneMatch = (column: string) => `${phoneKeySql(column)} = ?`;
    find('phone', phone, `${phoneMatch('phone')} OR ${phoneMatch('mobile')}`, [phone, phone]);
    const name = candidate.name?.trim().toLowerCase() ?? null;
    // Contacts' email and name keys are indexed (migration 30); a lead's name is two columns.
    // Equal names anywhere; close ones too among the people of the organization given.
    const key = name === null ? null : normalizeName(name) || name;
    find('name', key, `${source.name} = ?`, [name], name ? this.closeInOrganization(source, candidate) : []);
    return groups;
  }

  /**
   * A typed phone number's key, computed as the stored numbers' keys are
   * (phoneKeySql, in SQL), or null when it has too few digits to be one.
   */
  private phoneKeyOf(phone: string | undefined): string | null {
    if (phone === undefined) return null;
    const typed = 'CAST(? AS TEXT)';
    const { key, digits } = this.ctx.statements.get(`SELECT ${phoneKeySql(typed)} AS key, length(${phoneDigitsSql(typed)}) AS digits`)
      .get(phone, phone) as { key: string; digits: number };
    return Number(digits) >= MIN_PHONE_DIGITS ? key : null;
  }

  /** The records of the candidate's organization (if it names one) whose names are close to its name. */
  private closeInOrganization(source: KeySource, candidate: Candidate): number[] {
    const wanted = normalizeName(candidate.name ?? '');
    if (candidate.organization === undefined || wanted === '') return [];
    const rows = this.ctx.statements.get(`SELECT id, ${source.typedName} AS name FROM ${source.table}
      WHERE ${source.inOrganization} AND ${source.organization} = ${source === SOURCES.lead ? 'lower(trim(?))' : '?'} ORDER BY id`)
      .all(candidate.organization) as { id: number; name: string | null }[];
    return rows.filter((row) => normalizedNamesAreClose(wanted, normalizeName(row.name ?? ''))).map((row) => Number(row.id));
  }
}

/** At most this many records per group of the create-time check. */
const MATCHES = 10;

interface Group {
  reason: DuplicateReason;
  key: string;
  ids: number[];
}

interface Candidate {
  email?: string;
  phone?: string;
  name?: string;
  /** The organization of the record being created: a contact's `contact_id`, a lead's `organization_name`. */
  organization?: string | number;
}

const CANDIDATE_PARAMS = ['email', 'phone', 'name'] as const;
/** The parameter naming a candidate's organization, per type. */
const ORGANIZATION_PARAM: Record<MergeableType, string> = { contact: 'contact_id', lead: 'organization_name' };

function candidateOf(type: MergeableType, query: RawQuery): Candidate | null {
  const organizationParam = ORGANIZATION_PARAM[type];
  const known = new Set<string>([...CANDIDATE_PARAMS, organizationParam, 'page', 'per_page']);
  const unknown = Object.keys(query).find((name) => !known.has(name));
  if (unknown !== undefined) throw invalidParam(unknown, 'unknown parameter');
  const given = CANDIDATE_PARAMS.filter((name) => single(query, name) !== undefined);
  const organization = single(query, organizationParam);
  if (given.length === 0 && organization === undefined) return null;
  const candidate: Candidate = Object.fromEntries(given.map((name) => [name, single(query, name)]));
  if (organization !== undefined && organization.trim() !== '') {
    candidate.organization = type === 'contact' ? recordIdParam(organizationParam, organization) : organization;
  }
  return candidate;
}

function groupJson(group: Group): string {
  return JSON.stringify(group);
}
