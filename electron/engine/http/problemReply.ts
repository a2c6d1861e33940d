import { ERROR_CODES, type ApiError } from '../../../shared/errors.js';
import { ApiProblem } from '../problems.js';

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
  return headers;
}

/** A problem of HTTP's own whose answer needs a header of HTTP's (WWW-Authenticate, Allow). */
export class HttpProblem extends ApiProblem {
  constructor(errors: ApiError[], readonly headers: Record<string, string>) {
    super(errors);
  }
}

/** The answer when PostgreSQL refused a NUL character (NUL_REFUSED, db/postgresBridge.ts) that a path or query carried. */
export const NUL_MESSAGE = 'A name or value in the request holds the NUL character (%00), which none may hold.';
