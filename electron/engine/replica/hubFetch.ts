import { Agent, request, type Dispatcher } from 'undici';

/** A request to the hub: the part of fetch's RequestInit the replica uses. */
export interface HubRequest {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
}

/** The hub's answer, read whole: the part of fetch's Response the replica uses. */
export interface HubResponse {
  status: number;
  ok: boolean;
  headers: { get(name: string): string | null };
  text(): Promise<string>;
  json(): Promise<unknown>;
  /** The body as it came (a document's file). */
  bytes(): Promise<Buffer>;
}

/** How a replica reaches its hub. Tests put a cable in between that can be cut. */
export type HubFetch = (url: string, init?: HubRequest) => Promise<HubResponse>;

/** Keep-alive connections to the hub, shared by everything in this process that talks to it. */
const hubConnections = new Agent({ keepAliveTimeout: 30_000 });

/**
 * The replica's HTTP client: undici's `request` rather than `fetch`. A push
 * is thousands of small requests, and fetch's WHATWG machinery (streams,
 * abort signals, header guards) cost the replica about 0.5 ms of CPU per
 * request, as much as the hub spends answering it. Errors (refused, reset,
 * timed out) reject, as fetch's do.
 */
export const hubFetch: HubFetch = async (url, init = {}) => {
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
};

function headerValue(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(', ') : value;
}
