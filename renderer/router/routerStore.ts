import { create } from 'zustand';
import { localizePath } from './recordPaths.js';

interface RouterState {
  path: string;
  /** The address's query (`?smart_list_id=3`), or '' when it has none. */
  search: string;
  navigate(to: string, options?: { replace?: boolean }): void;
}

// An address with a temporary id (an old bookmark, a deep link) is shown the local way from the start.
if (localizePath(window.location.pathname) !== window.location.pathname) {
  window.history.replaceState(null, '', localizePath(window.location.pathname) + window.location.search);
}

/** The current path, kept in step with the History API (a router small enough to own). */
export const useRouter = create<RouterState>((set) => ({
  path: window.location.pathname,
  search: window.location.search,
  navigate(path, options) {
    const to = localizePath(path);
    if (to === window.location.pathname + window.location.search) return;
    if (options?.replace) window.history.replaceState(null, '', to);
    else window.history.pushState(null, '', to);
    set({ path: window.location.pathname, search: window.location.search });
  },
}));

window.addEventListener('popstate', () => useRouter.setState({ path: window.location.pathname, search: window.location.search }));

/** Matches `/contacts/:id/edit`-style patterns; returns the parameters or null. */
export function matchRoute(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/');
  const have = path.replace(/\/$/, '').split('/');
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (let i = 0; i < want.length; i++) {
    if (want[i].startsWith(':')) params[want[i].slice(1)] = decodeURIComponent(have[i]);
    else if (want[i] !== have[i]) return null;
  }
  return params;
}
