import type { EngineContext } from '../context.js';
import { isPhoneLike, phoneDigitsExpression, prefixesOf, searchWords, wordsExpression } from './search.js';
import { DEFAULT_SEARCH_RESULTS, SEARCH_RESULT_TYPES, type SearchResult, type SearchResultType } from '../../../shared/resources/recordSearch.js';

/**
 * How well a record matches, best first:
 * 0 — its name begins with the typed words, in order ("john sm" → "John Smith");
 * 1 — every typed word begins a word of its name ("smi jo" → "John Smith");
 * 2 — every typed word begins a word of its name, email or phones, or is
 *     inside a word of its name ("ancis" → "Francisco", from three letters),
 *     or the typed digits are a phone's in any format: its start or its last
 *     digits, with or without the country code or a trunk 0 ("555 12",
 *     "8472066", "07700 900123").
 * Each tier matches a superset of the one before it: a part of a name's
 * word ranks below a word's start.
 */
type Tier = 0 | 1 | 2;

/** The columns of a record the answer is built from (`organization` and the phones where the type has them). */
interface Row {
  id: number;
  name: string | null;
  /** The name as its search index holds it (a lead's person and organization names together). */
  indexed_name: string | null;
  email?: string | null;
  phone?: string | null;
  mobile?: string | null;
  organization?: string | null;
  value?: string;
  currency?: string;
}

/** Where one type's records and their full-text index live. */
interface SearchSource {
  type: SearchResultType;
  fts: string;
  /** The index has phones: a text that may be a phone number is asked as its digits (search.ts). */
  phones: boolean;
  /** The rows of the ids in a JSON array (`?`). */
  rows: string;
  path: string;
}

const IDS = 'SELECT CAST(value AS INTEGER) FROM json_each(?)';

const SOURCES: readonly SearchSource[] = [
  {
    type: 'contact', fts: 'contacts_fts', phones: true, path: '/contacts',
    // A person's organization is the detail when they have neither email nor phone.
    rows: `SELECT c.id, c.name, c.name AS indexed_name, c.email, c.phone, c.mobile, o.name AS organization
      FROM contacts c LEFT JOIN contacts o ON o.id = c.contact_id WHERE c.id IN (${IDS})`,
  },
  {
    type: 'lead', fts: 'leads_fts', phones: true, path: '/leads',
    // A lead is called by its person's name, else its organization's (as the UI names it).
    rows: `SELECT id, COALESCE(NULLIF(concat_ws(' ', first_name, last_name), ''), organization_name) AS name,
        concat_ws(' ', first_name, last_name, organization_name) AS indexed_name, email, phone, mobile,
        CASE WHEN COALESCE(first_name, last_name) IS NOT NULL THEN organization_name END AS organization
      FROM leads WHERE id IN (${IDS})`,
  },
  {
    type: 'deal', fts: 'deals_fts', phones: false, path: '/deals',
    rows: `SELECT d.id, d.name, d.name AS indexed_name, d.value, d.currency, o.name AS organization
      FROM deals d LEFT JOIN contacts o ON o.id = d.organization_id WHERE d.id IN (${IDS})`,
  },
];

/**
 * How many matches each index query asks for (newest first). Fewer means
 * the query found every match, and ranking them here is exact; as many means
 * there are more: the name tiers are then asked for on their own, so an
 * older name match is not crowded out by newer mere email matches.
 */
const CANDIDATES = 100;

interface Ranked extends SearchResult {
  tier: Tier;
  exact: boolean;
}

/**
 * The command palette's search across contacts, leads and deals (every
 * user sees all three). Per type, one to three FTS5 queries, each newest
 * first with a LIMIT, so the work is bounded by the number of answers, never
 * by the number of records; the candidates are then ranked here.
 */
export class RecordSearch {
  constructor(private readonly ctx: EngineContext) {}

  search(text: string, limit = DEFAULT_SEARCH_RESULTS): SearchResult[] {
    const words = searchWords(text);
    if (words.length === 0) return [];
    const query = new TypedQuery(text, words);
    const ranked = SOURCES.flatMap((source) => this.searchType(source, query, limit));
    ranked.sort(compareRanked);
    return ranked.slice(0, limit).map(({ type, id, name, detail, amount, path }) => ({ type, id, name, detail, ...(amount ? { amount } : {}), path }));
  }

  /** The candidates of one type, ranked. */
  private searchType(source: SearchSource, query: TypedQuery, limit: number): Ranked[] {
    const ids = this.candidates(source, query, limit);
    if (ids.size === 0) return [];
    const rows = this.ctx.statements.get(source.rows).all(JSON.stringify([...ids])) as Row[];
    return rows.map((row) => {
      const name = row.name ?? '';
      return {
        type: source.type, id: row.id, name, detail: detailOf(source.type, row, query.phoneLike), path: `${source.path}/${row.id}`,
        // A deal's amount goes as numbers, for the palette to format as every screen does (in the user's locale).
        amount: source.type === 'deal' ? { value: row.value!, currency: row.currency! } : undefined,
        tier: query.tierOf(row.indexed_name ?? ''), exact: query.isExactName(name),
      };
    });
  }

  /**
   * The ids of one type worth ranking. Names beginning with the text come
   * first: when they fill the page, nothing else can make it (and a one-letter
   * text, the costliest to look up, needs no other query). Otherwise every
   * match, or when there are too many, the newest matches of each tier.
   */
  private candidates(source: SearchSource, query: TypedQuery, limit: number): Set<number> {
    const size = Math.max(CANDIDATES, limit);
    // A phone number as typed: its digits alone say it; the name tiers would read every term beginning with its groups.
    const digits = source.phones ? query.phoneDigits : null;
    if (digits) return new Set(this.matching(source, digits, size));
    const [nameStart, nameWords, anywhere] = query.matches(source.fts);
    const ids = new Set(this.matching(source, nameStart, size));
    if (ids.size < limit) {
      const all = this.matching(source, anywhere, size);
      all.forEach((id) => ids.add(id));
      if (all.length === size) this.matching(source, nameWords, size).forEach((id) => ids.add(id));
    }
    return ids;
  }

  private matching(source: SearchSource, match: string, size: number): number[] {
    return this.ctx.statements
      .get(`SELECT rowid FROM ${source.fts} WHERE ${source.fts} MATCH ? ORDER BY rowid DESC LIMIT ?`)
      .pluck().all(match, size) as number[];
  }
}

/** What the user typed: the FTS5 expressions of each tier, and the same rules for the candidates found. */
class TypedQuery {
  /** Only digits and phone punctuation: the answer shows phones first, and the digits are also matched as one run. */
  readonly phoneLike: boolean;
  private readonly normalized: string[];

  /** For an index with phones, the expression of a text that may be a phone number (search.ts), else null. */
  readonly phoneDigits: string | null;

  constructor(text: string, private readonly words: string[]) {
    this.phoneLike = isPhoneLike(text);
    this.normalized = normalizedWords(words.join(' '));
    this.phoneDigits = phoneDigitsExpression(text, words);
  }

  /**
   * Tiers 0, 1 and 2 as FTS5 expressions. Tier 2 asks every column: the
   * email, the phones, the name's parts (deals have only the name and its parts).
   */
  matches(fts: string): [string, string, string] {
    const nameStart = `name : ^"${this.words.join(' ')}"*`;
    const nameWords = `name : (${prefixesOf(this.words)})`;
    return [nameStart, nameWords, wordsExpression(this.words, fts)];
  }

  /** The tier of a record found by the index, from its indexed name (the index matched it, so at worst tier 2). */
  tierOf(indexedName: string): Tier {
    const name = normalizedWords(indexedName);
    const typed = this.normalized;
    const last = typed.length - 1;
    if (typed.every((word, i) => (i < last ? name[i] === word : name[i]?.startsWith(word)))) return 0;
    return typed.every((word) => name.some((n) => n.startsWith(word))) ? 1 : 2;
  }

  isExactName(name: string): boolean {
    return normalizedWords(name).join(' ') === this.normalized.join(' ');
  }
}

/** The words of a text as the index sees them: lower case, without accents. */
function normalizedWords(text: string): string[] {
  return text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/**
 * Best tier first; among name-prefix matches the exact name, then the
 * shortest; then contacts, leads, deals (ids of different types say nothing
 * about which is newer); then the newest.
 */
function compareRanked(a: Ranked, b: Ranked): number {
  return a.tier - b.tier
    || Number(b.exact) - Number(a.exact)
    || (a.tier === 0 ? a.name.length - b.name.length : 0)
    || SEARCH_RESULT_TYPES.indexOf(a.type) - SEARCH_RESULT_TYPES.indexOf(b.type)
    || newestFirst(a.id, b.id);
}

/** Larger ids are newer; on a replica, records made there and not yet on the hub (negative ids, -1 first) are newer still. */
function newestFirst(a: number, b: number): number {
  if ((a < 0) !== (b < 0)) return a < 0 ? -1 : 1;
  return a < 0 ? a - b : b - a;
}

function detailOf(type: SearchResultType, row: Row, phoneLike: boolean): string | null {
  if (type === 'deal') return row.organization ?? null;
  const reach = phoneLike ? [row.phone, row.mobile, row.email] : [row.email, row.phone, row.mobile];
  return [...reach, row.organization].find((text) => typeof text === 'string' && text !== '') ?? null;
}
