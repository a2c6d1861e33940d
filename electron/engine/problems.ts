import type { ApiError, ErrorCode } from '../../shared/errors.js';

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
