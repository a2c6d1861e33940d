// The web app as a replica: where the browser can keep the rep's data (a
// secure context with the Origin Private File System, Web Locks and module
// workers), signing in opens an engine in a worker that keeps a copy of the
// rep's data and syncs it with the hub, and the app talks to that engine as
// the desktop app talks to its own. "Shared computer" keeps nothing: the app
// talks to the hub directly, as before.
import { answerFromEngine } from '../api/client.js';
import { WorkerBridge } from './workerBridge.js';
import { keepAppShell, stopFollowingUpdates } from './appUpdate.js';

/** Set while this browser keeps a signed-in person's data (not secret: the data and tokens live in the engine's database). */
const KEEPS_DATA = 'outpost.keepsData';

let bridge: WorkerBridge | null = null;

/** Whether this browser can hold the rep's data: OPFS needs a secure context (HTTPS, or localhost). */
function canKeepData(): boolean {
  return window.isSecureContext && typeof Worker === 'function' && 'locks' in navigator && typeof navigator.storage?.getDirectory === 'function';
}

/**
 * Whether signing in here can keep the rep's data in this browser: the browser
 * can, and the server is a hub (a replica's page, `serve --upstream`, says so
 * in its health check's `checks.hub`, and a copy of a copy is not offered).
 */
export async function canKeepDataHere(): Promise<boolean> {
  if (!canKeepData()) return false;
  try {
    const health = (await (await fetch('/health', { headers: { Accept: 'application/json' } })).json()) as { checks?: Record<string, string> };
    return health.checks?.hub === undefined;
  } catch {
    return false;
  }
}

function engine(): WorkerBridge {
  bridge ??= new WorkerBridge(new Worker(new URL('../../electron/browser/engineWorker.ts', import.meta.url), { type: 'module', name: 'outpost-engine' }));
  return bridge;
}

/**
 * The session this browser kept, answered by its engine (offline too): from
 * now on the app talks to that engine. False when none is kept.
 */
export async function resumeKeptSession(onSignedOut: () => void): Promise<boolean> {
  if (localStorage.getItem(KEEPS_DATA) === null || !canKeepData()) return false;
  const session = await engine().call({ call: 'session' });
  if (!session) {
    await removeEverything();
    return false;
  }
  follow(onSignedOut);
  void keepAppShell();
  return true;
}

/** Signs in at the hub through the engine, which copies the rep's data here. Returns null or the problem to show. */
export async function signInKeepingData(email: string, password: string, onSignedOut: () => void): Promise<string | null> {
  const { problem } = await engine().call({ call: 'signIn', email, password });
  if (problem) return problem;
  localStorage.setItem(KEEPS_DATA, '1');
  follow(onSignedOut);
  void keepAppShell();
  return null;
}

/** Signs out: the engine revokes its hub token and removes its data; then everything else this origin keeps goes. */
export async function signOutRemovingData(): Promise<void> {
  await bridge?.call({ call: 'signOut' }).catch(() => undefined);
  await removeEverything();
}

function follow(onSignedOut: () => void): void {
  answerFromEngine(bridge);
  // Signed out in another tab, or the hub refused the token: this tab removes what it keeps too.
  bridge?.on('signed-out', () => void removeEverything().then(onSignedOut));
}

/**
 * Everything this origin keeps in the browser: the engine's files (OPFS), other
 * databases, caches, the service worker and both storages; the app answers
 * from the hub again.
 */
export async function removeEverything(): Promise<void> {
  answerFromEngine(null);
  stopFollowingUpdates();
  bridge?.close();
  bridge = null;
  localStorage.clear();
  sessionStorage.clear();
  await removeOpfsEntries();
  for (const name of (await caches?.keys().catch(() => [])) ?? []) await caches.delete(name);
  for (const database of (await indexedDB.databases?.().catch(() => [])) ?? []) if (database.name) indexedDB.deleteDatabase(database.name);
  for (const registration of (await navigator.serviceWorker?.getRegistrations().catch(() => [])) ?? []) await registration.unregister();
}

/** Attempts at removing the engine's files, a quarter of a second apart: an ended worker's file handles close a moment later. */
const REMOVAL_ATTEMPTS = 20;

/** Empties the Origin Private File System, trying again while a file is still held open. */
async function removeOpfsEntries(): Promise<void> {
  const root = await navigator.storage?.getDirectory?.().catch(() => null);
  if (!root) return;
  for (let attempt = 1; attempt <= REMOVAL_ATTEMPTS; attempt++) {
    const names: string[] = [];
    for await (const name of root.keys()) names.push(name);
    if (names.length === 0) return;
    for (const name of names) await root.removeEntry(name, { recursive: true }).catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}
