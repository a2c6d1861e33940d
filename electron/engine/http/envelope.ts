import type { ApiError, ErrorEnvelope } from '../../../shared/errors.js';
import type { CollectionLinks } from '../../../shared/envelope.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request', 401: 'Unauthorized', 403: 'Forbidden', 404: 'Not Found', 405: 'Method Not Allowed',
  408: 'Request Timeout', 409: 'Conflict', 413: 'Payload Too Large', 415: 'Unsupported Media Type', 422: 'Unprocessable Entity',
  429: 'Too Many Requests', 431: 'Request Header Fields Too Large', 500: 'Internal Server Error', 503: 'Service Unavailable',
};

/** Where `more_info` links point: the hub serves its API docs itself (docs/api.md). */
export const DOCS_PATH = '/docs/api';

export function errorEnvelope(status: number, errors: ApiError[], logref: string, origin = ''): ErrorEnvelope {
  return {
    errors: errors.map((error) => ({
      error,
      meta: { type: 'error', links: { more_info: `${origin}${DOCS_PATH}#${error.code}` } },
    })),
    meta: { type: 'errors', http_status: `${status} ${STATUS_TEXT[status] ?? ''}`.trim(), logref, links: {} },
  };
}

/**
 * Builds a single-resource envelope around data that is already JSON text
 * (resources serialise their rows inside SQLite, so nothing is parsed and
 * re-stringified on the hot path).
 */
export function resourceJson(type: string, dataJson: string): string {
  return `{"data":${dataJson},"meta":{"type":"${type}"}}`;
}

/** `total` (asked with `count=true`) becomes `meta.total_count`; without it the meta is the real service's. */
export function collectionJson(type: string, dataJson: string[], links: CollectionLinks, total?: number): string {
  const items = dataJson.map((d) => resourceJson(type, d)).join(',');
  const totalCount = total === undefined ? '' : `,"total_count":${total}`;
  return `{"items":[${items}],"meta":{"type":"collection","count":${dataJson.length}${totalCount},"links":${JSON.stringify(links)}}}`;
}

/** Collection links of the real service: `self` always, neighbours where they exist. */
export function pageLinks(url: URL, page: number, perPage: number, hasMore: boolean): CollectionLinks {
  // One copy of the URL, its page changed for each link (`set` keeps a parameter where it was).
  const link = new URL(url);
  link.searchParams.set('page', String(page));
  link.searchParams.set('per_page', String(perPage));
  const at = (p: number) => {
    link.searchParams.set('page', String(p));
    return link.toString();
  };
  const links: CollectionLinks = { self: at(page), first_page: at(1) };
  if (page > 1) links.prev_page = at(page - 1);
  if (hasMore) links.next_page = at(page + 1);
  return links;
}
