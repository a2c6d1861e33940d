// The route host's router: Fastify's route URLs (`/v2/contacts/:id`, `/api/v2/*`) matched as find-my-way
// matches them for the app's options (ignoreTrailingSlash): a static segment before a parameter before a
// wildcard, parameters percent-decoded. ~230 routes need no radix tree.

type Segment = { kind: 'static'; text: string } | { kind: 'param'; name: string } | { kind: 'wildcard' };

interface Entry<T> {
  method: string;
  url: string;
  pattern: Segment[];
  value: T;
}

const RANK = { static: 0, param: 1, wildcard: 2 } as const;

/** An error as Fastify raises it (its `code` is what the error handlers read). */
export function fastifyError(code: string, statusCode: number, message: string): Error & { code: string; statusCode: number } {
  return Object.assign(new Error(message), { code, statusCode });
}

export class RouteTable<T> {
  private readonly entries: Entry<T>[] = [];

  /** Adds a route; a method and URL registered twice, or a URL form the table does not match, throws (as Fastify refuses them). */
  add(method: string, url: string, value: T): void {
    if (this.entries.some((entry) => entry.method === method && entry.url === url)) throw new Error(`Method '${method}' already declared for route '${url}'.`);
    this.entries.push({ method, url, pattern: patternOf(url), value });
  }

  /** The route for a method and a path (without its query); a path that is not valid percent-encoding throws FST_ERR_BAD_URL. */
  find(method: string, path: string): { value: T; params: Record<string, string> } | null {
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
    const segments = trimmed.split('/').slice(1).map((segment) => decodeSegment(segment, path));
    let best: { value: T; params: Record<string, string>; rank: number[] } | null = null;
    for (const entry of this.entries) {
      if (entry.method !== method) continue;
      const matched = matchPattern(entry.pattern, segments);
      if (matched && (!best || compareRanks(matched.rank, best.rank) < 0)) best = { value: entry.value, ...matched };
    }
    return best && { value: best.value, params: best.params };
  }
}

function decodeSegment(segment: string, path: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    throw fastifyError('FST_ERR_BAD_URL', 400, `'${path}' is not a valid url component`);
  }
}

/** A route URL's segments; forms the table does not match (regular expressions, several parameters in one segment) are refused. */
function patternOf(url: string): Segment[] {
  const path = url.length > 1 && url.endsWith('/') ? url.slice(0, -1) : url;
  return path.split('/').slice(1).map((text, at, all): Segment => {
    if (text === '*' && at === all.length - 1) return { kind: 'wildcard' };
    if (/^:\w+$/.test(text)) return { kind: 'param', name: text.slice(1) };
    if (/[:*(]/.test(text)) throw new Error(`The route host cannot match the route '${url}' (segment '${text}').`);
    return { kind: 'static', text };
  });
}

/** The parameters of a match, and its rank: each segment's kind, compared left to right (the first difference decides). */
function matchPattern(pattern: Segment[], segments: string[]): { params: Record<string, string>; rank: number[] } | null {
  const params: Record<string, string> = {};
  const rank: number[] = [];
  for (let at = 0; at < pattern.length; at++) {
    const part = pattern[at];
    if (part.kind === 'wildcard') {
      params['*'] = segments.slice(at).join('/');
      rank.push(RANK.wildcard);
      return { params, rank };
    }
    const segment = segments[at];
    if (segment === undefined) return null;
    if (part.kind === 'static' && part.text !== segment) return null;
    if (part.kind === 'param') {
      if (segment === '') return null;
      params[part.name] = segment;
    }
    rank.push(RANK[part.kind]);
  }
  return segments.length === pattern.length ? { params, rank } : null;
}

function compareRanks(a: number[], b: number[]): number {
  for (let at = 0; at < Math.min(a.length, b.length); at++) if (a[at] !== b[at]) return a[at] - b[at];
  return b.length - a.length;
}
