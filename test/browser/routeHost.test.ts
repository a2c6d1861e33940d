import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import Fastify, { type FastifyInstance } from 'fastify';
import { RouteHost } from '../../electron/browser/routeHost.js';

/**
 * The route host's Fastify semantics, each checked against Fastify itself: one plugin registered on a
 * Fastify app and on the host, the same requests to both, the same answers and the same order of hooks.
 */

/** What ran, in order, for the request being answered (each side has its own). */
type Trace = string[];

function plugin(trace: Trace) {
  return async (app: FastifyInstance) => {
    app.decorateRequest('seen', '');
    app.addHook('onRequest', async (request) => {
      trace.push('root onRequest');
      if (request.headers['x-stop'] === 'onRequest') throw Object.assign(new Error('stopped early'), { statusCode: 418 });
    });
    app.addHook('onSend', async (_request, reply, payload) => {
      trace.push('root onSend');
      reply.header('x-root', 'yes');
      return payload;
    });
    app.addHook('onResponse', async () => void trace.push('root onResponse'));
    app.setErrorHandler(async (error: Error & { statusCode?: number }, _request, reply) => {
      trace.push(`root errorHandler ${error.message}`);
      return reply.code(error.statusCode ?? 500).send({ failed: error.message });
    });
    app.setNotFoundHandler(async (request, reply) => reply.code(404).send({ nowhere: request.url }));
    app.get('/plain', async () => 'plain text');
    app.get('/bytes', async (_request, reply) => reply.send(new Uint8Array([104, 105])));
    app.get('/json', async () => ({ a: 1 }));
    app.get('/typed', async (_request, reply) => reply.type('application/vnd.x+json').send('{"b":2}'));
    app.get('/csv', async (_request, reply) => reply.type('text/csv; charset=utf-8').send('\uFEFFa,b\n1,2\n'));
    app.delete('/empty', async (_request, reply) => reply.code(204).type('application/json').send('ignored'));
    app.get('/nothing', async () => undefined);
    app.get('/items/:id', async (request) => ({ route: 'param', params: request.params, query: request.query }));
    app.get('/items/new', async () => ({ route: 'static' }));
    app.get('/files/*', async (request) => ({ route: 'wildcard', params: request.params }));
    app.get('/items/:id/notes/:note', async (request) => ({ params: request.params }));

    await app.register(async (child) => {
      child.addHook('onRoute', (route) => {
        route.config = { ...route.config, marked: true } as typeof route.config;
        route.preHandler = [...[route.preHandler ?? []].flat(), async () => void trace.push('route preHandler (onRoute)')];
      });
      child.addHook('onRequest', async () => void trace.push('child onRequest'));
      child.addHook('preValidation', async () => void trace.push('child preValidation'));
      child.addHook('preHandler', async (request, reply) => {
        trace.push('child preHandler');
        if (request.headers['x-stop'] === 'preHandler') return reply.code(202).send({ answered: 'by a hook' });
      });
      child.addHook('onSend', (_request, _reply, payload, done) => {
        trace.push('child onSend');
        done(null, typeof payload === 'string' ? payload.replace('"by the handler"', '"replaced by onSend"') : payload);
      });
      child.setErrorHandler(async (error: Error, request) => {
        trace.push(`child errorHandler ${error.message}`);
        if (request.headers['x-rethrow']) throw new Error('the child could not answer');
        return { childAnswer: error.message };
      });
      child.addContentTypeParser('text/plain', { parseAs: 'string' }, async (_request: unknown, body: string) => body.toUpperCase());
      child.post('/child', { config: { own: 1 } }, async (request) => {
        trace.push('handler');
        return { by: 'by the handler', body: request.body, config: { own: request.routeOptions.config.own, marked: (request.routeOptions.config as { marked?: boolean }).marked } };
      });
      child.get('/child/fails', async () => {
        trace.push('handler');
        throw new Error('the handler failed');
      });
    });

    await app.register(async (quiet) => {
      // An error handler that answers nothing.
      quiet.setErrorHandler(async () => undefined);
      quiet.get('/quiet/fails', async () => {
        throw new Error('unheard');
      });
    });

    await app.register(async (sibling) => {
      sibling.addHook('onRequest', async () => void trace.push('sibling onRequest'));
      sibling.get('/sibling', async () => ({ sibling: true }));
    });
  };
}

interface Answer {
  status: number;
  contentType: string | undefined;
  root: string | undefined;
  body: string;
  trace: Trace;
}

describe('the route host runs route code as Fastify does', () => {
  const fastifyTrace: Trace = [];
  const hostTrace: Trace = [];
  let app: FastifyInstance;
  let host: RouteHost;

  beforeAll(async () => {
    app = Fastify({ routerOptions: { ignoreTrailingSlash: true } });
    await app.register(plugin(fastifyTrace));
    await app.ready();
    host = new RouteHost();
    await plugin(hostTrace)(host.app);
  });

  afterAll(async () => {
    await app.close();
  });

  async function both(method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
    fastifyTrace.length = 0;
    hostTrace.length = 0;
    const viaFastify = await app.inject({ method: method as 'GET', url, headers, payload: body });
    const viaHost = await host.inject({ method, url, headers, body });
    // onResponse runs after the answer is out, on both: one turn later it has run.
    await new Promise((resolve) => setImmediate(resolve));
    const expected: Answer = { status: viaFastify.statusCode, contentType: viaFastify.headers['content-type'] as string | undefined, root: viaFastify.headers['x-root'] as string | undefined, body: viaFastify.body, trace: [...fastifyTrace] };
    const actual: Answer = { status: viaHost.statusCode, contentType: viaHost.headers['content-type'] as string | undefined, root: viaHost.headers['x-root'] as string | undefined, body: viaHost.body, trace: [...hostTrace] };
    expect(actual, `${method} ${url}`).toEqual(expected);
    return expected;
  }

  it('serializes as Fastify: text, bytes, JSON, a JSON type given, a file with its byte order mark, 204 and nothing', async () => {
    expect((await both('GET', '/plain')).contentType).toBe('text/plain; charset=utf-8');
    expect((await both('GET', '/bytes')).contentType).toBe('application/octet-stream');
    expect((await both('GET', '/json')).contentType).toBe('application/json; charset=utf-8');
    expect((await both('GET', '/typed')).contentType).toBe('application/vnd.x+json; charset=utf-8');
    expect((await both('GET', '/csv')).body.startsWith('\uFEFF')).toBe(true);
    expect(await both('DELETE', '/empty')).toMatchObject({ status: 204, contentType: undefined, body: '' });
    await both('GET', '/nothing');
  });

  it('routes as find-my-way: parameters, static before parameter, a wildcard, a trailing slash, queries with repeated keys', async () => {
    expect(JSON.parse((await both('GET', '/items/new')).body).route).toBe('static');
    expect(JSON.parse((await both('GET', '/items/7?tag=a&tag=b&q=x+y&bad=%zz&flag')).body).route).toBe('param');
    await both('GET', '/items/caf%C3%A9/notes/3/');
    expect(JSON.parse((await both('GET', '/files/a/b.txt')).body).params).toEqual({ '*': 'a/b.txt' });
    expect((await both('POST', '/items/7')).status).toBe(404);
    expect((await both('GET', '/nowhere?x=1')).status).toBe(404);
  });

  it('runs hooks in Fastify\'s order, each scope\'s on its own routes only, onRoute changes included', async () => {
    const answer = await both('POST', '/child', { 'content-type': 'text/plain' }, 'shout');
    expect(answer.trace).toEqual(['root onRequest', 'child onRequest', 'child preValidation', 'child preHandler', 'route preHandler (onRoute)', 'handler', 'root onSend', 'child onSend', 'root onResponse']);
    expect(JSON.parse(answer.body)).toEqual({ by: 'replaced by onSend', body: 'SHOUT', config: { own: 1, marked: true } });
    expect((await both('GET', '/sibling')).trace).toEqual(['root onRequest', 'sibling onRequest', 'root onSend', 'root onResponse']);
  });

  it('stops at a hook that answers, and sends what a hook throws to the nearest error handler, then to its parent\'s', async () => {
    expect((await both('POST', '/child', { 'x-stop': 'preHandler' })).status).toBe(202);
    expect((await both('GET', '/sibling', { 'x-stop': 'onRequest' })).status).toBe(418);
    expect(JSON.parse((await both('GET', '/child/fails')).body)).toEqual({ childAnswer: 'the handler failed' });
    expect((await both('GET', '/child/fails', { 'x-rethrow': '1' })).trace).toContain('root errorHandler the child could not answer');
    expect(await both('GET', '/quiet/fails')).toMatchObject({ status: 200, body: '' });
    // A body no parser takes is Fastify's 415 error, answered here by the child's handler (which keeps the status it is given).
    expect(JSON.parse((await both('POST', '/child', { 'content-type': 'application/xml' }, '<a/>')).body)).toEqual({ childAnswer: 'Unsupported Media Type' });
  });

  it('names the part of Fastify that route code uses and the host lacks', async () => {
    const lacking = new RouteHost();
    await expect(lacking.app.register(async (scope) => void scope.addSchema({ $id: 'x' }))).rejects.toThrow(/has no 'addSchema'/);
    expect(() => lacking.app.addHook('preParsing', async () => undefined)).toThrow(/runs no preParsing hooks/);
    expect(() => lacking.app.get('/a/:b(\\d+)', async () => 'x')).toThrow(/cannot match the route/);
  });
});
