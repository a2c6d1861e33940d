/** The command palette's record search, `GET /v2/search` (an Outpost extension). */

/** The kinds of record it finds, in the order they are listed when they match equally well. */
export const SEARCH_RESULT_TYPES = ['contact', 'lead', 'deal'] as const;
export type SearchResultType = (typeof SEARCH_RESULT_TYPES)[number];

/** One record found: what the palette shows and the app path it opens (`meta.type` is `search_result`). */
export interface SearchResult {
  type: SearchResultType;
  id: number;
  name: string;
  /** A second line: the email, a phone, the organization (a deal's: its organization). */
  detail: string | null;
  /** Deals only: the deal's value, which the palette formats as every screen does ("€12,500.50"). */
  amount?: { value: string; currency: string };
  path: string;
}

export const DEFAULT_SEARCH_RESULTS = 10;
export const MAX_SEARCH_RESULTS = 25;
