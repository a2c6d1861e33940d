/**
 * The error envelope of the real service the spec describes, and the codes
 * Outpost answers with. The table below is the single source for the HTTP
 * status of each code; the API docs (docs/api.md) list the same table.
 */

export const ERROR_CODES = {
  invalid_param: 400,
  invalid_payload: 400,
  invalid_header: 400,
  malformed_request: 400,
  unauthorized: 401,
  forbidden: 403,
  insufficient_scope: 403,
  not_found: 404,
  incorrect_path: 404,
  method_not_allowed: 405,
  request_timeout: 408,
  conflict: 409,
  request_too_large: 413,
  unsupported_media_type: 415,
  blank: 422,
  missing: 422,
  unknown: 422,
  invalid_type: 422,
  incorrect_value: 422,
  already_exists: 422,
  rate_limit_exceeded: 429,
  too_many_sessions: 429,
  headers_too_large: 431,
  internal_error: 500,
  temporarily_unavailable: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiError {
  /** Resource type the error is about (`contact`), or `request` for transport-level problems. */
  resource: string;
  /** JSON Pointer into the request (`/last_name`, `/address/city`), or the query/header name. */
  field: string;
  code: ErrorCode;
  message: string;
  details: string;
}

export interface ApiErrorItem {
  error: ApiError;
  meta: { type: 'error'; links: { more_info: string } };
}

export interface ErrorEnvelope {
  errors: ApiErrorItem[];
  meta: { type: 'errors'; http_status: string; logref: string; links: Record<string, string> };
}

export function isErrorEnvelope(body: unknown): body is ErrorEnvelope {
  return typeof body === 'object' && body !== null && Array.isArray((body as ErrorEnvelope).errors);
}

/** Field errors keyed by the top-level field name, for forms (`/address/city` → `address`). */
export function fieldErrors(body: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (!isErrorEnvelope(body)) return out;
  for (const { error } of body.errors) {
    const key = error.field.replace(/^\/(data\/)?/, '').split('/')[0] || '_';
    out[key] ??= error.message;
  }
  return out;
}
