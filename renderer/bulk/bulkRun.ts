import type { QueryValue } from '../../shared/bridge.js';
import { ERROR_CODES, type ApiErrorItem } from '../../shared/errors.js';
import { api, ApiFailure } from '../api/client.js';
import { refusalText } from '../api/formErrors.js';

/** Ids sent per bulk call: small enough that progress moves every second or so, large enough to be few calls. */
export const BULK_CHUNK = 500;
/** The most records one "select all matching" takes (the API's limit per call, kept for the whole run too). */
export const MAX_SELECTION = 10_000;
/** The list's largest page, to find every matching id in as few reads as it allows. */
const ID_PAGE = 100;

/** The change a bulk call makes: the fields of an update (`tags_add` and `tags_remove` among them), or a delete. */
export type BulkChange = { update: Record<string, unknown> } | { delete: true };

/** A record that was not changed, and why, in a rep's words. */
export interface BulkFailure {
  id: number;
  reason: string;
}

export interface BulkSummary {
  changed: number;
  failed: BulkFailure[];
}

interface BulkAnswer {
  updated: number[];
  failed: { id: number; errors: ApiErrorItem[] }[];
}

/** Splits ids into calls of BULK_CHUNK. */
export function chunksOf<T>(items: readonly T[], size = BULK_CHUNK): T[][] {
  const chunks: T[][] = [];
  for (let at = 0; at < items.length; at += size) chunks.push(items.slice(at, at + size));
  return chunks;
}

/** Why one record was refused, as a form would word the same refusal (refusalWords.ts). */
export function failureReason(errors: ApiErrorItem[]): string {
  const status = errors.length > 0 ? ERROR_CODES[errors[0].error.code] : 500;
  const failure = new ApiFailure(status, { errors, meta: { type: 'errors', http_status: String(status), logref: '', links: {} } });
  return refusalText(failure, 'It could not be changed.');
}

/**
 * Sends the change for every id, BULK_CHUNK at a time, telling `progress`
 * after each call. A call refused as a whole (or lost) counts its records and
 * those not yet sent as failed, with the reason, and stops: the rest would
 * be refused alike.
 */
export async function runBulk(collection: string, ids: readonly number[], change: BulkChange, progress: (done: number, total: number) => void): Promise<BulkSummary> {
  const summary: BulkSummary = { changed: 0, failed: [] };
  let done = 0;
  for (const chunk of chunksOf(ids)) {
    try {
      const answer = await api.action<BulkAnswer>(`${collection}/bulk`, { ids: chunk, ...change });
      summary.changed += answer.updated.length;
      summary.failed.push(...answer.failed.map((f) => ({ id: f.id, reason: failureReason(f.errors) })));
    } catch (err) {
      const reason = refusalText(err, 'The change could not be sent; check the connection and try again.');
      summary.failed.push(...ids.slice(done).map((id) => ({ id, reason })));
      progress(ids.length, ids.length);
      return summary;
    }
    done += chunk.length;
    progress(done, ids.length);
  }
  return summary;
}

/** Every id the list query answers, across its pages (for "select all matching"), telling `progress` as pages arrive. */
export async function idsMatching(path: string, query: Record<string, QueryValue>, progress: (found: number) => void): Promise<number[]> {
  const ids: number[] = [];
  for (let page = 1; ; page++) {
    const answer = await api.list<{ id: number }>(path, { ...query, page, per_page: ID_PAGE });
    ids.push(...answer.items.map((item) => item.data.id));
    progress(ids.length);
    if (!answer.meta.links.next_page || ids.length >= MAX_SELECTION) return ids.slice(0, MAX_SELECTION);
  }
}
