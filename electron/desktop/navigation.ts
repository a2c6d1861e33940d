// Where the window may go. The renderer routes on the client (history API),
// so a real navigation away from app:// is never needed: it is refused,
// http(s) links go to the system browser, and document download links of the
// in-process API are fetched through app:// (see bridgeRequest.ts).
// Pure Node code (no 'electron' import) so it is tested under Vitest.
import { APP_ORIGIN, isExternalHttpUrl } from './appProtocol.js';
import { appDownloadUrl } from './bridgeRequest.js';

export type NavigationDecision =
  | { action: 'allow' }
  | { action: 'download'; url: string }
  | { action: 'open-external'; url: string }
  | { action: 'deny' };

/** For `will-navigate`: stay on app://, download our documents, send the web to the browser. */
export function decideNavigation(url: string): NavigationDecision {
  if (url === APP_ORIGIN || url.startsWith(`${APP_ORIGIN}/`)) return { action: 'allow' };
  return decideNewWindow(url);
}

/** For `window.open` / target=_blank: never a new Electron window. */
export function decideNewWindow(url: string): NavigationDecision {
  const download = appDownloadUrl(url);
  if (download) return { action: 'download', url: download };
  if (isExternalHttpUrl(url)) return { action: 'open-external', url };
  return { action: 'deny' };
}
