// A new build of the app, where the browser keeps the rep's data. The service
// worker (renderer/sw.ts) keeps one build's shell; when the hub serves a newer
// one, its service worker installs and waits, and every open tab offers to
// reload. Reloading moves every tab to the new build at once: the tabs share
// one engine and one database, and a tab left on the old build would run its
// code on the new build's engine (or, leading, keep the new build's
// migrations from running).
import { Workbox } from 'workbox-window';
import { create } from 'zustand';

/** How often an open tab asks the hub for a newer build (a page that never navigates would not otherwise). */
const UPDATE_CHECK_MS = 60 * 60 * 1000;

interface AppUpdateState {
  /** A newer build is installed and waits for the tabs to reload. */
  ready: boolean;
}

export const useAppUpdate = create<AppUpdateState>(() => ({ ready: false }));

let workbox: Workbox | null = null;
let checks: ReturnType<typeof setInterval> | undefined;

/** Registers the service worker that keeps the app shell, and follows its updates. */
export async function keepAppShell(): Promise<void> {
  if (workbox || !('serviceWorker' in navigator)) return;
  const current = new Workbox('/sw.js', { scope: '/' });
  workbox = current;
  // A worker removed at sign-out keeps its listeners: only the one followed now speaks.
  const followed = () => workbox === current;
  current.addEventListener('waiting', () => {
    if (followed()) useAppUpdate.setState({ ready: true });
  });
  // The new build this tab offered took over (asked from this tab or another): this tab's code is the old
  // build's, so it reloads. A build taking over that was never offered (the first one kept, after a sign-in) is no
  // update: nothing to reload.
  current.addEventListener('controlling', () => {
    if (followed() && useAppUpdate.getState().ready) window.location.reload();
  });
  try {
    await current.register({ immediate: true });
  } catch {
    // No shell kept (a browser refusing service workers): the app still works while the hub answers.
    return;
  }
  checks = setInterval(() => void workbox?.update().catch(() => undefined), UPDATE_CHECK_MS);
}

/** Lets the waiting build take over: every tab then reloads into it. */
export function applyUpdate(): void {
  workbox?.messageSkipWaiting();
}

/** Stops following updates (the service worker is being removed with the rest of the kept data). */
export function stopFollowingUpdates(): void {
  clearInterval(checks);
  workbox = null;
  useAppUpdate.setState({ ready: false });
}
