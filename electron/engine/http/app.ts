import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { maxHeaderSize } from 'node:http';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerFactory } from 'fastify';
import formBody from '@fastify/formbody';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import type { Engine } from '../engine.js';
import { answerClientError } from './clientErrors.js';
import { normalizeSupportBaseUrl, withoutJsonSuffix } from './supportApi.js';
import { oauthRoutes, sendOAuthFailure } from './routes/oauth.js';
import { invitationRoutes } from './routes/invitations.js';
import { authorizeRoutes } from './routes/authorize.js';
import { calendarFeedRoutes } from './routes/importExport.js';
import { apiBasics, apiOutsideScope, apiScope, answerFrameworkError, BODY_LIMIT, type ApiScopeOptions } from './apiScope.js';
import { DOCS_PATH } from './envelope.js';
import { loggerOptions, type LoggerOption } from './logging.js';
import { metricsRoutes } from './metrics.js';
import { healthRoutes } from './routes/health.js';
import { closeConnectionsWhenClosing } from './draining.js';
import { limitSupportRate, limitV2Rate } from './rateLimits.js';
import { openApiRoutes } from './routes/openapi.js';

export interface HttpOptions extends ApiScopeOptions {
  /** Requests per hour per token (the real service allows 36 000); 0 turns the limit off. */
  rateLimitPerHour?: number;
  /** Built web UI (Vite output) to serve at `/`; omitted for API-only apps. */
  webRoot?: string;
  /** API docs (markdown) served at /docs/api, where error `more_info` links point. */
  docsFile?: string;
  /** Off when absent (tests, the desktop app); `serve` logs JSON lines at `--log-level` (logging.ts). */
  logger?: LoggerOption;
  /**
   * The reverse proxies (addresses or CIDR ranges, comma separated) whose `X-Forwarded-For` names the
   * client: behind a load balancer every request otherwise comes from its address, and the sign-in
   * lockout by source (auth/signIn.ts) would count every caller as one. None by default.
   */
  trustProxy?: string;
  /** The node's own HTTP server (a PostgreSQL hub node hands most requests to its engine workers: hub.ts). */
  serverFactory?: FastifyServerFactory;
  /** Where `url` fields of the custom-objects interface (/api/v2) point (`serve --support-base-url`); default: the request's origin. */
  supportBaseUrl?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route the app registered (method, URL), for tests that must cover them all (a new route cannot be forgotten). */
    routeList: { method: string; url: string }[];
  }
}

/** Strict CSP for the web UI: only our own scripts, styles, API, workers and install manifest. */
export const CONTENT_SECURITY_POLICY =
  // 'wasm-unsafe-eval' lets the engine worker compile SQLite's WebAssembly (no JavaScript eval).
  "default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; " +
  "worker-src 'self'; manifest-src 'self'; " +
  "base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

export const DEFAULT_RATE_LIMIT_PER_HOUR = 36_000;

/**
 * The one HTTP app: REST under /v2, OAuth under /oauth2, the web UI at /.
 * The hub listens with it; the desktop app runs the same app through
 * inject() (no socket) so both paths share every rule.
 */
export async function createHttpApp(engine: Engine, options: HttpOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...loggerOptions(options.logger),
    genReqId: () => randomUUID(),
    bodyLimit: BODY_LIMIT,
    // An id of any length Node lets through reaches its route, whose idParam answers 404 not_found (never a bare 414).
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    // Errors before routing (a URL that is not valid percent-encoding) and before Fastify (bad HTTP) in the envelope too.
    frameworkErrors: answerFrameworkError,
    clientErrorHandler: answerClientError,
    // /api/v2 links end in `.json`, as the real service's do.
    rewriteUrl: (request) => withoutJsonSuffix(request.url ?? '/'),
    ...(options.serverFactory ? { serverFactory: options.serverFactory } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
  });
  app.decorate('routeList', [] as FastifyInstance['routeList']);
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) app.routeList.push({ method, url: route.url });
  });

  const { webRoot, replica } = options;
  // A person who typed or followed an address the app has no screen for gets its not-found page, with a 404.
  apiBasics(app, engine, webRoot ? (request, reply) => (wantsPage(request) ? sendIndex(webRoot, reply.code(404)) : undefined) : undefined);
  // Operations: the metrics and closing hooks cover every route registered after them; /health and /metrics sit outside /v2.
  metricsRoutes(app, engine);
  healthRoutes(app, engine, replica);
  closeConnectionsWhenClosing(app);
  await app.register(cookie);

  const limit = options.rateLimitPerHour ?? DEFAULT_RATE_LIMIT_PER_HOUR;
  await app.register(async (api) => {
    if (limit > 0) await limitV2Rate(api, engine, limit);
    await apiScope(api, engine, options);
  });
  await apiOutsideScope(app, engine, {
    replica,
    limitRate: limit > 0 ? (api) => limitSupportRate(api, engine, limit) : undefined,
    supportBaseUrl: supportBaseUrlOf(options),
  });

  await app.register(async (oauth) => {
    // Every failure under /oauth2 answers in OAuth's shape (RFC 6749 §5.2), whatever raised it.
    oauth.setErrorHandler(sendOAuthFailure);
    // Form bodies are OAuth's (RFC 6749); elsewhere a non-empty form is a 415 (bodyParsers.ts).
    await oauth.register(formBody, { bodyLimit: BODY_LIMIT });
    oauthRoutes(oauth, engine);
    authorizeRoutes(oauth, engine);
    await invitationRoutes(oauth, engine);
  });
  calendarFeedRoutes(app, engine);
  serveDocs(app, options.docsFile);
  // The OpenAPI document and its page: a hub's interface; a desktop replica's API is its own app's.
  if (!replica) openApiRoutes(app, engine);
  if (webRoot) await serveWebUi(app, webRoot);
  return app;
}

function supportBaseUrlOf(options: HttpOptions): string | undefined {
  if (options.supportBaseUrl === undefined) return undefined;
  const url = normalizeSupportBaseUrl(options.supportBaseUrl);
  if (!url) throw new Error(`The support base URL must be an http(s) URL, not '${options.supportBaseUrl}'.`);
  return url;
}

/**
 * The API guide at /docs/api, and the sync guide beside it (its file in the
 * same folder) at /docs/sync.md and the import and export rules at
 * /docs/import-export.md, where the guide's relative links to them land.
 */
function serveDocs(app: FastifyInstance, docsFile: string | undefined): void {
  const beside = (name: string) => docsFile && join(dirname(docsFile), name);
  const guides = { [DOCS_PATH]: docsFile, '/docs/sync.md': beside('sync.md'), '/docs/import-export.md': beside('import-export.md') };
  for (const [path, file] of Object.entries(guides)) {
    app.get(path, async (_request, reply) => {
      if (!file || !existsSync(file)) return reply.code(404).type('text/plain; charset=utf-8').send('API docs are not bundled with this build.');
      return reply.type('text/markdown; charset=utf-8').send(readFileSync(file, 'utf8'));
    });
  }
}

/** The web UI: static files with a strict CSP, and index.html for client-side routes. */
async function serveWebUi(app: FastifyInstance, webRoot: string): Promise<void> {
  // Files the build produced (hashed assets, favicon); a missing file falls through to the JSON 404.
  await app.register(fastifyStatic, { root: webRoot, wildcard: true, index: false });
  app.addHook('onSend', async (_request, reply, payload) => {
    const type = String(reply.getHeader('content-type') ?? '');
    // Pages with a policy of their own (the OAuth consent page, which may redirect to an application) keep it.
    // Scripts carry it too: a worker runs under the policy of its own script's answer, not its page's.
    if (/^(text\/html|text\/javascript|application\/javascript)/.test(type) && !reply.hasHeader('Content-Security-Policy')) {
      reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY).header('X-Content-Type-Options', 'nosniff').header('Referrer-Policy', 'no-referrer');
    }
    return payload;
  });
  const page = async (_request: FastifyRequest, reply: FastifyReply) => sendIndex(webRoot, reply);
  app.get('/', page);
  for (const route of ['/login', '/contacts', '/contacts/*', '/leads', '/leads/*', '/deals', '/deals/*', '/tasks', '/notes', '/reports', '/products', '/sequences', '/sequences/*', '/enrollments', '/enrollments/*', '/settings', '/settings/*', '/sync-issues', '/objects', '/objects/*', '/invite/*']) app.get(route, page);
}

/** index.html, where the app's router picks the screen; a plain-text 503 when the UI was not built. */
function sendIndex(webRoot: string, reply: FastifyReply): FastifyReply {
  const index = join(webRoot, 'index.html');
  if (!existsSync(index)) return reply.code(503).type('text/plain; charset=utf-8').send('The web UI is not built: run `npm run build:web`.');
  return reply.type('text/html; charset=utf-8').send(readFileSync(index));
}

/** A browser's GET for a page (it accepts HTML) outside the interfaces, which keep their JSON 404s. */
function wantsPage(request: FastifyRequest): boolean {
  if (request.method !== 'GET' || !/\btext\/html\b/.test(request.headers.accept ?? '')) return false;
  return !/^\/(v2|api|oauth2)(\/|$|\?)/.test(request.url);
}
