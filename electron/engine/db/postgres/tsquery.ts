/**
 * The engine's FTS5 search expressions as PostgreSQL tsqueries, for the search
 * tables of a PostgreSQL hub (search.ts). The engine writes the expressions
 * (resources/search.ts, recordSearch.ts) from words a user typed, each quoted:
 *   "ann"* "smi"*           every word, each as a prefix
 *   name : ("ann"* "smi"*)  the words in the name column only
 *   name : ^"ann smi"*      the name begins with these words (the last a prefix)
 *   (…) OR "55512"*         either
 *   ("cis"* OR "ǂcis"*) AND "fr"*  a word's start or a marked part (searchIndexSql.ts), and another word
 * In a search table the first column's words (the name, or a task's content)
 * carry weight A, the second's B, the third's C (search_terms), so a column
 * filter on `name`, always the first column, becomes weight A. PostgreSQL has
 * no "at the start": `^` becomes the words as a phrase, which the start
 * satisfies; the palette ranks what it finds by the name itself afterwards.
 */
type Node = { kind: 'or' | 'and'; items: Node[] } | { kind: 'phrase'; words: string[]; prefix: boolean; weight: string };

const TOKEN = /\s*("(?:[^"]|"")*"|\(|\)|\*|\^|:|OR\b|AND\b|[A-Za-z_]+)/y;

/** Lower case, accents removed, as search_terms indexes the text. */
const normalized = (word: string) => word.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

function tokens(expression: string): string[] {
  const found: string[] = [];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while ((match = TOKEN.exec(expression)) !== null) found.push(match[1]!);
  if (TOKEN.lastIndex !== 0 && TOKEN.lastIndex < expression.trimEnd().length) throw new Error(`Unsupported search expression: ${expression}`);
  return found;
}

class Parser {
  private at = 0;
  constructor(private readonly list: string[]) {}

  parse(): Node {
    const node = this.or('');
    if (this.at < this.list.length) throw new Error(`Unexpected '${this.list[this.at]}' in a search expression.`);
    return node;
  }

  private or(weight: string): Node {
    const items = [this.and(weight)];
    while (this.list[this.at] === 'OR') {
      this.at++;
      items.push(this.and(weight));
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  }

  private and(weight: string): Node {
    const items: Node[] = [];
    while (this.at < this.list.length && this.list[this.at] !== ')' && this.list[this.at] !== 'OR') {
      // AND is what words side by side say (FTS5 needs it between parenthesized groups).
      if (this.list[this.at] === 'AND') this.at++;
      else items.push(this.unary(weight));
    }
    if (items.length === 0) throw new Error('An empty search expression.');
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  }

  private unary(weight: string): Node {
    const token = this.list[this.at]!;
    // A column filter: `name :` is the first column, weight A.
    if (/^[A-Za-z_]+$/.test(token) && this.list[this.at + 1] === ':') {
      this.at += 2;
      return this.unary('A');
    }
    if (token === '(') {
      this.at++;
      const node = this.or(weight);
      if (this.list[this.at++] !== ')') throw new Error('An unclosed parenthesis in a search expression.');
      return node;
    }
    if (token === '^') this.at++;
    const quoted = this.list[this.at++];
    if (!quoted?.startsWith('"')) throw new Error(`Expected a quoted word in a search expression, found '${quoted}'.`);
    const prefix = this.list[this.at] === '*';
    if (prefix) this.at++;
    const words = normalized(quoted.slice(1, -1).replaceAll('""', '"')).match(/[\p{L}\p{N}]+/gu) ?? [];
    return { kind: 'phrase', words, prefix, weight };
  }
}

/** tsquery text of a node; a phrase's words follow each other (<->), its last word a prefix when asked. */
function render(node: Node): string {
  if (node.kind !== 'phrase') return `(${node.items.map(render).join(node.kind === 'or' ? ' | ' : ' & ')})`;
  const last = node.words.length - 1;
  return node.words.map((word, i) => `'${word}'${i === last && node.prefix ? ':*' : ''}${node.weight ? (i === last && node.prefix ? node.weight : `:${node.weight}`) : ''}`).join(' <-> ');
}

/** The tsquery (as text, for CAST(… AS tsquery)) of one of the engine's FTS5 expressions. */
export function tsqueryOf(expression: string): string {
  return render(new Parser(tokens(expression)).parse());
}
