import type { Actor, EngineContext } from '../context.js';
import { forbidden, invalidParam } from '../problems.js';
import { enumParam, recordIdParam, single, type RawQuery } from '../resources/params.js';
import { parseTimeZone } from '../resources/timeZone.js';
import { REPORT_INTERVALS, type ReportInterval } from '../../../shared/resources/report.js';

/** Reports refuse longer ranges: a week series over more would be thousands of rows nobody reads. */
const MAX_RANGE_YEARS = 3;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Any name a report does not take is a 400, as the lists answer. */
export function rejectUnknown(query: RawQuery, allowed: readonly string[]): void {
  const unknown = Object.keys(query).find((name) => !allowed.includes(name));
  if (unknown !== undefined) throw invalidParam(unknown, 'unknown parameter');
}

/**
 * Whose data: agents only ever their own (another id is a 403, not an empty
 * report, so a screen cannot mistake it for "no data"); admins the whole
 * team (null) unless they name a user, who must exist.
 */
export function ownerOf(ctx: EngineContext, query: RawQuery, actor: Actor): number | null {
  const raw = single(query, 'owner_id');
  const id = raw === undefined ? undefined : recordIdParam('owner_id', raw);
  if (actor.role !== 'admin') {
    if (id !== undefined && id !== actor.userId) throw forbidden('An agent sees only their own reports: owner_id must be your own user id or left out.');
    return actor.userId;
  }
  if (id === undefined) return null;
  if (!ctx.statements.get('SELECT 1 FROM users WHERE id = ?').get(id)) throw invalidParam('owner_id', `no user has the id ${id}`);
  return id;
}

/** The pipeline asked for, or (required) the one with the lowest id; null when optional and absent, or when there is none. */
export function pipelineOf(ctx: EngineContext, query: RawQuery, required: boolean): number | null {
  const raw = single(query, 'pipeline_id');
  if (raw === undefined) {
    return required ? ((ctx.statements.get('SELECT min(id) FROM pipelines').pluck().get() as number | null) ?? null) : null;
  }
  const id = recordIdParam('pipeline_id', raw);
  if (!ctx.statements.get('SELECT 1 FROM pipelines WHERE id = ?').get(id)) throw invalidParam('pipeline_id', `no pipeline has the id ${id}`);
  return id;
}

export function intervalOf(query: RawQuery): ReportInterval {
  const raw = single(query, 'interval');
  return raw === undefined ? 'month' : enumParam('interval', raw, REPORT_INTERVALS);
}

/**
 * A range of calendar days in the account's time zone, both ends inclusive,
 * with the UTC instants that bound it (stored times are UTC ISO text, so
 * the bounds compare as text) and the SQLite modifier that turns a stored
 * time into its local day.
 */
export interface DayRange {
  from: string;
  to: string;
  startUtc: string;
  endUtcExclusive: string;
  /** `date(column, localShift)` is the column's day in the account's zone: `+60 minutes`. */
  localShift: string;
  /** The account's offset from UTC. */
  offsetMinutes: number;
}

export function rangeOf(ctx: EngineContext, query: RawQuery): DayRange {
  const offset = accountOffsetMinutes(ctx);
  const today = utcDay(new Date(ctx.clock.now().getTime() + offset * 60_000));
  const to = dayParam(query, 'to') ?? today;
  const from = dayParam(query, 'from') ?? defaultFrom(to);
  if (from > to) throw invalidParam('from', `must not be after to (${to}), given: ${from}`);
  if (addYears(from, MAX_RANGE_YEARS) <= to) throw invalidParam('from', `the range may span at most ${MAX_RANGE_YEARS} years, given: ${from} to ${to}`);
  return {
    from,
    to,
    startUtc: utcInstant(from, offset),
    endUtcExclusive: utcInstant(addDays(to, 1), offset),
    localShift: `${offset >= 0 ? '+' : '-'}${Math.abs(offset)} minutes`,
    offsetMinutes: offset,
  };
}

/** The account's zone is a fixed offset (`UTC+01:00`, the spec's form). */
function accountOffsetMinutes(ctx: EngineContext): number {
  const text = (ctx.statements.get('SELECT timezone FROM account WHERE id = 1').pluck().get() as string | undefined) ?? 'UTC+00:00';
  const zone = parseTimeZone('timezone', text);
  return 'offsetMinutes' in zone ? zone.offsetMinutes : 0;
}

function dayParam(query: RawQuery, name: 'from' | 'to'): string | undefined {
  const raw = single(query, name);
  if (raw === undefined) return undefined;
  const text = raw.trim();
  const match = DAY.exec(text);
  if (!match || utcDay(new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])))) !== text) {
    throw invalidParam(name, `must be a calendar date YYYY-MM-DD, given: ${raw}`);
  }
  return text;
}

/** Twelve whole months ending with `to`'s month. */
function defaultFrom(to: string): string {
  const [year, month] = to.split('-').map(Number);
  return utcDay(new Date(Date.UTC(year, month - 12, 1)));
}

/** `YYYY-MM-DD` as it reads in UTC. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function dayDate(day: string): Date {
  return new Date(`${day}T00:00:00Z`);
}

export function addDays(day: string, days: number): string {
  return utcDay(new Date(dayDate(day).getTime() + days * 86_400_000));
}

function addYears(day: string, years: number): string {
  const date = dayDate(day);
  date.setUTCFullYear(date.getUTCFullYear() + years);
  return utcDay(date);
}

/** The UTC instant of local midnight starting `day`, as stored times are written (`2026-03-01T23:00:00Z`). */
export function utcInstant(day: string, offsetMinutes: number): string {
  return new Date(dayDate(day).getTime() - offsetMinutes * 60_000).toISOString().replace(/\.000Z$/, 'Z');
}

/** SQL: a stored UTC time's calendar day in the account's zone. The shift is made from a number, never from input, so it is spliced. */
export function localDaySql(column: string, range: DayRange): string {
  return `date(${column}, '${range.localShift}')`;
}
