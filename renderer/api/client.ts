import type { ApiRequest, ApiResponse, BridgeEvent, DesktopBridge, QueryValue, Transport } from '../../shared/bridge.js';
import type { CollectionEnvelope, ResourceEnvelope } from '../../shared/envelope.js';
import { fieldErrors, isErrorEnvelope, type ErrorEnvelope } from '../../shared/errors.js';
import { HttpTransport } from './httpTransport.js';
import { BridgeTransport } from './bridgeTransport.js';

declare global {
  interface Window {
    outpost?: DesktopBridge;
  }
}

/** A request the API refused; carries the error envelope for forms and messages. */
export class ApiFailure extends Error {
  constructor(readonly status: number, readonly body: ErrorEnvelope | null) {
    super(isErrorEnvelope(body) ? body.errors.map((e) => e.error.message).join(' ') : `Request failed (${status}).`);
  }
  get fieldErrors(): Record<string, string> {
    return fieldErrors(this.body);
  }
}

/**
 * In the desktop app the preload provides the bridge to its engine. In a
 * browser we talk HTTP to the hub, or, once the browser keeps the rep's data,
 * to the engine in its worker (renderer/local/localMode.ts).
 */
export const httpTransport = window.outpost ? null : new HttpTransport();
export const isDesktop = Boolean(window.outpost);
let engineBridge: DesktopBridge | null = window.outpost ?? null;
let transport: Transport = engineBridge ? new BridgeTransport(engineBridge) : httpTransport!;

/** From now on the app is answered by the browser's own engine (`bridge`), or by the hub over HTTP again (null). */
export function answerFromEngine(bridge: DesktopBridge | null): void {
  engineBridge = window.outpost ?? bridge;
  transport = engineBridge ? new BridgeTransport(engineBridge) : httpTransport!;
}

/** Whether an engine on this device answers (the desktop's, or the browser's worker). */
export const answeredLocally = (): boolean => engineBridge !== null;

/** The transport in use, for the custom-objects client. */
export const currentTransport = (): Transport => transport;

/** Follows an event of the engine on this device; undefined when the hub answers (it has no such events). */
export function onEngineEvent(event: BridgeEvent, listener: (payload: unknown) => void): (() => void) | undefined {
  return engineBridge?.on(event, listener);
}

/** A file the API answered (an export): its text as sent, type and suggested name. */
export interface DownloadedFile {
  filename: string;
  contentType: string;
  text: string;
}

async function receive<T>(req: ApiRequest): Promise<ApiResponse<T>> {
  const response = await transport.request<T>(req);
  if (response.status >= 400) throw new ApiFailure(response.status, response.body as ErrorEnvelope | null);
  return response;
}

async function send<T>(req: ApiRequest): Promise<T> {
  return (await receive<T>(req)).body as T;
}

/** The renderer's one typed client: REST-shaped requests, envelopes unwrapped. */
export const api = {
  async get<T>(path: string, query?: Record<string, QueryValue>): Promise<T> {
    return (await send<ResourceEnvelope<T>>({ method: 'GET', path, query })).data;
  },
  list<T>(path: string, query?: Record<string, QueryValue>): Promise<CollectionEnvelope<T>> {
    return send<CollectionEnvelope<T>>({ method: 'GET', path, query });
  },
  async create<T>(path: string, data: unknown): Promise<T> {
    return (await send<ResourceEnvelope<T>>({ method: 'POST', path, body: { data } })).data;
  },
  /** A create whose answer's `meta` carries something shown once (a new user's invite link). */
  async createWithMeta<T, M>(path: string, data: unknown): Promise<{ data: T; meta: M }> {
    return send<{ data: T; meta: M }>({ method: 'POST', path, body: { data } });
  },
  /** A POST with an optional body (an action such as "sync now" or "send a test email"); answers the resource it returns. */
  async action<T>(path: string, data?: unknown): Promise<T> {
    return (await send<ResourceEnvelope<T>>({ method: 'POST', path, body: data === undefined ? undefined : { data } })).data;
  },
  async update<T>(path: string, data: unknown): Promise<T> {
    return (await send<ResourceEnvelope<T>>({ method: 'PUT', path, body: { data } })).data;
  },
  /** A POST without a body (an action such as "sync now"); answers the resource it returns. */
  async post<T>(path: string): Promise<T> {
    return (await send<ResourceEnvelope<T>>({ method: 'POST', path })).data;
  },
  async upload<T>(path: string, file: File, query?: Record<string, QueryValue>): Promise<T> {
    const upload = { contentType: file.type || 'application/octet-stream', bytes: await file.arrayBuffer() };
    return (await send<ResourceEnvelope<T>>({ method: 'POST', path, query, upload })).data;
  },
  async remove(path: string): Promise<void> {
    await send<null>({ method: 'DELETE', path });
  },
  /** A file answer of a GET (`/v2/contacts/export.csv`); the name falls back to the path's last segment. */
  async download(path: string, query?: Record<string, QueryValue>): Promise<DownloadedFile> {
    const response = await receive<null>({ method: 'GET', path, query });
    if (response.text === undefined) throw new Error(`${path} answered no file.`);
    return {
      filename: response.filename ?? path.split('/').pop() ?? 'download',
      contentType: response.contentType ?? 'application/octet-stream',
      text: response.text,
    };
  },
};
