// The web app's engine: each tab starts this worker; the one that leads
// (shared/engineGroup.ts) opens the rep's local data (SQLite in WebAssembly over the
// Origin Private File System), keeps it in sync with the hub that served the
// page, exactly as a desktop replica does, and answers every tab's requests
// through the same routes and rules as the hub (dispatch.ts). The others pass
// their tab's calls to it. The hub tokens and the app's local token stay in
// the worker: the page never holds them.
import { z } from 'zod';
import type { ApiResponse } from '../../shared/bridge.js';
import { errorEnvelope } from '../engine/http/envelope.js';
import { ENGINE_GROUP, type DownloadAnswer, type EngineAnswers, type EngineCall, type LocalSession, type PageMessage, type WorkerMessage } from '../../shared/localEngine.js';
import { prepareSqlite, removeSqliteFiles } from '../engine/db/sqliteDriver.js';
import { replicaAccessToken } from '../engine/localAccess.js';
import { keepSignIn, keptSignIn } from '../engine/replica/upstream.js';
import { createDispatcher, type Dispatcher } from './dispatch.js';
import { openLocalReplica, type LocalReplica } from './engineEntry.js';
import { joinEngineGroup } from '../../shared/engineGroup.js';

/** The OPFS folder of the pool and the data folder's name in it: one origin is one hub, one person at a time. */
const POOL_FOLDER = '.outpost';
const DATA_DIR = '/outpost';

/** The leader's local data while open: its replica, who is signed in (null: nobody), and the app's way in. */
interface Open {
  local: LocalReplica;
  session: LocalSession | null;
  dispatcher: Dispatcher;
  stopWatching: () => void;
}

let open: Open | null = null;

// Zod checks whether it may compile its validators; the worker's policy refuses eval, so it is told not to try.
z.config({ jitless: true });

const hubUrl = self.location.origin;
const log = (line: string) => console.warn(`[outpost engine] ${line}`);
const tell = (message: WorkerMessage) => self.postMessage(message);

const group = joinEngineGroup<EngineCall, unknown>({
  name: ENGINE_GROUP,
  lead: async () => {
    await resume();
    return (call) => answer(call);
  },
  onEvent: (name, payload) => tell({ event: name as never, payload }),
});

self.addEventListener('message', (event: MessageEvent<PageMessage>) => {
  const { id, ...call } = event.data;
  group.ask(withIdempotencyKey(call)).then(
    (result) => tell({ id, result }),
    (error: unknown) => tell({ id, error: error instanceof Error ? error.message : String(error) }),
  );
});

/**
 * A write asked through the group may be asked twice (its leader's tab closed
 * before it answered): one key, given here before it leaves this tab, makes
 * the second ask replay the first's answer (http/idempotency.ts).
 */
function withIdempotencyKey(call: EngineCall): EngineCall {
  if (call.call !== 'request' || call.request.method === 'GET' || call.request.idempotencyKey) return call;
  return { ...call, request: { ...call.request, idempotencyKey: crypto.randomUUID() } };
}

async function answer(call: EngineCall): Promise<EngineAnswers[EngineCall['call']]> {
  switch (call.call) {
    case 'session':
      return open?.session ?? null;
    case 'signIn':
      return signIn(call.email, call.password);
    case 'signOut':
      await signOut();
      return null;
    case 'request':
      // Signed in or not, the engine answers: without a session the request has no token (401, as the hub's).
      return open ? open.dispatcher.request(call.request) : signedOutAnswer();
    case 'download':
      return open?.session ? download(open.dispatcher, call.pathAndQuery) : null;
  }
}

/** Opens the local data; when it holds a signed-in person, serves them (offline too) and syncs. */
async function resume(): Promise<void> {
  await prepareSqlite({ directory: POOL_FOLDER });
  const local = openLocalReplica({ dataDir: DATA_DIR, hubUrl, log, onSignedOut: () => void endSession() });
  const kept = keptSignIn(local.engine.db);
  await serve(local, kept && local.replica.hasCredentials() ? kept : null);
}

async function serve(local: LocalReplica, session: LocalSession | null): Promise<void> {
  const { engine, replica } = local;
  const accessToken = session ? replicaAccessToken(engine, session.hubUserId) : '';
  // The hub's own page: what only the hub makes is sent to it (a desktop replica refuses it instead).
  const dispatcher = await createDispatcher(engine, { replica, accessToken, host: self.location.host, hubOnlyWrites: 'send' });
  let stopWatching = () => undefined as void;
  if (session) {
    stopWatching = replica.watch((status) => group.publish('sync-status', status));
    replica.start();
  }
  open = { local, session, dispatcher, stopWatching };
}

/**
 * Signs in at the hub into empty local data (another person's, or a stale
 * copy, is removed first), then syncs it and serves the app. A sign-in the
 * hub refuses (or cannot check) keeps nothing: the empty database goes too.
 */
async function signIn(email: string, password: string): Promise<EngineAnswers['signIn']> {
  await removeLocalData();
  await resume();
  const { local, dispatcher } = open!;
  const outcome = await local.replica.signIn(email, password);
  if (!outcome.ok) {
    await removeLocalData();
    return { problem: outcome.message };
  }
  const session = { hubUserId: outcome.userId, email };
  keepSignIn(local.engine.db, session);
  await dispatcher.close();
  await serve(local, session);
  return { problem: null };
}

/**
 * Revokes the hub's tokens (best effort), removes the local data, and tells
 * every tab, which then removes what it keeps and ends its worker. Nothing is
 * opened again until someone signs in.
 */
async function signOut(): Promise<void> {
  await open?.local.replica.signOut();
  await endSession();
}

/** The session is over (signed out here, or ended by the hub): the data goes, and every tab is told. */
async function endSession(): Promise<void> {
  await removeLocalData();
  group.publish('signed-out', null);
}

async function removeLocalData(): Promise<void> {
  if (open) {
    open.stopWatching();
    await open.dispatcher.close();
    await open.local.close();
    open = null;
  }
  await removeSqliteFiles(DATA_DIR);
}

/**
 * A document link the engine signed (its answers' `download_url`), answered from the local data (or by the
 * hub, through the replica, when only the hub has the file's bytes).
 */
async function download(dispatcher: Dispatcher, pathAndQuery: string): Promise<DownloadAnswer | null> {
  const answer = await dispatcher.download(pathAndQuery);
  if (!answer) return null;
  const headers = Object.fromEntries(Object.entries(answer.headers).map(([name, value]) => [name, [value].flat().join(', ')]));
  return { status: answer.statusCode, headers, body: answer.rawPayload };
}

/** What a request gets once the local data is gone (signed out in another tab): the hub's 401. */
function signedOutAnswer(): ApiResponse {
  const message = 'Signed out: sign in again.';
  return { status: 401, body: errorEnvelope(401, [{ resource: 'request', field: '', code: 'unauthorized', message, details: message }], crypto.randomUUID()) };
}
