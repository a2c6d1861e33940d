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
  /** Sent as the Idempotency-Key header: a write that may be asked twice is done once (the browser's engine worker sets it). */
  idempotencyKey?: string;
}

export interface ApiResponse<T = unknown> {
  status: number;
  /** Parsed JSON body, or null for empty bodies (204) and file answers. */
  body: T | null;
  requestId?: string;
  /** A file answer (CSV, vCard, iCalendar: any type but JSON): its text as sent, byte order mark included. */
  text?: string;
  /** The Content-Type of a file answer. */
  contentType?: string;
  /** The file name its Content-Disposition suggests, if any. */
  filename?: string;
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

/**
 * The desktop menu's keys for its commands (Ctrl, or ⌘ on a Mac, plus the
 * letter): defined once here, so the menu (electron/desktop/appMenu.ts) and
 * the palette, which lists them in the desktop app, agree.
 */
export const MENU_SHORTCUTS: Readonly<Record<DesktopCommand, { key: string; shift?: boolean }>> = {
  'command-palette': { key: 'K' },
  'new-contact': { key: 'N' },
  'new-task': { key: 'T' },
  'new-note': { key: 'N', shift: true },
  'sync-now': { key: 'S', shift: true },
};

/** A menu shortcut as Electron's accelerator string (`CmdOrCtrl+Shift+N`). */
export function menuAccelerator(name: DesktopCommand): string {
  const { key, shift } = MENU_SHORTCUTS[name];
  return `CmdOrCtrl+${shift ? 'Shift+' : ''}${key}`;
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

/** Whether an answer's Content-Type is JSON (the API's envelopes) rather than a file to hand over as text. */
export function isJsonContentType(contentType: string | undefined): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.-]+\+json$/.test(type);
}

/**
 * The file name of a Content-Disposition header (`attachment; filename="contacts.vcf"`),
 * preferring the RFC 6266 `filename*=UTF-8''…` form; undefined when none is given.
 */
export function dispositionFilename(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim());
    } catch {
      // A malformed percent-encoding: fall back to the plain parameter.
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  if (!plain) return undefined;
  return plain[1] !== undefined ? plain[1].replace(/\\(.)/g, '$1') : plain[2].trim();
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
