import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { toQueryString, type ApiRequest, type ApiResponse } from '../../shared/bridge.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Turns a renderer's REST-shaped request into an in-process request for the
 * engine's HTTP app, with the local user's token attached here in the main
 * process (the renderer never sees it). Returns null for anything malformed:
 * the renderer is untrusted input too.
 */
export function toInjectOptions(request: unknown, accessToken: string): InjectOptions | null {
  if (typeof request !== 'object' || request === null) return null;
  const { method, path, query, body, upload } = request as Partial<ApiRequest>;
  if (typeof method !== 'string' || !METHODS.has(method)) return null;
  if (typeof path !== 'string' || !/^\/(v2|oauth2|api\/v2)(\/|$)/.test(path) || path.includes('..')) return null;
  const headers: Record<string, string> = { authorization: `Bearer ${accessToken}`, accept: 'application/json' };
  const options: InjectOptions = { method: method as InjectOptions['method'], url: path + toQueryString(query as ApiRequest['query']), headers };
  if (upload !== undefined) {
    if (typeof upload?.contentType !== 'string' || !(upload.bytes instanceof ArrayBuffer)) return null;
    headers['content-type'] = upload.contentType;
    options.payload = Buffer.from(upload.bytes);
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify(body);
  }
  return options;
}

export function toBridgeResponse(response: LightMyRequestResponse): ApiResponse {
  let body: unknown = null;
  if (response.body) {
    try {
      body = JSON.parse(response.body);
    } catch {
      body = null;
    }
  }
  const requestId = response.headers['x-request-id'];
  return { status: response.statusCode, body, requestId: typeof requestId === 'string' ? requestId : undefined };
}
