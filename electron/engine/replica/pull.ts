/**
 * The device side of the sync protocol's read path: start a session, read
 * the main queue page by page, apply each page, acknowledge it. The caller's
 * `apply` makes a page durable (one local transaction); a page is
 * acknowledged only after `apply` returned, so a crash at any point leaves
 * the unacknowledged items to the next session (the hub serves them again).
 */

import { hubFetch, type HubFetch, type HubResponse } from './hubFetch.js';
import { atTurnEnd } from '../platform/timers.js';

/**
 * Queue pages asked for ahead of the one being applied. With one, the hub
 * and the replica took turns: each waited for the other about a fifth of a
 * 300 000-record first sync. With two, the hub always has a request to answer
 * while a page is applied (one more page, ~2 MB, held in memory). The hub
 * hands pages out in the order it reads the requests, which may differ from
 * the order they were sent; that is harmless, since a session serves each
 * record at most once (its latest revision), so pages do not depend on each other.
 */
export const PAGES_AHEAD = 2;

export interface SyncItem {
  data: { id: number } & Record<string, unknown>;
  meta: { type: string; sync: { event_type: 'created' | 'updated' | 'deleted'; ack_key: string; revision: number } };
}

export interface PullOptions {
  hubUrl: string;
  token: string;
  /** This device's stable UUID (sent as X-Service-Device-UUID). */
  deviceUuid: string;
  /** Makes one page durable; acknowledged after it returns. */
  apply(items: SyncItem[]): void | Promise<void>;
  fetch?: HubFetch;
}

export interface PullResult {
  /** Items applied (including deletes). */
  items: number;
  pages: number;
  /** Records the hub could not serve (`failed_objects`); they come again next session. */
  failed: number;
  /** Where the session's time went, in milliseconds (the parts add up to `totalMs`). */
  timings: PullTimings;
}

/**
 * A session's wall time split by what this thread did: parsing the pages'
 * JSON, applying them (`apply`, the local writes), and the rest, which is
 * waiting for the hub (its answers, the network; acknowledgements are sent
 * beside the next page and add nothing unless the hub is slower to take them).
 */
export interface PullTimings {
  totalMs: number;
  waitingMs: number;
  parsingMs: number;
  applyingMs: number;
}

/** A sync request the hub refused (status and its error envelope or text). */
export class SyncHttpError extends Error {
  constructor(readonly status: number, readonly body: string, what: string) {
    super(`${what} answered ${status}: ${body.slice(0, 300)}`);
  }
}

/** Runs one whole session. Resolves when the queue answers 204, with what was applied. */
export async function pullOnce(options: PullOptions): Promise<PullResult> {
  const began = performance.now();
  const http = hubClient(options);
  const started = await http('POST', '/v2/sync/start');
  const timings: PullTimings = { totalMs: 0, waitingMs: 0, parsingMs: 0, applyingMs: 0 };
  const result: PullResult = { items: 0, pages: 0, failed: 0, timings };
  const ended = () => {
    timings.totalMs = performance.now() - began;
    timings.waitingMs = timings.totalMs - timings.parsingMs - timings.applyingMs;
    return result;
  };
  if (started.status === 204) return ended();
  const session = ((await started.json()) as { data: { id: string } }).data.id;
  // Each request's failure is handled where it is awaited; the no-op handler keeps a failure that arrives
  // while the loop awaits the other request from counting as unhandled (which ends a Node process).
  const handled = <T>(promise: Promise<T>) => {
    promise.catch(() => undefined);
    return promise;
  };
  const nextPage = () => handled(readPage(http, session, timings));
  // Pages requested and not yet applied, in the order they were asked for.
  const requested = Array.from({ length: PAGES_AHEAD }, nextPage);
  let drained = false;
  let acking: Promise<unknown> = Promise.resolve();
  // On a failure, whatever else is in flight no longer matters: its items come again next session.
  while (requested.length > 0) {
    const page = await requested.shift()!;
    // The hub has nothing more; a request it answered before this one may still hold the last page.
    if (!page) {
      drained = true;
      continue;
    }
    if (!drained) requested.push(nextPage());
    // Requests leave in a later turn of the event loop, and applying blocks it: let the new one go first.
    await new Promise<void>((resolve) => atTurnEnd(resolve));
    const applying = performance.now();
    await options.apply(page.items);
    timings.applyingMs += performance.now() - applying;
    result.items += page.items.length;
    result.pages += 1;
    result.failed += page.failed;
    // One acknowledgement in flight at a time; it overlaps with the next page's reading.
    await acking;
    acking = handled(acknowledge(http, page.items.map((item) => item.meta.sync.ack_key)));
  }
  await acking;
  return ended();
}

type HubCall = (method: string, path: string, body?: unknown) => Promise<HubResponse>;

function hubClient(options: PullOptions): HubCall {
  const fetchFn = options.fetch ?? hubFetch;
  const base = options.hubUrl.replace(/\/+$/, '');
  return async (method, path, body) => {
    const headers: Record<string, string> = {
      Accept: 'application/json',
      Authorization: `Bearer ${options.token}`,
      'X-Service-Device-UUID': options.deviceUuid,
    };
    if (body !== undefined) headers['Content-Type'] = 'application/json';
    const response = await fetchFn(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    if (response.status >= 300) throw new SyncHttpError(response.status, await response.text(), `${method} ${path}`);
    return response;
  };
}

async function readPage(http: HubCall, session: string, timings: PullTimings): Promise<{ items: SyncItem[]; failed: number } | null> {
  const response = await http('GET', `/v2/sync/${encodeURIComponent(session)}/queues/main`);
  if (response.status === 204) return null;
  const parsing = performance.now();
  const body = (await response.json()) as { items: SyncItem[]; meta: { failed_objects?: unknown[] } };
  timings.parsingMs += performance.now() - parsing;
  return { items: body.items, failed: body.meta.failed_objects?.length ?? 0 };
}

async function acknowledge(http: HubCall, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await http('POST', '/v2/sync/ack', { data: { ack_keys: keys } });
}
