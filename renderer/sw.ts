/// <reference lib="webworker" />
// The service worker of the hub's page: it keeps one build's app shell (the
// page, its scripts and styles, the engine worker and its WebAssembly, the
// icons and manifest) so the app opens when the hub cannot be reached, and the
// rep's local data answers from the engine worker. The API and the hub's own
// pages are never served from here.
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** Paths the hub answers itself (the interfaces, its docs, sign-in flows and downloads): never the shell. */
export const HUB_ONLY_PATHS = [/^\/v2(\/|$)/, /^\/api(\/|$)/, /^\/oauth2(\/|$)/, /^\/docs(\/|$)/, /^\/downloads(\/|$)/, /^\/invite(\/|$)/, /^\/health$/, /^\/metrics$/];

// The build's files, named by content hash, from the cache first; a new build's list replaces the old one's caches.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

/**
 * A page load: the hub's page when it answers (its newest build and security
 * headers), the kept shell when it cannot be reached, so the app's router
 * shows the screen from local data.
 */
async function pageOrShell({ request }: { request: Request }): Promise<Response> {
  try {
    return await fetch(request);
  } catch (unreachable) {
    const shell = await matchPrecache('/index.html');
    if (shell) return shell;
    throw unreachable;
  }
}
registerRoute(new NavigationRoute(pageOrShell, { denylist: HUB_ONLY_PATHS }));

// A new build takes over when the page asks (it reloads its tabs then), never under a running engine.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
