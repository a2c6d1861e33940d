// Conversion between the renderer's REST-shaped requests and in-process
// requests to the engine's HTTP app (Fastify inject, no socket).
// Pure Node code (no 'electron' import) so it is tested under Vitest.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { dispositionFilename, isJsonContentType, toQueryString, type ApiRequest, type ApiResponse } from '../../shared/bridge.js';
import { APP_ORIGIN } from './appProtocol.js';

const METHODS = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Host of the in-process API. The engine builds absolute links (document
 * download URLs, error `more_info`) from the request's origin; `.invalid`
 * can never resolve, so such a link can only mean "the desktop's own engine"
 * and is recognised by `appDownloadUrl`.
 */
export const DESKTOP_API_HOST = 'outpost.invalid';
export const DESKTOP_API_ORIGIN = `http://${DESKTOP_API_HOST}`;

/** API paths the renderer may call: the REST interface, OAuth, custom objects. No `..`, no query or fragment in the path. */
const API_PATH = /^\/(?:v2|oauth2|api\/v2)(?:\/[A-Za-z0-9._~%:@!$&'()*+,;=-]*)*$/;
const DOWNLOAD_PATH = /^\/downloads\/documents\/\d+$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Turns a renderer's REST-shaped request into an in-process request for the
 * engine's HTTP app, with the local user's token attached here in the main
 * process (the renderer never sees it). Returns null for anything malformed:
 * the renderer is untrusted input too.
 */
export function toInjectOptions(request: unknown, accessToken: string): InjectOptions | null {
  if (!isPlainObject(request)) return null;
  const { method, path, query, body, upload } = request as Partial<ApiRequest>;
  if (typeof method !== 'string' || !METHODS.has(method)) return null;
  if (typeof path !== 'string' || !API_PATH.test(path) || path.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  if (query !== undefined && !isPlainObject(query)) return null;
  const headers: Record<string, string> = { host: DESKTOP_API_HOST, authorization: `Bearer ${accessToken}`, accept: 'application/json' };
  const options: InjectOptions = { method: method as InjectOptions['method'], url: path + toQueryString(query as ApiRequest['query']), headers };
  if (upload !== undefined) {
    if (!isPlainObject(upload) || typeof upload.contentType !== 'string' || !(upload.bytes instanceof ArrayBuffer)) return null;
    headers['content-type'] = upload.contentType;
    options.payload = Buffer.from(upload.bytes);
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    options.payload = JSON.stringify(body);
  }
  return options;
}

/**
 * The renderer's answer: status, parsed JSON (null when empty or not JSON)
 * and the request id; a file answer (CSV, vCard, iCalendar exports) as its
 * text, type and suggested file name, for the renderer to save.
 */
export function toBridgeResponse(response: LightMyRequestResponse): ApiResponse {
  const requestId = headerText(response, 'x-request-id');
  const answer: ApiResponse = { status: response.statusCode, body: null, requestId };
  const contentType = headerText(response, 'content-type');
  // By type, not by content: an export with nothing in it is still a file.
  if (contentType && !isJsonContentType(contentType)) {
    return { ...answer, text: response.body, contentType, filename: dispositionFilename(headerText(response, 'content-disposition')) };
  }
  if (response.body) {
    try {
      answer.body = JSON.parse(response.body);
    } catch {
      answer.body = null;
    }
  }
  return answer;
}

function headerText(response: LightMyRequestResponse, name: string): string | undefined {
  const value = response.headers[name];
  return typeof value === 'string' ? value : undefined;
}

/**
 * A document download link of the in-process API
 * (`http://outpost.invalid/downloads/documents/7?expires=…&signature=…`)
 * as the app:// URL that serves it; null for any other URL.
 */
export function appDownloadUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.origin !== DESKTOP_API_ORIGIN || !DOWNLOAD_PATH.test(parsed.pathname)) return null;
  return `${APP_ORIGIN}${parsed.pathname}${parsed.search}`;
}

/**
 * The in-process request behind an `app://outpost/downloads/documents/…`
 * URL, or null when the URL is not one. Signed links need no token: the
 * signature is the permission, exactly as over HTTP.
 */
export function toDownloadInjectOptions(appUrl: string): InjectOptions | null {
  let parsed: URL;
  try {
    parsed = new URL(appUrl);
  } catch {
    return null;
  }
  // app:// is a custom scheme: Node's URL gives it no origin, so compare scheme and host.
  if (`${parsed.protocol}//${parsed.host}` !== APP_ORIGIN) return null;
  if (!DOWNLOAD_PATH.test(parsed.pathname)) return null;
  return { method: 'GET', url: `${parsed.pathname}${parsed.search}`, headers: { host: DESKTOP_API_HOST } };
}

/** The engine's download answer as the app:// protocol's Response (a file to save, or the error as text). */
export function toDownloadResponse(response: LightMyRequestResponse): Response {
  const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'private, no-store' };
  for (const name of ['content-type', 'content-disposition']) {
    const value = response.headers[name];
    if (typeof value === 'string') headers[name] = value;
  }
  const empty = response.statusCode === 204 || response.statusCode === 304;
  return new Response(empty ? null : new Uint8Array(response.rawPayload), { status: response.statusCode, headers });
}
