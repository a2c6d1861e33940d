import type { ApiRequest, ApiResponse, DesktopBridge, QueryValue } from '../../shared/bridge.js';
import type { CollectionEnvelope, ResourceEnvelope } from '../../shared/envelope.js';
import { fieldErrors, isErrorEnvelope, type ErrorEnvelope } from '../../shared/errors.js';
import { HttpTransport } from './httpTransport.js';
import { IpcTransport } from './ipcTransport.js';

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

/** In the desktop app the preload provides the bridge; in a browser we talk HTTP to the hub. */
export const httpTransport = window.outpost ? null : new HttpTransport();
const transport = window.outpost ? new IpcTransport(window.outpost) : httpTransport!;
export const isDesktop = Boolean(window.outpost);

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
  async upload<T>(path: string, file: File): Promise<T> {
    const upload = { contentType: file.type || 'application/octet-stream', bytes: await file.arrayBuffer() };
    return (await send<ResourceEnvelope<T>>({ method: 'POST', path, upload })).data;
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
