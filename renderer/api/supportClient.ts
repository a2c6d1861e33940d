import type { ApiRequest, QueryValue } from '../../shared/bridge.js';
import { currentTransport } from './client.js';
import { isSupportErrorBody, type SupportErrorBody, type SupportErrorDetail } from '../../shared/supportErrors.js';

export type { SupportErrorBody, SupportErrorDetail };

/** Every detail's description, or the answer's own description when there are none. */
function messageOf(status: number, body: SupportErrorBody | null): string {
  if (!body) return `Request failed (${status}).`;
  const details = Object.values(body.details ?? {}).flat().map((d) => d.description);
  return details.length > 0 ? details.join(' ') : body.description || body.error;
}

/** A request the custom-objects interface refused; carries its error body for forms and messages. */
export class SupportFailure extends Error {
  readonly body: SupportErrorBody | null;

  constructor(readonly status: number, body: unknown) {
    const parsed = isSupportErrorBody(body) ? body : null;
    super(messageOf(status, parsed));
    this.body = parsed;
  }

  /** The answer's code: `RecordInvalid`, `Forbidden`, `RecordNotFound`… */
  get code(): string | null {
    return this.body?.error ?? null;
  }

  /** The descriptions of each field's problems, by the field the answer names (`key`, `base`, …). */
  get fieldErrors(): Record<string, string> {
    const errors: Record<string, string> = {};
    for (const [field, details] of Object.entries(this.body?.details ?? {})) errors[field] = details.map((d) => d.description).join(' ');
    return errors;
  }
}

const BASE = '/api/v2';

/**
 * The same transport as `api` (client.ts): the hub's fetch with the session's
 * token, or the engine on this device, which admits /api/v2 paths (a replica
 * sends them on to its hub).
 */
async function send<T>(req: ApiRequest): Promise<T> {
  const response = await currentTransport().request<T>({ ...req, path: BASE + req.path });
  if (response.status >= 400) throw new SupportFailure(response.status, response.body);
  return response.body as T;
}

/**
 * Calls to the custom-objects interface. Paths are relative to /api/v2
 * (`/custom_objects/car`). Bodies go and come as the interface has them,
 * wrapped in the resource's name (`{"custom_object": {…}}`), not in the /v2
 * `{data, meta}` envelope; updates are PATCHes.
 */
export const supportApi = {
  get<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return send<T>({ method: 'GET', path, query });
  },
  post<T>(path: string, body: unknown): Promise<T> {
    return send<T>({ method: 'POST', path, body });
  },
  patch<T>(path: string, body: unknown): Promise<T> {
    return send<T>({ method: 'PATCH', path, body });
  },
  async remove(path: string): Promise<void> {
    await send<null>({ method: 'DELETE', path });
  },
};

/** `/custom_objects/{key}` with the key escaped, and any further segments after it. */
export function objectPath(key: string, ...rest: string[]): string {
  return ['/custom_objects', encodeURIComponent(key), ...rest.map(encodeURIComponent)].join('/');
}
