/// <reference lib="webworker" />
// The service worker of the hub's page: it keeps one build's app shell (the
// page, its scripts and styles, the engine worker and its WebAssembly, the
// icons and manifest) so the app opens when the hub cannot be reached, and the
// rep's local data answers from the engine worker. The API and the hub's own
// pages are never served from here.
import { cleanupOutdatedCaches, matchPrecache, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';
import { askLeader } from '../shared/engineGroup.js';
import { ENGINE_GROUP, type DownloadAnswer, type EngineCall } from '../shared/localEngine.js';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (string | { url: string; revision: string | null })[] };

/** Paths the hub answers itself (the interfaces, its docs, sign-in flows and downloads): never the shell. */
const HUB_ONLY_PATHS = [/^\/v2(\/|$)/, /^\/api(\/|$)/, /^\/oauth2(\/|$)/, /^\/docs(\/|$)/, /^\/downloads(\/|$)/, /^\/invite(\/|$)/, /^\/health$/, /^\/metrics$/];

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

/** How long a download waits for the engine of an open tab before it is left to the hub. */
const ENGINE_WAIT_MS = 3_000;

/**
 * A document's link, signed by the browser's engine (its answers' `download_url`): the engine answers it, as
 * the desktop's main process answers its own; without an open tab (no engine running) the hub does.
 */
async function documentDownload({ request, url, event }: { request: Request; url: URL; event: ExtendableEvent }): Promise<Response> {
  // The engine's worker fetches the hub's own links from the hub (a file only the hub has): never back to itself.
  const client = await self.clients.get((event as FetchEvent).clientId);
  if (client?.type === 'worker') return fetch(request);
  const answer = await askLeader<EngineCall, DownloadAnswer | null>(ENGINE_GROUP, { call: 'download', pathAndQuery: url.pathname + url.search }, ENGINE_WAIT_MS);
  if (!answer) return fetch(request);
  return new Response(answer.body as BodyInit, { status: answer.status, headers: answer.headers });
}
registerRoute(({ url }) => url.origin === self.location.origin && url.pathname.startsWith('/downloads/documents/'), documentDownload);

// A new build waits until a tab asks it to take over (renderer/local/appUpdate.ts); every tab then reloads into it.
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});
// Active, it serves every open tab at once, the one that signed in before any build was kept too: each is told
// (a change of controller), and a tab that was offered the new build reloads.
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));
