import type * as NodeSide from './hubTransport.js';
import type { HubRequest, HubResponse, HubStream } from './hubTransport.js';
import { utf8Text } from '../bytes.js';

/** How a replica in the browser reaches its hub: fetch (hubTransport.ts is Node's, on undici). */

export async function hubRequest(url: string, init: HubRequest = {}): Promise<HubResponse> {
  // A file's bytes as a plain ArrayBuffer-backed view (the typings refuse a view over a shared buffer).
  const body = init.body instanceof Uint8Array ? new Uint8Array(init.body) : init.body;
  const response = await fetch(url, { method: init.method ?? 'GET', headers: init.headers, body });
  const bytes = new Uint8Array(await response.arrayBuffer());
  const text = () => utf8Text(bytes);
  return {
    status: response.status,
    ok: response.ok,
    headers: { get: (name) => response.headers.get(name) },
    text: async () => text(),
    json: async () => JSON.parse(text()) as unknown,
    bytes: async () => bytes,
  };
}

/**
 * fetch has no timeouts of its own: a timer aborts the request when the hub
 * says nothing for `silenceMs`, before its headers or between two chunks.
 */
export async function openHubStream(url: string, headers: Record<string, string>, signal: AbortSignal, silenceMs: number): Promise<HubStream> {
  const silence = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const heard = () => {
    clearTimeout(timer);
    timer = setTimeout(() => silence.abort(new Error(`the hub said nothing for ${silenceMs} ms`)), silenceMs);
  };
  heard();
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.any([signal, silence.signal]) });
  } catch (err) {
    clearTimeout(timer);
    throw err;
  }
  const body = response.body;
  async function* text(): AsyncIterable<string> {
    if (!body) return;
    const reader = body.pipeThrough(new TextDecoderStream()).getReader();
    try {
      for (;;) {
        heard();
        const { done, value } = await reader.read();
        if (done) return;
        yield value;
      }
    } finally {
      clearTimeout(timer);
      reader.releaseLock();
    }
  }
  return {
    status: response.status,
    text: text(),
    discard: async () => {
      clearTimeout(timer);
      await body?.cancel();
    },
  };
}

/** fetch rejects with a TypeError whenever the hub was not reached (refused, reset, not found). */
export function isTransportError(err: unknown): boolean {
  return err instanceof TypeError;
}

// Fails the type check when this side drifts from Node's.
({ hubRequest, openHubStream, isTransportError }) satisfies typeof NodeSide;
