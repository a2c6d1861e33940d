import type { ApiError, ErrorCode } from '../../shared/errors.js';
import { unavailableDatabase } from './db/databaseErrors.js';
import { storageFault } from './db/database.js';

/**
 * A failure the caller caused (or must be told about): the errors of the
 * API's envelope, each with its code (shared/errors.ts), field and message.
 * The rules and services throw it and know nothing of how it is shown; the
 * adapters render it: http/ answers with the HTTP status of the first code
 * and the error envelope (http/problemReply.ts), the CLI prints the messages.
 * Anything else that escapes is a bug (over HTTP, a logged 500).
 */
export class ApiProblem extends Error {
  readonly errors: ApiError[];
  /** Seconds after which the same request may succeed (a limit that frees up); over HTTP, Retry-After. */
  readonly retryAfter?: number;

  constructor(errors: ApiError[], options: { retryAfter?: number } = {}) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join('; '));
    this.errors = errors;
    this.retryAfter = options.retryAfter;
  }
}

export function problem(code: ErrorCode, message: string, field = '', resource = 'request', details = message): ApiProblem {
  return new ApiProblem([{ resource, field, code, message, details }]);
}

export const invalidParam = (name: string, message: string) =>
  problem('invalid_param', `The request query parameter '${name}' is malformed, missing, or has an invalid value (${message}).`, name);

export const notFound = (resource: string, id: number | string) =>
  problem('not_found', `The ${resource.replace(/_/g, ' ')} with id ${id} was not found.`, '/id', resource);

export const forbidden = (message: string) => problem('forbidden', message);

/** Collects per-field validation errors and throws them together (one problem with every error; over HTTP, one 422). */
export class FieldErrors {
  private readonly list: ApiError[] = [];
  constructor(private readonly resource: string) {}

  add(pointer: string, code: ErrorCode, message: string): void {
    this.list.push({ resource: this.resource, field: pointer, code, message, details: message });
  }
  has(pointer: string): boolean {
    return this.list.some((e) => e.field === pointer || e.field.startsWith(`${pointer}/`));
  }
  get empty(): boolean {
    return this.list.length === 0;
  }
  throwIfAny(): void {
    if (this.list.length > 0) throw new ApiProblem(this.list);
  }
}

/** Seconds after which a request the database could not answer may be sent again (a restart or failover takes a few). */
export const DATABASE_RETRY_AFTER_SECONDS = 2;

export const DATABASE_UNAVAILABLE_MESSAGE = 'The database cannot answer right now (it is restarting, failing over or busy); try again in a moment.';

/** Seconds after which a request refused for a full (or failing) disk may be sent again: space is freed by hand, not in a moment. */
export const STORAGE_RETRY_AFTER_SECONDS = 30;

export const STORAGE_FAULT_MESSAGE = 'The server cannot store anything right now (its disk is full or failing); nothing of this request was kept. Try again later.';

/**
 * The faults of the server's storage that pass, named as the problem every
 * adapter answers (over HTTP, 503 temporarily_unavailable with Retry-After):
 * a database that cannot answer now (PostgreSQL restarting, failing over,
 * busy: db/postgresBridge.ts, DatabaseUnavailableError) and a disk that is
 * full or failing (SQLite's SQLITE_FULL and SQLITE_IOERR, Node's ENOSPC for
 * document files: db/database.ts, storageFault), also as a failed commit's
 * cause. `cause` is what the storage said, for the log only: never shown.
 * null for any other error. The one place these errors become answers.
 */
export function faultOf(error: unknown): { problem: ApiProblem; cause: Error } | null {
  const unavailable = unavailableDatabase(error);
  if (unavailable) return { problem: temporarilyUnavailable(DATABASE_UNAVAILABLE_MESSAGE, DATABASE_RETRY_AFTER_SECONDS), cause: unavailable };
  const storage = storageFault(error);
  if (storage) return { problem: temporarilyUnavailable(STORAGE_FAULT_MESSAGE, STORAGE_RETRY_AFTER_SECONDS), cause: storage };
  return null;
}

/** 503 temporarily_unavailable: the same request may succeed after `retryAfter` seconds. */
export function temporarilyUnavailable(message: string, retryAfter: number): ApiProblem {
  return new ApiProblem([{ resource: 'request', field: '', code: 'temporarily_unavailable', message, details: message }], { retryAfter });
}
