/**
 * Error answers of the custom-objects interface (/api/v2), in the support
 * product's shape rather than the /v2 envelope (shared/errors.ts):
 *
 *   {"error": "RecordInvalid", "description": "Record validation errors",
 *    "details": {"key": [{"error": "DuplicateValue", "description": "Key: is already taken"}]}}
 *
 * The engine sends them (electron/engine/customObjects/problems.ts); the renderer reads them.
 */

/** One problem with one field of a refused request. */
export interface SupportErrorDetail {
  error: string;
  description: string;
}

export interface SupportErrorBody {
  error: string;
  description: string;
  details?: Record<string, SupportErrorDetail[]>;
}

export function isSupportErrorBody(body: unknown): body is SupportErrorBody {
  return typeof body === 'object' && body !== null && typeof (body as SupportErrorBody).error === 'string';
}
