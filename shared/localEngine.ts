/**
 * The messages between a page of the web app and its engine worker, when the
 * browser keeps the rep's data (electron/browser/engineWorker.ts). The page
 * asks; the worker (or the tab whose worker leads: shared/engineGroup.ts)
 * answers with the same id. Events come unasked.
 */
import type { ApiRequest, ApiResponse, BridgeEvent } from './bridge.js';

/** The Web Lock's and the BroadcastChannel's name of the browser's one engine (shared/engineGroup.ts). */
export const ENGINE_GROUP = 'outpost-engine';

/** Who is signed in on this browser's local engine. */
export interface LocalSession {
  hubUserId: number;
  email: string;
}

/** The outcome of a sign-in: null when signed in, else what to tell the person. */
export interface SignInOutcome {
  problem: string | null;
}

export type EngineCall =
  /** The session kept in this browser, if any (answers offline too). */
  | { call: 'session' }
  /** Signs in at the hub, opens the local data (wiping another person's) and syncs it. */
  | { call: 'signIn'; email: string; password: string }
  /** Revokes the hub token (best effort) and removes the local data. */
  | { call: 'signOut' }
  | { call: 'request'; request: ApiRequest }
  /** A document's signed download link (`/downloads/documents/7?expires=…&signature=…`), asked by the service worker. */
  | { call: 'download'; pathAndQuery: string };

/** A file as the engine answers a download link: what the service worker hands the browser. */
export interface DownloadAnswer {
  status: number;
  headers: Record<string, string>;
  body: Uint8Array;
}

/** What each call answers. */
export interface EngineAnswers {
  session: LocalSession | null;
  signIn: SignInOutcome;
  signOut: null;
  request: ApiResponse;
  /** Null when no one is signed in here or the path is no download link. */
  download: DownloadAnswer | null;
}

/**
 * Events of the local engine: the bridge's (`records-changed`, `sync-status`),
 * and `signed-out` when the session ended (signed out in another tab, or the
 * hub refused the token): the page then removes what it keeps and shows sign-in.
 */
export type EngineEvent = BridgeEvent | 'signed-out';

export type PageMessage = { id: number } & EngineCall;
export type WorkerMessage =
  | { id: number; result: unknown }
  | { id: number; error: string }
  | { event: EngineEvent; payload: unknown };
