/**
 * The bridge contract between the renderer and whatever answers its requests.
 * The renderer only ever sends REST-shaped requests; in Electron the main
 * process runs them through the engine's HTTP app in process, in a browser
 * they go over fetch. Both transports implement `Transport`.
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export type QueryValue = string | number | boolean | null | undefined | (string | number)[];

export interface ApiRequest {
  method: HttpMethod;
  /** Path under the hub's origin, e.g. `/v2/contacts/12`. */
  path: string;
  query?: Record<string, QueryValue>;
  body?: unknown;
  /** A file sent as the raw body instead of JSON (document uploads). */
  upload?: { contentType: string; bytes: ArrayBuffer };
}

export interface ApiResponse<T = unknown> {
  status: number;
  /** Parsed JSON body, or null for empty bodies (204). */
  body: T | null;
  requestId?: string;
}

export interface Transport {
  request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
}

/**
 * Events pushed to the UI: from the engine (IPC events in Electron, SSE over
 * HTTP), and in the desktop app from its shell (menu items, deep links, files
 * opened with the app).
 */
export type BridgeEvent = 'records-changed' | 'sync-status' | 'command' | 'open-path' | 'open-file';

/** What a menu item or a global shortcut of the desktop shell asks the UI to do (payload of 'command'). */
export const DESKTOP_COMMANDS = ['command-palette', 'new-contact', 'new-task', 'new-note', 'sync-now'] as const;
export type DesktopCommand = (typeof DESKTOP_COMMANDS)[number];
export interface CommandEvent {
  name: DesktopCommand;
}

/** A deep link (`outpost://contacts/12`) as the app path to show (payload of 'open-path'); already checked by the shell. */
export interface OpenPathEvent {
  path: string;
}

/** A file opened with the app (a `.vcf` double-clicked), its text read by the shell (payload of 'open-file'). */
export interface OpenFileEvent {
  kind: 'vcard';
  name: string;
  text: string;
}

/** The one allow-list of IPC channels, shared by main and preload. */
export const IPC_CHANNELS = {
  request: 'outpost:request',
  event: 'outpost:event',
} as const;

/** What the preload exposes on `window.outpost`, and nothing more. */
export interface DesktopBridge {
  request(req: ApiRequest): Promise<ApiResponse>;
  on(event: BridgeEvent, listener: (payload: unknown) => void): () => void;
}

/** Serialises a query the way the engine parses it: arrays as comma lists. */
export function toQueryString(query: Record<string, QueryValue> | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined || value === null || value === '') continue;
    params.append(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  const text = params.toString();
  return text ? `?${text}` : '';
}
