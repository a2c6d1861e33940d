import { call, type Answer, type TestHub } from './testHub.js';

/** `Authorization` header values for the custom-objects interface (/api/v2). */
export const basic = (email: string, password: string) => `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
export const bearer = (token: string) => `Bearer ${token}`;

/**
 * A call to /api/v2: `body` is sent as JSON as is (this interface has no
 * `{"data": …}` wrapper), `auth` is the whole Authorization header (none when null).
 */
export function supportCall<T = any>(
  hub: Pick<TestHub, 'url'>, method: string, path: string,
  options: { auth: string | null; body?: unknown; raw?: string; contentType?: string },
): Promise<Answer<T>> {
  const raw = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  return call<T>(hub, method, path, { raw, contentType: options.contentType, headers: options.auth ? { Authorization: options.auth } : {} });
}

/** The detail codes of a 422 RecordInvalid, per field: `{key: ['DuplicateValue']}`. */
export function detailCodes(answer: Answer): Record<string, string[]> {
  const details = (answer.body?.details ?? {}) as Record<string, { error: string }[]>;
  return Object.fromEntries(Object.entries(details).map(([field, list]) => [field, list.map((d) => d.error)]));
}
