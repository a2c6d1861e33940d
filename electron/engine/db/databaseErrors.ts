/*
 * The database's refusals the engine tells apart, with no driver behind them
 * (postgresBridge.ts throws them; a browser's engine loads this alone).
 */

/**
 * PostgreSQL's SQLSTATE for a NUL character in text, which it cannot hold. Bodies are refused earlier
 * (http/bodyParsers.ts); a path or query may still carry one (%00) to a lookup on a PostgreSQL hub.
 */
export const NUL_REFUSED = '22021';

/** A statement PostgreSQL refused; `code` is its SQLSTATE (23505: a unique value taken). */
export class PostgresError extends Error {
  constructor(message: string, readonly code: string | undefined) {
    super(message);
  }
}

/**
 * The database cannot answer now: the connection was lost (a restart, a
 * failover, a terminated backend; the next statement opens another) or the
 * database is too busy (statement_timeout, lock_timeout). Worth trying again
 * in a moment: over HTTP, 503 temporarily_unavailable.
 */
export class DatabaseUnavailableError extends PostgresError {}

/** Why a database cannot answer now, whatever wraps it (CommitFailedError keeps it as its cause); null when it can. */
export function unavailableDatabase(error: unknown): DatabaseUnavailableError | null {
  for (let at = error, depth = 0; at instanceof Error && depth < 5; at = at.cause, depth++) {
    if (at instanceof DatabaseUnavailableError) return at;
  }
  return null;
}
