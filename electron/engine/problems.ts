import { ERROR_CODES, type ApiError, type ErrorCode } from '../../shared/errors.js';

/**
 * A failure the client caused (or must be told about), carrying the errors
 * of the real service's envelope. Engine services throw it; the HTTP layer
 * renders it. Anything else that escapes is a bug and becomes a logged 500.
 */
export class ApiProblem extends Error {
  readonly status: number;
  readonly errors: ApiError[];
  readonly headers: Record<string, string>;

  constructor(errors: ApiError[], headers: Record<string, string> = {}) {
    super(errors.map((e) => `${e.code}: ${e.message}`).join('; '));
    this.errors = errors;
    this.status = ERROR_CODES[errors[0].code];
    this.headers = headers;
  }
}

export function problem(code: ErrorCode, message: string, field = '', resource = 'request', details = message): ApiProblem {
  return new ApiProblem([{ resource, field, code, message, details }]);
}

/**
 * PostgreSQL's SQLSTATE for a NUL character in text, which it cannot hold. Bodies are refused earlier
 * (bodyParsers.ts); a path or query may still carry one (%00) to a lookup on a PostgreSQL hub.
 */
export const NUL_REFUSED = '22021';
export const NUL_MESSAGE = 'A name or value in the request holds the NUL character (%00), which none may hold.';

export const invalidParam = (name: string, message: string) =>
  problem('invalid_param', `The request query parameter '${name}' is malformed, missing, or has an invalid value (${message}).`, name);

export const notFound = (resource: string, id: number | string) =>
  problem('not_found', `The ${resource.replace(/_/g, ' ')} with id ${id} was not found.`, '/id', resource);

export const forbidden = (message: string) => problem('forbidden', message);

/** Collects per-field validation errors and throws them together (one 422 with every problem). */
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
