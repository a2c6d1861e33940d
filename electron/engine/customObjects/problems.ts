import type { SupportErrorBody, SupportErrorDetail } from '../../../shared/supportErrors.js';

/**
 * Errors of the custom-objects interface (/api/v2), in the real service's
 * style for this API, which differs from the /v2 envelope:
 *
 *   {"error": "RecordNotFound", "description": "Not found"}
 *   {"error": "RecordInvalid", "description": "Record validation errors",
 *    "details": {"key": [{"error": "DuplicateValue", "description": "Key: is already taken"}]}}
 *
 * Services throw a SupportProblem; the /api/v2 scope's error handler sends it.
 */
export type { SupportErrorBody, SupportErrorDetail } from '../../../shared/supportErrors.js';

export class SupportProblem extends Error {
  constructor(
    readonly status: number,
    readonly body: SupportErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.description);
  }
}

export function unauthorized(): SupportProblem {
  return new SupportProblem(401, { error: 'Unauthorized', description: "Couldn't authenticate you" }, { 'WWW-Authenticate': 'Basic realm="Outpost"' });
}

export function forbidden(description: string): SupportProblem {
  return new SupportProblem(403, { error: 'Forbidden', description });
}

export function recordNotFound(description = 'Not found'): SupportProblem {
  return new SupportProblem(404, { error: 'RecordNotFound', description });
}

export function invalidEndpoint(description = 'Not found'): SupportProblem {
  return new SupportProblem(404, { error: 'InvalidEndpoint', description });
}

export function badRequest(error: string, description: string): SupportProblem {
  return new SupportProblem(400, { error, description });
}

/**
 * Collects every validation problem of one request, so a client sees them all
 * at once (as /v2's FieldErrors does), then throws one 422 RecordInvalid.
 */
export class RecordInvalid {
  // Keyed by property names the client chose: without a prototype, `__proto__` or `constructor` is a key like any other.
  private readonly details: Record<string, SupportErrorDetail[]> = Object.create(null);

  add(field: string, error: string, description: string): this {
    (this.details[field] ??= []).push({ error, description });
    return this;
  }

  get empty(): boolean {
    return Object.keys(this.details).length === 0;
  }

  /** Throws if anything was added. */
  check(): void {
    if (!this.empty) throw this.problem();
  }

  problem(headers: Record<string, string> = {}): SupportProblem {
    return new SupportProblem(422, { error: 'RecordInvalid', description: 'Record validation errors', details: this.details }, headers);
  }
}

/** One validation problem, thrown at once. */
export function recordInvalid(field: string, error: string, description: string): SupportProblem {
  return new RecordInvalid().add(field, error, description).problem();
}
