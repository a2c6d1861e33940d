// A Fastify-shaped route host: runs the engine's route modules (electron/engine/http/apiScope.ts) without
// Fastify, which cannot run in a browser (it builds a node:http server, and inject() is built on node:http and
// streams). It implements the part of Fastify 5's API those modules use, with Fastify's semantics: encapsulated
// scopes, hooks in Fastify's order, route config and onRoute, content-type parsers, error handlers up the
// scopes, the not-found handler, reply serialization. Anything else throws at once, naming what is missing,
// instead of failing later as `undefined is not a function`. No Node module and no Fastify at run time.
import type { FastifyInstance } from 'fastify';
import { parseQuery } from './query.js';
import { fastifyError, RouteTable } from './routeTable.js';

/** A request as the host takes it: the path with its query, header names in lower case, the body's bytes. */
export interface HostRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: Uint8Array | string;
}

/** The answer, shaped like light-my-request's (what Fastify's inject() gives) where the bridge reads it. */
export interface HostResponse {
  statusCode: number;
  headers: Record<string, string | string[]>;
  /** The payload as text (a file's bytes decoded as UTF-8, as inject() does). */
  body: string;
  rawPayload: Uint8Array;
}

/** Pino's methods, as route code calls them on `request.log` and `app.log`. */
export interface HostLogger {
  level: string;
  fatal(...args: unknown[]): void;
  error(...args: unknown[]): void;
  warn(...args: unknown[]): void;
  info(...args: unknown[]): void;
  debug(...args: unknown[]): void;
  trace(...args: unknown[]): void;
  silent(...args: unknown[]): void;
  child(...args: unknown[]): HostLogger;
}

export interface RouteHostOptions {
  /** Where errors the routes log go; default: nowhere (Fastify with its logger off, as the desktop runs it). */
  log?: HostLogger;
  /** Request ids (X-Request-Id); default: a random UUID, as the hub's genReqId. */
  genReqId?: () => string;
  /** Fastify's rewriteUrl: the URL routed and seen by the routes. */
  rewriteUrl?: (url: string) => string;
  /** Fastify's frameworkErrors: a URL that cannot be routed (bad percent-encoding) is answered here. */
  frameworkErrors?: Handler;
  /** Fastify's bodyLimit (1 MiB by default, as Fastify's). */
  bodyLimit?: number;
}

// Handlers, hooks and parsers of route code take Fastify's request and reply; the host calls them with its
// own, which is what asFastify's one cast stands for. `any` lets them in without a cast each.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (...args: any[]) => unknown;
type Plugin = (instance: FastifyInstance, options: Record<string, unknown>) => unknown;

const LIFECYCLE_HOOKS = ['onRequest', 'preValidation', 'preHandler', 'onSend', 'onResponse', 'onError'] as const;
type LifecycleHook = (typeof LIFECYCLE_HOOKS)[number];
/** Hooks accepted and run where the host has the moment they stand for. */
const OTHER_HOOKS = new Set(['onRoute', 'preClose', 'onClose']);
/** Fastify's methods with a body (its `bodywith`); the others' bodies are never parsed. */
const BODY_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/** What `all` registers: every method the bridge can send, and HEAD and OPTIONS as Fastify's `all` does. */
const ALL_METHODS = ['DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'OPTIONS'];
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const MEDIA_TYPE = /^[\w!#$%&'*+.^`|~-]+\/[\w!#$%&'*+.^`|~-]+$/;
const SKIP_OVERRIDE = Symbol.for('skip-override');
/** As inject() decodes a payload: a byte order mark at the start is kept (exports begin with one). */
const UTF8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** A shorthand's options (`app.get(url, { config }, handler)`). */
type RouteShorthandOptions = Record<string, unknown>;

/** A route's options as onRoute hooks see and change them (Fastify's RouteOptions, the part used). */
interface RouteOptionsSeen extends Partial<Record<LifecycleHook, Handler | Handler[]>> {
  method: string | string[];
  url: string;
  path: string;
  config: Record<string, unknown>;
  handler: Handler;
  bodyLimit?: number;
}

interface Route {
  method: string;
  url: string;
  config: Record<string, unknown>;
  handler: Handler;
  scope: Scope;
  bodyLimit?: number;
  hooks: Partial<Record<LifecycleHook, Handler[]>>;
}

interface Parser {
  type: string | RegExp;
  parseAs: 'buffer' | 'string';
  bodyLimit?: number;
  fn: Handler;
}

/** One encapsulation context: what `register` creates in Fastify. */
class Scope {
  readonly hooks = new Map<string, Handler[]>();
  errorHandler?: Handler;
  parsers: Parser[];

  constructor(readonly host: RouteHost, readonly parent: Scope | null) {
    // Fastify copies the parent's parsers when a plugin starts; changes in the child stay there.
    this.parsers = parent ? [...parent.parsers] : [];
  }

  /** The hooks of a name from the root down to this scope, in the order they were added. */
  hooksOf(name: string): Handler[] {
    const own = this.hooks.get(name) ?? [];
    return this.parent ? [...this.parent.hooksOf(name), ...own] : own;
  }

  nearestErrorHandler(): Scope | null {
    return this.errorHandler ? this : (this.parent?.nearestErrorHandler() ?? null);
  }
}

/**
 * The part of FastifyInstance the route modules use, for one scope. Passed to them through `asFastify`,
 * the host's one cast, behind a guard that throws on any other member.
 */
class Instance {
  constructor(private readonly scope: Scope) {}

  get log(): HostLogger {
    return this.scope.host.log;
  }

  register = async (plugin: Plugin | { default: Plugin }, options: Record<string, unknown> = {}): Promise<void> => {
    const run = typeof plugin === 'function' ? plugin : plugin.default;
    if ('prefix' in options) throw new Error('The route host has no register prefixes.');
    // A plugin wrapped by fastify-plugin runs in the scope that registers it.
    const scope = Reflect.get(run, SKIP_OVERRIDE) ? this.scope : new Scope(this.scope.host, this.scope);
    // Async, or written with Fastify's `done` callback as its third parameter.
    await callHook(run, [asFastify(new Instance(scope)), options]);
  };

  addHook = (name: string, fn: Handler): this => {
    if (!(LIFECYCLE_HOOKS as readonly string[]).includes(name) && !OTHER_HOOKS.has(name)) throw new Error(`The route host runs no ${name} hooks.`);
    this.scope.hooks.set(name, [...(this.scope.hooks.get(name) ?? []), fn]);
    return this;
  };

  decorateRequest = (name: string, value: unknown): this => {
    this.scope.host.requestDecorators.set(name, value);
    return this;
  };

  hasRequestDecorator = (name: string): boolean => this.scope.host.requestDecorators.has(name);

  decorate = (name: string, value: unknown): this => {
    Reflect.set(this, name, value);
    return this;
  };

  setErrorHandler = (fn: Handler): this => {
    this.scope.errorHandler = fn;
    return this;
  };

  setNotFoundHandler = (fn: Handler): this => {
    if (this.scope.parent) throw new Error('The route host has one not-found handler, on its root.');
    this.scope.host.notFound = fn;
    return this;
  };

  addContentTypeParser = (type: string | RegExp | string[], options: { parseAs?: 'buffer' | 'string'; bodyLimit?: number } | Handler, fn?: Handler): this => {
    const [opts, parse] = typeof options === 'function' ? [{}, options] : [options, fn!];
    for (const one of [type].flat()) {
      this.scope.parsers = this.scope.parsers.filter((parser) => String(parser.type) !== String(one));
      this.scope.parsers.push({ type: one, parseAs: opts.parseAs ?? 'string', bodyLimit: opts.bodyLimit, fn: parse });
    }
    return this;
  };

  removeContentTypeParser = (types: string | RegExp | (string | RegExp)[]): this => {
    const gone = new Set([types].flat().map(String));
    this.scope.parsers = this.scope.parsers.filter((parser) => !gone.has(String(parser.type)));
    return this;
  };

  removeAllContentTypeParsers = (): this => {
    this.scope.parsers = [];
    return this;
  };

  route = (options: { method: string | string[]; url: string; handler: Handler; config?: Record<string, unknown>; [key: string]: unknown }): this => {
    this.scope.host.addRoute(this.scope, options);
    return this;
  };

  get = (url: string, options: RouteShorthandOptions | Handler, handler?: Handler) => this.shorthand('GET', url, options, handler);
  post = (url: string, options: RouteShorthandOptions | Handler, handler?: Handler) => this.shorthand('POST', url, options, handler);
  put = (url: string, options: RouteShorthandOptions | Handler, handler?: Handler) => this.shorthand('PUT', url, options, handler);
  patch = (url: string, options: RouteShorthandOptions | Handler, handler?: Handler) => this.shorthand('PATCH', url, options, handler);
  delete = (url: string, options: RouteShorthandOptions | Handler, handler?: Handler) => this.shorthand('DELETE', url, options, handler);
  all = (url: string, options: RouteShorthandOptions | Handler, handler?: Handler) => this.shorthand(ALL_METHODS, url, options, handler);

  private shorthand(method: string | string[], url: string, options: RouteShorthandOptions | Handler, handler?: Handler): this {
    const [opts, fn] = typeof options === 'function' ? [{}, options] : [options, handler!];
    return this.route({ ...opts, method, url, handler: fn });
  }
}

/** Members any object may be asked for without being a Fastify feature (promise and inspection probes). */
const PROBED = new Set(['then', 'toJSON', 'constructor', 'asymmetricMatch', 'nodeType', '$$typeof', '@@__IMMUTABLE_ITERABLE__@@', '@@__IMMUTABLE_RECORD__@@']);

/** The object, answering any member it lacks with an error that names it (a Fastify feature the host lacks). */
function strict<T extends object>(target: T, what: string): T {
  return new Proxy(target, {
    get(object, property, receiver) {
      if (typeof property === 'string' && !(property in object) && !PROBED.has(property)) {
        throw new Error(`The route host's ${what} has no '${property}': the route code uses a part of Fastify the host does not implement (electron/browser/routeHost.ts).`);
      }
      return Reflect.get(object, property, receiver);
    },
  });
}

/**
 * The host's one cast: the scope's Instance as Fastify's type, so that apiScope.ts and the route modules,
 * which are typed against Fastify (its request augmentations included), register on it unchanged. What the
 * cast cannot check, the guard (`strict`) and test/browser/ (parity with inject(), route coverage) do.
 */
function asFastify(instance: Instance): FastifyInstance {
  return strict(instance, 'instance') as unknown as FastifyInstance;
}

export class RouteHost {
  readonly log: HostLogger;
  readonly requestDecorators = new Map<string, unknown>();
  /** Every route registered (method, URL), as app.ts's routeList. */
  readonly routeList: { method: string; url: string }[] = [];
  notFound?: Handler;
  private readonly root: Scope;
  private readonly routes = new RouteTable<Route>();
  private readonly options: RouteHostOptions;

  constructor(options: RouteHostOptions = {}) {
    this.options = options;
    this.log = options.log ?? SILENT_LOG;
    this.root = new Scope(this, null);
  }

  /** The root scope, to register on as on a Fastify app. */
  get app(): FastifyInstance {
    return asFastify(new Instance(this.root));
  }

  addRoute(scope: Scope, options: { method: string | string[]; url: string; handler: Handler; config?: Record<string, unknown>; [key: string]: unknown }): void {
    const seen: RouteOptionsSeen = { ...options, path: options.url, config: { ...options.config } };
    for (const hook of scope.hooksOf('onRoute')) hook(seen);
    const hooks: Route['hooks'] = {};
    for (const name of LIFECYCLE_HOOKS) if (seen[name] !== undefined) hooks[name] = [seen[name]].flat();
    for (const method of [seen.method].flat()) {
      this.routes.add(method, seen.url, { method, url: seen.url, config: { ...seen.config, url: seen.url, method }, handler: seen.handler, scope, bodyLimit: seen.bodyLimit, hooks });
      this.routeList.push({ method, url: seen.url });
    }
  }

  /** Answers one request as Fastify's inject() would. */
  async inject(init: HostRequest): Promise<HostResponse> {
    const url = this.options.rewriteUrl ? this.options.rewriteUrl(init.url) : init.url;
    const call = new Call(this, init, url);
    const [path, query] = splitUrl(url);
    let found: { value: Route; params: Record<string, string> } | null;
    try {
      found = this.routes.find(init.method.toUpperCase(), path);
    } catch (error) {
      // A path that is not valid percent-encoding: Fastify answers it by frameworkErrors, outside every hook.
      call.begin(null, {}, {});
      if (!this.options.frameworkErrors) throw error;
      call.catchFrom(() => this.options.frameworkErrors!(error, call.requestView, call.reply.strict));
      return call.finished;
    }
    call.begin(found?.value ?? null, found?.params ?? {}, parseQuery(query));
    void call.run(found?.value.handler ?? this.notFound ?? defaultNotFound);
    return call.finished;
  }

  /** Runs the preClose and onClose hooks (the routes' timers and streams stop there). */
  async close(): Promise<void> {
    for (const name of ['preClose', 'onClose']) for (const hook of this.root.hooksOf(name)) await callHook(hook, []);
  }

  bodyLimitOf(route: Route | null, parser: Parser): number {
    return route?.bodyLimit ?? parser.bodyLimit ?? this.options.bodyLimit ?? DEFAULT_BODY_LIMIT;
  }

  newRequestId(): string {
    return this.options.genReqId ? this.options.genReqId() : globalThis.crypto.randomUUID();
  }

  lifecycleHooks(route: Route | null, name: LifecycleHook): Handler[] {
    // The not-found handler runs with the root's hooks, as Fastify's 404 context does.
    const scope = route?.scope ?? this.root;
    return [...scope.hooksOf(name), ...(route?.hooks[name] ?? [])];
  }

  scopeOf(route: Route | null): Scope {
    return route?.scope ?? this.root;
  }
}

/** One request on its way through the lifecycle: Fastify's request and reply objects for it. */
class Call {
  readonly request: Record<string, unknown>;
  /** The request as route code sees it: the same object, behind the guard. */
  readonly requestView: unknown;
  readonly reply: Reply;
  /** The request's headers, names in lower case (Node's and Fastify's convention). */
  readonly headers: Record<string, string>;
  readonly finished: Promise<HostResponse>;
  route: Route | null = null;
  private finish!: (response: HostResponse) => void;

  constructor(readonly host: RouteHost, readonly init: HostRequest, url: string) {
    this.finished = new Promise((resolve) => (this.finish = resolve));
    const headers = Object.fromEntries(Object.entries(init.headers).map(([name, value]) => [name.toLowerCase(), value]));
    this.headers = headers;
    const hostHeader = headers.host ?? 'localhost';
    this.request = {
      id: host.newRequestId(),
      method: init.method.toUpperCase(),
      url,
      originalUrl: init.url,
      headers,
      params: {},
      query: {},
      body: undefined,
      log: host.log,
      ip: '127.0.0.1',
      ips: ['127.0.0.1'],
      protocol: 'http',
      host: hostHeader,
      hostname: hostHeader.replace(/:\d+$/, ''),
      routeOptions: { config: {} },
    };
    for (const [name, value] of host.requestDecorators) this.request[name] = value;
    this.requestView = strict(this.request, 'request');
    this.reply = new Reply(this);
  }

  begin(route: Route | null, params: Record<string, string>, query: Record<string, unknown>): void {
    this.route = route;
    Object.assign(this.request, { params, query, routeOptions: route ? { url: route.url, method: route.method, config: route.config } : { config: {} } });
    this.request.server = this.host.app;
  }

  /** onRequest → body → preValidation → preHandler → handler, stopping once an answer is sent. */
  async run(handler: Handler): Promise<void> {
    const request = this.requestView;
    const reply = this.reply.strict;
    try {
      if (!(await this.runHooks('onRequest'))) return;
      // Unknown paths too: Fastify's not-found is a route of the root, whose parsers read the body first.
      this.request.body = await this.parseBody();
      if (!(await this.runHooks('preValidation'))) return;
      if (!(await this.runHooks('preHandler'))) return;
      const result = handler(request, reply);
      if (isThenable(result)) {
        const payload = await result;
        // An async handler's value is the answer (Fastify's wrapThenable), unless it already sent one.
        if (!this.reply.sent) reply.send(payload);
      } else if (result !== undefined && !this.reply.sent) {
        reply.send(result);
      }
    } catch (error) {
      if (this.reply.sent) {
        this.host.log.error({ err: error }, 'Promise errored, but reply.sent = true was set');
        return;
      }
      this.reply.sendError(error);
    }
  }

  /** Calls `fn`, sending what it throws or rejects with as the error answer (as Fastify does around its handlers). */
  catchFrom(fn: () => unknown): void {
    try {
      const result = fn();
      if (isThenable(result)) {
        result.then(
          // An async function that answered nothing is answered with nothing (an empty 200), as Fastify's wrapThenable does.
          (payload) => {
            if (!this.reply.sent) this.reply.strict.send(payload);
          },
          (error) => (this.reply.sent ? this.host.log.error({ err: error }, 'Promise errored, but reply.sent = true was set') : this.reply.sendError(error)),
        );
      } else if (result !== undefined && !this.reply.sent) {
        this.reply.strict.send(result);
      }
    } catch (error) {
      this.reply.sendError(error);
    }
  }

  /** Runs a lifecycle stage's hooks in order; false once one of them sent the answer. */
  private async runHooks(name: 'onRequest' | 'preValidation' | 'preHandler'): Promise<boolean> {
    for (const hook of this.host.lifecycleHooks(this.route, name)) {
      if (this.reply.sent) return false;
      await callHook(hook, [this.requestView, this.reply.strict]);
    }
    return !this.reply.sent;
  }

  /** The body as the scope's content-type parsers make it (Fastify's ContentTypeParser.run). */
  private async parseBody(): Promise<unknown> {
    if (!BODY_METHODS.has(this.init.method.toUpperCase())) return undefined;
    const bytes = bytesOf(this.init.body);
    const contentType = this.headers['content-type'];
    if (contentType === undefined && bytes.length === 0) return undefined;
    const mediaType = (contentType ?? '').split(';')[0].trim().toLowerCase();
    if (contentType !== undefined && !MEDIA_TYPE.test(mediaType)) throw fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 'Unsupported Media Type');
    const parser = parserFor(this.host.scopeOf(this.route).parsers, contentType, mediaType);
    if (!parser) throw fastifyError('FST_ERR_CTP_INVALID_MEDIA_TYPE', 415, 'Unsupported Media Type');
    if (bytes.length > this.host.bodyLimitOf(this.route, parser)) throw fastifyError('FST_ERR_CTP_BODY_TOO_LARGE', 413, 'Request body is too large');
    const body = parser.parseAs === 'string' ? UTF8.decode(bytes) : nodeBuffer(bytes);
    return callHook(parser.fn, [this.requestView, body]);
  }

  end(response: HostResponse): void {
    this.finish(response);
    // onResponse runs once the answer is out; what it throws is only logged, as in Fastify.
    void (async () => {
      for (const hook of this.host.lifecycleHooks(this.route, 'onResponse')) {
        await callHook(hook, [this.requestView, this.reply.strict]).catch((err: unknown) => this.host.log.error({ err }, 'onResponse hook failed'));
      }
    })();
  }
}

/** Fastify's reply: status, headers, and send with Fastify's serialization and onSend hooks. */
class Reply {
  statusCode = 200;
  sent = false;
  readonly strict: Reply;
  private headerValues: Record<string, string | string[]> = {};
  private readonly startedAt = performance.now();
  /** The scope whose error handler answers the next error (after one that threw, its parent's). */
  private errorScope: Scope | null | undefined;

  constructor(private readonly call: Call) {
    this.strict = strict(this, 'reply');
  }

  get request(): unknown {
    return this.call.requestView;
  }

  get log(): HostLogger {
    return this.call.host.log;
  }

  get routeOptions(): unknown {
    return this.call.request.routeOptions;
  }

  get elapsedTime(): number {
    return performance.now() - this.startedAt;
  }

  code(status: number): this {
    this.statusCode = status;
    return this;
  }

  status(status: number): this {
    return this.code(status);
  }

  type(contentType: string): this {
    return this.header('content-type', contentType);
  }

  header(name: string, value: unknown = ''): this {
    this.headerValues[name.toLowerCase()] = Array.isArray(value) ? value.map(String) : String(value);
    return this;
  }

  headers(values: Record<string, unknown>): this {
    for (const [name, value] of Object.entries(values)) this.header(name, value);
    return this;
  }

  getHeader(name: string): string | string[] | undefined {
    return this.headerValues[name.toLowerCase()];
  }

  getHeaders(): Record<string, string | string[]> {
    return { ...this.headerValues };
  }

  hasHeader(name: string): boolean {
    return this.headerValues[name.toLowerCase()] !== undefined;
  }

  removeHeader(name: string): this {
    delete this.headerValues[name.toLowerCase()];
    return this;
  }

  redirect(url: string, status = 302): this {
    return this.header('location', url).code(status).send();
  }

  hijack(): never {
    throw new Error('The route host answers no streams (server-sent events): in the browser, events reach the UI through the bridge\'s on().');
  }

  /** Sends the answer: an Error goes to the error handlers, anything else is serialized and passes the onSend hooks. */
  send(payload?: unknown): this {
    if (this.sent) {
      this.log.warn({ url: this.call.request.url }, 'Reply was already sent');
      return this;
    }
    this.sent = true;
    if (payload instanceof Error) {
      this.sent = false;
      this.sendError(payload);
      return this;
    }
    void this.deliver(payload);
    return this;
  }

  /** The error handler nearest the route (then its parents', as each throws), or Fastify's fallback. */
  sendError(error: unknown): void {
    void this.runOnErrorHooks(error).then(() => {
      const scope = this.errorScope === undefined ? this.call.host.scopeOf(this.call.route).nearestErrorHandler() : this.errorScope;
      // Content type and length are the error answer's to choose.
      this.removeHeader('content-type').removeHeader('content-length');
      this.sent = false;
      if (!scope) return this.fallback(error);
      this.errorScope = scope.parent?.nearestErrorHandler() ?? null;
      this.call.catchFrom(() => scope.errorHandler!(error, this.call.requestView, this.strict));
    });
  }

  private async runOnErrorHooks(error: unknown): Promise<void> {
    for (const hook of this.call.host.lifecycleHooks(this.call.route, 'onError')) {
      await callHook(hook, [this.call.requestView, this.strict, error]).catch((err: unknown) => this.log.error({ err }, 'onError hook failed'));
    }
  }

  private async deliver(payload: unknown): Promise<void> {
    let body: string | Uint8Array | undefined;
    try {
      body = this.serialize(payload);
      for (const hook of this.call.host.lifecycleHooks(this.call.route, 'onSend')) {
        const replaced = await callHook(hook, [this.call.requestView, this.strict, body]);
        if (replaced !== undefined) body = replaced as string | Uint8Array;
      }
    } catch (error) {
      this.sent = false;
      this.sendError(error);
      return;
    }
    this.write(body);
  }

  /** Fastify's Reply.send: bytes as octet-stream, strings as plain text, anything else as JSON. */
  private serialize(payload: unknown): string | Uint8Array | undefined {
    if (payload === undefined) return undefined;
    const contentType = this.getHeader('content-type');
    const type = typeof contentType === 'string' ? contentType : undefined;
    if (payload instanceof Uint8Array) {
      if (!type) this.type('application/octet-stream');
      return payload;
    }
    if (typeof payload === 'string' && !type) {
      this.type('text/plain; charset=utf-8');
      return payload;
    }
    if (!type) this.type('application/json; charset=utf-8');
    else if (type.includes('json') && !/;\s*charset=/i.test(type)) this.type(`${type}; charset=utf-8`);
    else if (!type.includes('json')) {
      if (typeof payload === 'string') return payload;
      throw new TypeError(`Attempted to send payload of invalid type '${typeof payload}'. Expected a string or Buffer.`);
    }
    return typeof payload === 'string' ? payload : JSON.stringify(payload);
  }

  private write(body: string | Uint8Array | undefined): void {
    const noBody = this.statusCode === 204 || this.statusCode === 304 || (this.statusCode >= 100 && this.statusCode < 200);
    if (noBody) this.removeHeader('content-type').removeHeader('content-length');
    const rawPayload = noBody || body === undefined ? new Uint8Array() : typeof body === 'string' ? new TextEncoder().encode(body) : body;
    if (!noBody) this.header('content-length', String(rawPayload.byteLength));
    this.call.end({ statusCode: this.statusCode, headers: this.getHeaders(), body: UTF8.decode(rawPayload), rawPayload });
  }

  /** Fastify's answer when no error handler is left: its own JSON error. */
  private fallback(error: unknown): void {
    const failure: Error & { statusCode?: number; code?: string } = error instanceof Error ? error : new Error(String(error));
    const status = failure.statusCode && failure.statusCode >= 400 ? failure.statusCode : 500;
    this.statusCode = status;
    this.type('application/json; charset=utf-8');
    this.write(JSON.stringify({ statusCode: status, code: failure.code, error: status >= 500 ? 'Internal Server Error' : 'Bad Request', message: failure.message }));
  }
}

/** A hook or parser called Fastify's two ways: async (its promise) or with a callback as its last argument. */
function callHook(fn: Handler, args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const done = (err?: Error | null, value?: unknown) => (err ? reject(err) : resolve(value));
    try {
      const result = fn(...args, done);
      if (isThenable(result)) result.then(resolve, (err: unknown) => reject(err ?? new Error('Promise may not be fulfilled with \'undefined\' when statusCode is not 204')));
      // A synchronous hook written without the callback (fewer parameters than the arguments passed) is done when it returns.
      else if (fn.length <= args.length) resolve(result);
    } catch (error) {
      reject(error);
    }
  });
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at === -1 ? [url, ''] : [url.slice(0, at), url.slice(at + 1)];
}

/** Fastify's lookup: the exact type, then its media type, then the regular expressions, then the catch-all. */
function parserFor(parsers: Parser[], contentType: string | undefined, mediaType: string): Parser | undefined {
  if (contentType !== undefined) {
    const exact = parsers.find((parser) => parser.type === contentType) ?? parsers.find((parser) => parser.type === mediaType);
    if (exact) return exact;
    const byPattern = parsers.find((parser) => parser.type instanceof RegExp && parser.type.test(contentType.trim().toLowerCase()));
    if (byPattern) return byPattern;
  }
  return parsers.find((parser) => parser.type === '*');
}

function bytesOf(body: Uint8Array | string | undefined): Uint8Array {
  if (body === undefined) return new Uint8Array();
  return typeof body === 'string' ? new TextEncoder().encode(body) : body;
}

/**
 * `parseAs: 'buffer'` hands parsers a Node Buffer, whose methods the route modules' parsers still use
 * (http/bodyParsers.ts, documents.ts: the platform step moves them to Uint8Array); where there is no
 * Buffer (a browser without the platform's polyfill), the bytes as they are.
 */
function nodeBuffer(bytes: Uint8Array): Uint8Array {
  const NodeBuffer = Reflect.get(globalThis, 'Buffer');
  return NodeBuffer ? NodeBuffer.from(bytes) : bytes;
}

async function defaultNotFound(request: { method: string; url: string }, reply: Reply): Promise<unknown> {
  const { method, url } = request;
  return reply.code(404).send({ message: `Route ${method}:${url} not found`, error: 'Not Found', statusCode: 404 });
}

const noLog = () => {};
const SILENT_LOG: HostLogger = { level: 'silent', fatal: noLog, error: noLog, warn: noLog, info: noLog, debug: noLog, trace: noLog, silent: noLog, child: () => SILENT_LOG };
