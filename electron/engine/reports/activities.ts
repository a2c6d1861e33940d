import type { EngineContext } from '../context.js';
import type { ActivityReportRow } from '../../../shared/resources/report.js';
import { intervalOf, ownerOf, rangeOf } from './params.js';
import { Periods } from './periods.js';
import type { Report } from './report.js';

type Kind = 'calls' | 'notes' | 'tasks_completed' | 'visits' | 'emails_sent';

/**
 * Whose activity each one is, and when it happened: a call is its user's
 * (who made or took it), a note and a visit their creator's, a task its
 * owner's when completed, an email the sender's (the enrollment's actor,
 * whose name and address it goes out under) when its step completed.
 * Notes count only where the caller may read them, as the notes list and a
 * replica's copy have them (restricted notes are their creator's alone).
 *
 * Counted per user and period by a correlated count over an index that
 * starts with the user and then the time (migration 26; tasks use
 * tasks_owner_completed): each count walks only its own index range, with no
 * sort and no date function per row, so a year of 300 000 activities costs
 * a few index walks per user and period.
 */
const SOURCES: Record<Exclude<Kind, 'emails_sent'>, string> = {
  calls: 'SELECT count(*) FROM calls x WHERE x.user_id = u.id AND x.made_at >= p.s AND x.made_at < p.e',
  notes: "SELECT count(*) FROM notes x WHERE x.creator_id = u.id AND x.created_at >= p.s AND x.created_at < p.e AND (x.type = 'regular' OR x.creator_id = @viewer)",
  tasks_completed: 'SELECT count(*) FROM tasks x WHERE x.owner_id = u.id AND x.completed = 1 AND x.completed_at >= p.s AND x.completed_at < p.e',
  visits: 'SELECT count(*) FROM visits x WHERE x.creator_id = u.id AND x.visited_at >= p.s AND x.visited_at < p.e',
};
const KINDS = Object.keys(SOURCES) as Exclude<Kind, 'emails_sent'>[];

/** One row per user and period, the counts as columns; the periods come as a JSON array of [start, end) UTC bounds. */
const COUNTS = `SELECT u.id AS user_id, u.name AS user_name, u.status, u.deleted_at, CAST(p.key AS INTEGER) AS period,
    ${KINDS.map((kind) => `(${SOURCES[kind]}) AS ${kind}`).join(',\n    ')}
  FROM users u, (SELECT key, json_extract(value, '$[0]') AS s, json_extract(value, '$[1]') AS e FROM json_each(@bounds)) p
  WHERE u.id = COALESCE(@owner, u.id)
  ORDER BY u.name COLLATE NOCASE, u.id, period`;

/** Emails are few beside the rest: their sends are read and put in their periods here. */
const EMAILS = `SELECT e.actor_id AS user_id, x.executed_at AS at FROM enrollment_steps x JOIN sequence_enrollments e ON e.id = x.enrollment_id
  WHERE x.action_type = 'automated_email' AND x.status = 'completed' AND x.executed_at >= @start AND x.executed_at < @end AND e.actor_id = COALESCE(@owner, e.actor_id)`;

type CountRow = Omit<ActivityReportRow, 'period_start' | 'period_end' | 'emails_sent'> & { status: string; deleted_at: string | null; period: number };

/** Activities per user and period; users by name, then periods, zeros included. */
export const activitiesReport: Report<ActivityReportRow> = {
  params: ['owner_id', 'from', 'to', 'interval'],

  rows(ctx, query, actor) {
    const ownerId = ownerOf(ctx, query, actor);
    const range = rangeOf(ctx, query);
    const periods = new Periods(range, intervalOf(query));
    const params = { owner: ownerId, viewer: actor.userId, bounds: JSON.stringify(periods.utcBounds()), start: range.startUtc, end: range.endUtcExclusive };
    const emails = emailsOf(ctx, params, periods);
    const counted = ctx.statements.get(COUNTS).all(params) as CountRow[];
    const rows = counted.map((row) => ({
      user_id: row.user_id, user_name: row.user_name, ...periods.list[row.period],
      calls: row.calls, notes: row.notes, tasks_completed: row.tasks_completed, visits: row.visits,
      emails_sent: emails.get(`${row.user_id}:${row.period}`) ?? 0,
    }));
    if (ownerId !== null) return rows;
    // The team: every active user, and inactive (or removed) ones only with activity in the range.
    const listed = new Set(counted.filter((r) => r.status === 'active' && r.deleted_at === null).map((r) => r.user_id));
    const busy = new Set(rows.filter((r) => r.calls + r.notes + r.tasks_completed + r.visits + r.emails_sent > 0).map((r) => r.user_id));
    return rows.filter((r) => listed.has(r.user_id) || busy.has(r.user_id));
  },

  csv(rows) {
    const records = rows.map((r) => ({
      User: r.user_name, 'Period start': r.period_start, 'Period end': r.period_end, Calls: r.calls, Notes: r.notes,
      'Tasks completed': r.tasks_completed, Visits: r.visits, 'Emails sent': r.emails_sent,
    }));
    return { records, columns: ['User', 'Period start', 'Period end', 'Calls', 'Notes', 'Tasks completed', 'Visits', 'Emails sent'] };
  },
};

/** Emails sent per `user:period`. */
function emailsOf(ctx: EngineContext, params: Record<string, unknown>, periods: Periods): Map<string, number> {
  const starts = periods.utcBounds().map(([start]) => start);
  const counts = new Map<string, number>();
  for (const { user_id: userId, at } of ctx.statements.get(EMAILS).all(params) as { user_id: number; at: string }[]) {
    const key = `${userId}:${lastAtOrBefore(starts, at)}`;
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}

/** Index of the last of the sorted `starts` that is ≤ `at` (binary search). */
function lastAtOrBefore(starts: string[], at: string): number {
  let low = 0;
  let high = starts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (starts[middle] <= at) low = middle;
    else high = middle - 1;
  }
  return low;
}
