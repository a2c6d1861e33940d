import { Agent, errors as undiciErrors, request, type Dispatcher } from 'undici';

/**
 * How a replica's requests reach its hub, Node's side: undici (hubTransport.web.ts
 * is the browser's, on fetch). The replica sees only the shapes below.
 */

/** A request to the hub: the part of fetch's RequestInit the replica uses. */
export interface HubRequest {
  method?: string;
  headers?: Record<string, string>;
  /** JSON text, or a file's bytes (a document sent on to the hub). */
  body?: string | Uint8Array;
}

/** The hub's answer, read whole: the part of fetch's Response the replica uses. */
export interface HubResponse {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
  /** The body as it came (a document's file). */
  bytes(): Promise<Uint8Array>;
}

/** An answer whose body is read as it arrives (the hub's change stream). */
export interface HubStream {
  status: number;
  /** The body's text, chunk by chunk as it comes (a character split between two chunks is kept whole). */
  text: AsyncIterable<string>;
  /** Reads the body away unused (the connection is then free). */
  discard(): Promise<void>;
}

/** Keep-alive connections to the hub, shared by everything in this process that talks to it. */
const hubConnections = new Agent({ keepAliveTimeout: 30_000 });

/**
 * undici's `request` rather than `fetch`. A push is thousands of small
 * requests, and fetch's WHATWG machinery (streams, abort signals, header
 * guards) cost the replica about 0.5 ms of CPU per request, as much as the hub
 * spends answering it. Errors (refused, reset, timed out) reject, as fetch's do.
 */
export async function hubRequest(url: string, init: HubRequest = {}): Promise<HubResponse> {
  const answer = await request(url, {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: init.headers,
    body: init.body,
    dispatcher: hubConnections,
  });
  // Read at once: the connection goes back to the pool only when its body is consumed.
  const bytes = Buffer.from(await answer.body.arrayBuffer());
  const text = () => bytes.toString('utf8');
  return {
    status: answer.statusCode,
    ok: answer.statusCode >= 200 && answer.statusCode < 300,
    headers: { get: (name) => headerValue(answer.headers[name.toLowerCase()]) },
    text: async () => text(),
    json: async () => JSON.parse(text()) as unknown,
    bytes: async () => bytes,
  };
}

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}

/** The streams' own connections (one per silence limit): a stream holds its socket for hours, and must not take one of the pool's. */
const streamConnections = new Map<number, Agent>();

/**
 * A GET whose body is read as it arrives. Rejects, or ends the text with an
 * error, when the hub is not reached or says nothing for `silenceMs` (no
 * headers, no chunk), or when `signal` aborts.
 */
export async function openHubStream(url: string, headers: Record<string, string>, signal: AbortSignal, silenceMs: number): Promise<HubStream> {
  let dispatcher = streamConnections.get(silenceMs);
  if (!dispatcher) streamConnections.set(silenceMs, (dispatcher = new Agent({ connect: { timeout: silenceMs } })));
  const answer = await request(url, { headers, signal, dispatcher, headersTimeout: silenceMs, bodyTimeout: silenceMs });
  return { status: answer.statusCode, text: decoded(answer.body), discard: () => answer.body.dump() };
}

async function* decoded(body: AsyncIterable<unknown>): AsyncIterable<string> {
  // undici's body gives bytes; a character may straddle two chunks.
  const decoder = new TextDecoder();
  for await (const chunk of body) yield decoder.decode(chunk as Uint8Array, { stream: true });
}

/**
 * The hub was not reached (refused, reset, timed out, not found): fetch's
 * TypeError, undici's own errors, or a socket's (ECONNREFUSED and the like).
 */
export function isTransportError(err: unknown): boolean {
  if (err instanceof TypeError || err instanceof undiciErrors.UndiciError) return true;
  const code = (err as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' && /^E[A-Z]+$/.test(code);
}
