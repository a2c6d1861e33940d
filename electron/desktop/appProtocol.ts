// The app:// origin the desktop renderer is served from, and the rules about
// what it may load, who may talk to the engine and where links may go.
// Pure Node code (no 'electron' import) so it is tested under Vitest.
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';

/** The scheme the renderer is served from in the desktop app (never file://). */
export const APP_SCHEME = 'app';
export const APP_HOST = 'outpost';
export const APP_ORIGIN = `${APP_SCHEME}://${APP_HOST}`;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.webp': 'image/webp',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * Maps an app:// URL onto a file of the built renderer. Paths with an
 * extension must be real files inside the root (no traversal out of it);
 * extension-less paths are client-side routes and get index.html.
 * Returns null for anything that must not be served.
 */
export function resolveAppFile(rendererRoot: string, url: string): { file: string; mimeType: string } | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== APP_HOST) return null;
  let path: string;
  try {
    path = decodeURIComponent(parsed.pathname);
  } catch {
    return null; // malformed percent-encoding
  }
  if (path.includes('\0')) return null;
  const extension = extname(path).toLowerCase();
  if (!extension) return { file: join(rendererRoot, 'index.html'), mimeType: MIME['.html'] };
  const root = normalize(rendererRoot + sep);
  const file = normalize(join(rendererRoot, path));
  if (!file.startsWith(root)) return null;
  const mimeType = MIME[extension];
  return mimeType ? { file, mimeType } : null;
}

/** Headers on every page and asset of the renderer: the web UI's strict CSP applies here too. */
export function rendererHeaders(contentType: string, contentSecurityPolicy: string): Record<string, string> {
  return {
    'Content-Type': contentType,
    'Content-Security-Policy': contentSecurityPolicy,
    'X-Content-Type-Options': 'nosniff',
    'Referrer-Policy': 'no-referrer',
    'Cache-Control': 'no-cache',
  };
}

/**
 * The answer of the app:// handler for a renderer file: the file with the
 * CSP, or a plain 404 for anything refused or missing (never a directory
 * listing, never a file outside the renderer root).
 */
export async function serveRendererFile(rendererRoot: string, url: string, contentSecurityPolicy: string): Promise<Response> {
  const target = resolveAppFile(rendererRoot, url);
  if (target) {
    try {
      const content = await readFile(target.file);
      return new Response(new Uint8Array(content), { status: 200, headers: rendererHeaders(target.mimeType, contentSecurityPolicy) });
    } catch {
      // missing file or a directory: the same 404 as a refused path
    }
  }
  return new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8', 'X-Content-Type-Options': 'nosniff' } });
}

/** Only pages of our own origin may use the bridge. */
export function isTrustedSenderUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** What the main process knows about the sender of an IPC message. */
export interface IpcSender {
  /** webContents id of the sender. */
  webContentsId: number;
  /** URL of the sending frame; undefined when the frame is gone. */
  frameUrl: string | undefined;
  /** Whether the message came from the top frame (not an iframe). */
  isMainFrame: boolean;
}

/**
 * The engine answers only our own window's top frame while it shows an
 * app:// page; anything else (another webContents, an iframe, a page that
 * somehow navigated away) is refused.
 */
export function isTrustedSender(sender: IpcSender, windowWebContentsId: number | undefined): boolean {
  return windowWebContentsId !== undefined && sender.webContentsId === windowWebContentsId && sender.isMainFrame && isTrustedSenderUrl(sender.frameUrl);
}

/** Links leave the app only to the system browser, and only when they parse as http(s). */
export function isExternalHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'http:' || protocol === 'https:';
  } catch {
    return false;
  }
}
