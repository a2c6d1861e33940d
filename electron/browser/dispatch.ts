// The browser worker's bridge: the renderer's REST-shaped requests (shared/bridge.ts) answered by the
// local engine through the same route code and rules as the hub's and the desktop's (engine/http/apiScope.ts),
// run by the route host instead of Fastify.
import type { Engine } from '../engine/engine.js';
import type { Replica } from '../engine/replica/replica.js';
import type { ApiResponse } from '../../shared/bridge.js';
import { apiBasics, apiOutsideScope, apiScope, answerFrameworkError, BODY_LIMIT } from '../engine/http/apiScope.js';
import { toBridgeCall, toBridgeResponse } from '../engine/http/bridgeCall.js';
import { withoutJsonSuffix } from '../engine/http/supportApi.js';
import { RouteHost, type HostLogger, type HostResponse } from './routeHost.js';

export interface LocalApiOptions {
  /** The engine's replica (the worker's engine is one): its sync routes, write gate and forwarding. */
  replica?: Replica;
  /** What the replica does with a write only the hub makes (http/apiScope.ts): the worker sends it to the hub. */
  hubOnlyWrites?: 'refuse' | 'send';
  /** Where errors the routes log go (default: nowhere). */
  log?: HostLogger;
}

export interface DispatcherOptions extends LocalApiOptions {
  /** The local user's token, attached here: the renderer never holds it. */
  accessToken: string;
  /** The Host the answers' links are built from (the page's `location.host`). */
  host: string;
}

export interface Dispatcher {
  /** One renderer request answered; a malformed one is a 400 without a body, as the desktop's bridge answers it. */
  request(request: unknown): Promise<ApiResponse>;
  /** A signed download link's answer (`/downloads/documents/7?expires=…&signature=…`); null for any other path. */
  download(pathAndQuery: string): Promise<HostResponse | null>;
  readonly host: RouteHost;
  close(): Promise<void>;
}

const DOWNLOAD_PATH = /^\/downloads\/documents\/\d+(\?|$)/;

/**
 * The engine's interface on a route host, registered as createHttpApp registers it (http/app.ts) minus
 * what only a server has: rate limits (one user, in process), OAuth, metrics, health, docs, the web UI.
 */
export async function buildLocalApi(engine: Engine, options: LocalApiOptions = {}): Promise<RouteHost> {
  const host = new RouteHost({ log: options.log, rewriteUrl: withoutJsonSuffix, frameworkErrors: answerFrameworkError, bodyLimit: BODY_LIMIT });
  const { app } = host;
  apiBasics(app, engine);
  await app.register(async (api) => apiScope(api, engine, { replica: options.replica, hubOnlyWrites: options.hubOnlyWrites }));
  await apiOutsideScope(app, engine, { replica: options.replica });
  return host;
}

export async function createDispatcher(engine: Engine, options: DispatcherOptions): Promise<Dispatcher> {
  const host = await buildLocalApi(engine, options);
  return {
    host,
    async request(request) {
      const call = toBridgeCall(request, options.accessToken, options.host);
      if (!call) return { status: 400, body: null };
      return toBridgeResponse(await host.inject({ method: call.method, url: call.url, headers: call.headers, body: call.payload }));
    },
    async download(pathAndQuery) {
      if (!DOWNLOAD_PATH.test(pathAndQuery)) return null;
      return host.inject({ method: 'GET', url: pathAndQuery, headers: { host: options.host } });
    },
    close: () => host.close(),
  };
}
