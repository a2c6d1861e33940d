import { ERROR_CODES, type ApiError } from '../../../shared/errors.js';
import type { FastifyBaseLogger } from 'fastify';
import { ApiProblem, DATABASE_RETRY_AFTER_SECONDS, faultOf } from '../problems.js';

/**
 * How the HTTP adapter answers a problem (electron/engine/problems.ts): the
 * status is the first error's code's (shared/errors.ts holds the table), and
 * its headers are what HTTP says beside the envelope. app.ts, clientErrors.ts
 * and supportApi.ts send it, each in its interface's shape.
 */
export function problemStatus(problem: ApiProblem): number {
  return ERROR_CODES[problem.errors[0].code];
}

export function problemHeaders(problem: ApiProblem): Record<string, string> {
  const headers: Record<string, string> = problem instanceof HttpProblem ? { ...problem.headers } : {};
  if (problem.retryAfter !== undefined) headers['Retry-After'] = String(problem.retryAfter);
  // A 503 passes by definition: it always says when to try again (a replica's hub out of reach: in a moment).
  else if (problemStatus(problem) === 503) headers['Retry-After'] = String(DATABASE_RETRY_AFTER_SECONDS);
  return headers;
}

/** A problem of HTTP's own whose answer needs a header of HTTP's (WWW-Authenticate, Allow). */
export class HttpProblem extends ApiProblem {
  constructor(errors: ApiError[], readonly headers: Record<string, string>) {
    super(errors);
  }
}

/** The answer when PostgreSQL refused a NUL character (NUL_REFUSED, db/databaseErrors.ts) that a path or query carried. */
export const NUL_MESSAGE = 'A name or value in the request holds the NUL character (%00), which none may hold.';

/**
 * The answer to a fault of the storage that passes (problems.ts, faultOf: a
 * database that cannot answer, a full or failing disk): 503
 * temporarily_unavailable with Retry-After, never a 500; what the storage
 * said goes to the log (warn), never into the answer. null for any other error.
 */
export function serverFaultProblem(error: unknown, log?: FastifyBaseLogger): ApiProblem | null {
  const fault = faultOf(error);
  if (!fault) return null;
  log?.warn({ err: fault.cause }, fault.problem.errors[0].message);
  return fault.problem;
}

/** The OAuth endpoints' shape of a 503 (RFC 6749 §4.1.2.1 names temporarily_unavailable). */
export function oauthUnavailableBody(problem: ApiProblem): { error: string; error_description: string } {
  return { error: 'temporarily_unavailable', error_description: problem.errors[0].message };
}
