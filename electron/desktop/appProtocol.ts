import { extname, join, normalize, sep } from 'node:path';

/** The scheme the renderer is served from in the desktop app (never file://). */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://outpost`;

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.woff2': 'font/woff2',
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
  if (parsed.protocol !== `${APP_SCHEME}:` || parsed.host !== 'outpost') return null;
  const path = decodeURIComponent(parsed.pathname);
  if (path.includes('\0')) return null;
  const extension = extname(path);
  if (!extension) return { file: join(rendererRoot, 'index.html'), mimeType: MIME['.html'] };
  const root = normalize(rendererRoot + sep);
  const file = normalize(join(rendererRoot, path));
  if (!file.startsWith(root)) return null;
  const mimeType = MIME[extension];
  return mimeType ? { file, mimeType } : null;
}

/** Only pages of our own origin may use the bridge. */
export function isTrustedSenderUrl(url: string | undefined): boolean {
  if (!url) return false;
  try {
    return new URL(url).origin === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`);
  } catch {
    return false;
  }
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
