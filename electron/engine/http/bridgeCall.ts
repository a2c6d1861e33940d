// The renderer's REST-shaped requests (shared/bridge.ts) as requests to the engine's HTTP interface
// answered in process, and those answers back: one conversion for both bridges, the desktop's
// (Fastify inject() in the main process, electron/desktop/bridgeRequest.ts) and the browser worker's
// (the route host, electron/browser/dispatch.ts). No Node module: it runs in the worker too.
import { dispositionFilename, isJsonContentType, toQueryString, type ApiRequest, type ApiResponse } from '../../../shared/bridge.js';

/** A request for the engine's HTTP interface, in inject()'s shape; the payload is JSON text or an upload's bytes. */
export interface BridgeCall {
  method: ApiRequest['method'];
  url: string;
  headers: Record<string, string>;
  payload?: string | Uint8Array;
}

/** What the bridge reads of an answer (light-my-request's response and the route host's both have it). */
export interface BridgeAnswer {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

const METHODS = new Set(['GET', 'PUT', 'POST', 'PATCH', 'DELETE']);

/** API paths the renderer may call: the REST interface, OAuth, custom objects. No `..`, no query or fragment in the path. */
const API_PATH = /^\/(?:v2|oauth2|api\/v2)(?:\/[A-Za-z0-9._~%:@!$&'()*+,;=-]*)*$/;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A renderer's request as a call of the interface, with the local user's token attached by the
 * bridge (the renderer never sees it) and `host` as the Host header (links in answers are built from
 * it). Null for anything malformed: the renderer is untrusted input too.
 */
export function toBridgeCall(request: unknown, accessToken: string, host: string): BridgeCall | null {
  if (!isPlainObject(request)) return null;
  const { method, path, query, body, upload, idempotencyKey } = request as Partial<ApiRequest>;
  if (typeof method !== 'string' || !METHODS.has(method)) return null;
  if (typeof path !== 'string' || !API_PATH.test(path) || path.split('/').some((segment) => segment === '..' || segment === '.')) return null;
  if (query !== undefined && !isPlainObject(query)) return null;
  if (idempotencyKey !== undefined && typeof idempotencyKey !== 'string') return null;
  const headers: Record<string, string> = { host, authorization: `Bearer ${accessToken}`, accept: 'application/json' };
  // Checked as any client's key is (http/idempotency.ts).
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const call: BridgeCall = { method: method as ApiRequest['method'], url: path + toQueryString(query as ApiRequest['query']), headers };
  if (upload !== undefined) {
    if (!isPlainObject(upload) || typeof upload.contentType !== 'string' || !(upload.bytes instanceof ArrayBuffer)) return null;
    headers['content-type'] = upload.contentType;
    call.payload = new Uint8Array(upload.bytes);
  } else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    call.payload = JSON.stringify(body);
  }
  return call;
}

/**
 * The renderer's answer: status, parsed JSON (null when empty or not JSON)
 * and the request id; a file answer (CSV, vCard, iCalendar exports) as its
 * text, type and suggested file name, for the renderer to save.
 */
export function toBridgeResponse(response: BridgeAnswer): ApiResponse {
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

function headerText(response: BridgeAnswer, name: string): string | undefined {
  const value = response.headers[name];
  return typeof value === 'string' ? value : undefined;
}
