// Conversion between the renderer's REST-shaped requests and in-process
// requests to the engine's HTTP app (Fastify inject, no socket).
// Pure Node code (no 'electron' import) so it is tested under Vitest.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { toBridgeCall } from '../engine/http/bridgeCall.js';
import { APP_ORIGIN } from './appProtocol.js';

/**
 * Host of the in-process API. The engine builds absolute links (document
 * download URLs, error `more_info`) from the request's origin; `.invalid`
 * can never resolve, so such a link can only mean "the desktop's own engine"
 * and is recognised by `appDownloadUrl`.
 */
export const DESKTOP_API_HOST = 'outpost.invalid';
export const DESKTOP_API_ORIGIN = `http://${DESKTOP_API_HOST}`;

const DOWNLOAD_PATH = /^\/downloads\/documents\/\d+$/;

/**
 * Turns a renderer's REST-shaped request into an in-process request for the
 * engine's HTTP app, with the local user's token attached here in the main
 * process (the renderer never sees it). Returns null for anything malformed:
 * the renderer is untrusted input too.
 */
export function toInjectOptions(request: unknown, accessToken: string): InjectOptions | null {
  const call = toBridgeCall(request, accessToken, DESKTOP_API_HOST);
  if (!call) return null;
  const { payload, ...options } = call;
  if (payload === undefined) return options;
  return { ...options, payload: typeof payload === 'string' ? payload : Buffer.from(payload) };
}

/** The renderer's answer to an inject() (one conversion with the browser worker's bridge). */
export { toBridgeResponse } from '../engine/http/bridgeCall.js';

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
