/**
 * The engine's SQLite statements as PostgreSQL runs them
 * (docs/design/postgres-hub.md, "The SQL dialect"). The engine has one SQL
 * text per statement, SQLite's; on a PostgreSQL hub each statement is
 * translated once, when prepared. What can be translated word for word is
 * done here; SQLite's functions with no PostgreSQL spelling are defined in
 * PostgreSQL under their SQLite names (db/postgres/functions.ts), so most
 * statements need no rewriting at all.
 *
 * The translation works on tokens (strings, quoted names and comments are
 * never touched), one rule per SQLite spelling:
 * - json_object, json_array, ifnull → json_build_object, json_build_array, coalesce;
 * - json_group_array(x) → coalesce(json_agg(x), '[]') (SQLite's gives [] for no rows); json(x) → CAST(x AS json);
 * - max(a, b), min(a, b) with several arguments → greatest, least;
 * - substr(x, -n) → right(x, n) (SQLite counts a negative start from the end; the phone keys, db/phoneKeySql.ts);
 * - LIKE → ILIKE (SQLite's LIKE ignores the case of ASCII letters);
 * - `a IS b`, `a IS NOT b` → IS [NOT] DISTINCT FROM (SQLite's IS compares any two values);
 * - CASE WHEN x THEN → CASE WHEN truth(x) THEN (SQLite's conditions may be numbers: 0 is false);
 * - CAST(… AS INTEGER | REAL) → bigint, double precision (PostgreSQL's integer and real are 32-bit);
 * - INSERT OR IGNORE → ON CONFLICT DO NOTHING; INSERT OR REPLACE → ON CONFLICT (key) DO UPDATE;
 *   UPDATE OR IGNORE → an UPDATE undone when it breaks a uniqueness rule (ignoresConflicts);
 * - an INSERT into a table with an integer key returns it (better-sqlite3's lastInsertRowid);
 * - a subquery in FROM without a name gets one;
 * - ORDER BY puts NULLs first when ascending, last when descending, as SQLite does (ids are never NULL;
 *   the PostgreSQL indexes place NULLs the same way, so lists are still read off them);
 * - sqlite_schema / sqlite_master → the tables of information_schema;
 * - `<fts index> MATCH ?` and rowid → the search tables of db/postgres/search.ts.
 */

/** What the translation needs to know of a table. */
export interface TableKeys {
  /** The primary key's columns. */
  primaryKey: string[];
  /** The single integer key an INSERT returns, if the table has one. */
  returning: string | null;
}

export type Schema = ReadonlyMap<string, TableKeys>;

type Kind = 'space' | 'comment' | 'string' | 'name' | 'word' | 'param' | 'number' | 'symbol';

interface Token {
  kind: Kind;
  text: string;
}

const TOKEN = /(\s+)|(--[^\n]*|\/\*[\s\S]*?\*\/)|('(?:[^']|'')*')|("(?:[^"]|"")*")|([A-Za-z_][A-Za-z0-9_$]*)|(\?|[@:$][A-Za-z_][A-Za-z0-9_]*)|(\d+(?:\.\d+)?)|(->>|->|::|\|\||<>|!=|<=|>=|==|.)/gy;
const KINDS: Kind[] = ['space', 'comment', 'string', 'name', 'word', 'param', 'number', 'symbol'];

export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  TOKEN.lastIndex = 0;
  let match: RegExpExecArray | null;
  while (TOKEN.lastIndex < sql.length && (match = TOKEN.exec(sql)) !== null) {
    const group = match.findIndex((value, i) => i > 0 && value !== undefined);
    tokens.push({ kind: KINDS[group - 1]!, text: match[0] });
  }
  return tokens;
}

const isWord = (token: Token | undefined, ...words: string[]) =>
  token !== undefined && token.kind === 'word' && words.includes(token.text.toLowerCase());
const isSymbol = (token: Token | undefined, symbol: string) => token !== undefined && token.kind === 'symbol' && token.text === symbol;
const isBlank = (token: Token) => token.kind === 'space' || token.kind === 'comment';

/** The index of the first token from `i` on that is not a space or comment. */
function skipBlank(tokens: Token[], i: number): number {
  while (i < tokens.length && isBlank(tokens[i]!)) i++;
  return i;
}

/** The index of the parenthesis closing the one at `open`. */
function closing(tokens: Token[], open: number): number {
  let depth = 0;
  for (let i = open; i < tokens.length; i++) {
    if (isSymbol(tokens[i], '(')) depth++;
    else if (isSymbol(tokens[i], ')') && --depth === 0) return i;
  }
  throw new Error('Unbalanced parentheses in SQL.');
}

/** The top-level arguments between the parentheses at `open` and `close`. */
function argumentsOf(tokens: Token[], open: number, close: number): Token[][] {
  const args: Token[][] = [[]];
  let depth = 0;
  for (let i = open + 1; i < close; i++) {
    const token = tokens[i]!;
    if (isSymbol(token, '(')) depth++;
    if (isSymbol(token, ')')) depth--;
    if (depth === 0 && isSymbol(token, ',')) args.push([]);
    else args[args.length - 1]!.push(token);
  }
  return args;
}

/** Words a parenthesis may follow that are not functions (FROM (SELECT …), IN (…), …). */
const KEYWORDS = new Set(['from', 'join', 'in', 'exists', 'as', 'on', 'and', 'or', 'not', 'where', 'select', 'values', 'using', 'then',
  'else', 'when', 'case', 'by', 'set', 'into', 'returning', 'distinct', 'all', 'any', 'union', 'over', 'filter', 'with', 'lateral', 'is', 'conflict']);

const RENAMED: Record<string, string> = { json_object: 'json_build_object', json_array: 'json_build_array', ifnull: 'coalesce' };
const TYPES: Record<string, string> = { integer: 'bigint', int: 'bigint', real: 'double precision' };
const INFORMATION_SCHEMA_TABLES =
  "(SELECT CAST('table' AS text) AS type, table_name AS name, table_name AS tbl_name, CAST(NULL AS text) AS sql FROM information_schema.tables WHERE table_schema = current_schema())";

/** The call of `name` whose arguments are `args`, as PostgreSQL spells it. */
function call(name: string, args: Token[][]): string {
  const lower = name.toLowerCase();
  const inner = args.map((arg) => expressions(arg)).join(',');
  if (lower === 'json_group_array') return `coalesce(json_agg(${inner}), '[]'::json)`;
  if ((lower === 'max' || lower === 'min') && args.length > 1) return `${lower === 'max' ? 'greatest' : 'least'}(${inner})`;
  const fromEnd = lower === 'substr' && args.length === 2 ? negativeNumber(args[1]!) : null;
  if (fromEnd !== null) return `right(${expressions(args[0]!)}, ${fromEnd})`;
  if (lower === 'cast') return `CAST(${castOf(args[0]!)})`;
  if (lower === 'json' && args.length === 1) return `CAST(${inner} AS json)`;
  return `${RENAMED[lower] ?? name}(${inner})`;
}

/** The digits of an argument that is a negative whole number (`-9`), or null. */
function negativeNumber(arg: Token[]): string | null {
  const words = arg.filter((t) => !isBlank(t));
  return words.length === 2 && isSymbol(words[0], '-') && words[1]!.kind === 'number' && /^\d+$/.test(words[1]!.text) ? words[1]!.text : null;
}

const ORDER_ENDS = ['limit', 'offset', 'union', 'except', 'intersect', 'for', 'returning'];

/**
 * ORDER BY items with SQLite's place for NULLs made explicit: first when
 * ascending, last when descending (PostgreSQL's default is the other way).
 */
function withNullsPlaced(tokens: Token[]): Token[] {
  const order = topLevelIndex(tokens, 'order');
  const by = order < 0 ? -1 : skipBlank(tokens, order + 1);
  if (!isWord(tokens[by], 'by')) return tokens;
  const out = tokens.slice(0, by + 1);
  let depth = 0;
  let item: Token[] = [];
  const place = () => {
    const words = item.filter((t) => !isBlank(t));
    // An id is never NULL: left as PostgreSQL's default, so it matches the primary keys and the indexes' last columns.
    const last = isWord(words[words.length - 1], 'asc', 'desc') ? words[words.length - 2] : words[words.length - 1];
    const id = isWord(last, 'id', 'rowid');
    if (words.length > 0 && !id && !words.some((t) => isWord(t, 'nulls'))) {
      const last = words[words.length - 1]!;
      item.splice(item.lastIndexOf(last) + 1, 0, { kind: 'word', text: isWord(last, 'desc') ? ' NULLS LAST' : ' NULLS FIRST' });
    }
    out.push(...item);
    item = [];
  };
  for (let i = by + 1; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (isSymbol(token, '(')) depth++;
    if (isSymbol(token, ')')) depth--;
    if (depth === 0 && (isSymbol(token, ',') || isWord(token, ...ORDER_ENDS))) {
      place();
      if (isWord(token, ...ORDER_ENDS)) return [...out, ...withNullsPlaced(tokens.slice(i))];
      out.push(token);
    } else item.push(token);
  }
  place();
  return out;
}

/** Rewrites the expressions of a token list (function calls, operators, casts), recursively inside parentheses. */
function expressions(list: Token[]): string {
  const tokens = withNullsPlaced(list);
  let out = '';
  let previous: Token | undefined;
  // Inside a searched CASE (CASE WHEN …) of this level: its conditions are made booleans.
  let searchedCase = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i]!;
    if (isBlank(token)) {
      out += token.text;
      continue;
    }
    const at = skipBlank(tokens, i + 1);
    const next = tokens[at];
    if (isWord(token, 'case')) searchedCase = isWord(next, 'when');
    if (token.kind === 'word' && isSymbol(next, '(') && !KEYWORDS.has(token.text.toLowerCase()) && !isWord(previous, 'into')) {
      const close = closing(tokens, at);
      out += call(token.text, argumentsOf(tokens, at, close));
      i = close;
    } else if (isSymbol(token, '(')) {
      const close = closing(tokens, i);
      out += `(${argumentsOf(tokens, i, close).map((arg) => expressions(arg)).join(',')})`;
      // PostgreSQL (before 16) names every subquery in FROM; SQLite lets it go unnamed.
      if (isWord(previous, 'from', 'join') && !aliased(tokens[skipBlank(tokens, close + 1)])) out += ` AS subquery_${close}`;
      i = close;
    } else if (isWord(token, 'when') && searchedCase) {
      // SQLite takes any value as a condition (0 false, else true); PostgreSQL only a boolean.
      const then = tokens.findIndex((t, j) => j > i && isWord(t, 'then'));
      out += `WHEN truth(${expressions(tokens.slice(i + 1, then))}) `;
      i = then - 1;
    } else if (isWord(next, 'match')) {
      // `<index> MATCH ?`: the search tables of db/postgres/search.ts.
      const end = skipBlank(tokens, at + 1);
      out += `${token.text}.terms @@ fts_query(${tokens[end]!.text})`;
      i = end;
    } else out += word(tokens, i, previous, next);
    previous = token;
  }
  return out;
}

const CLAUSES = ['where', 'join', 'left', 'inner', 'cross', 'order', 'group', 'limit', 'union', 'on'];

/** Whether the table named before `next` is given an alias there (PostgreSQL needs one for a subquery). */
const aliased = (next: Token | undefined) => next !== undefined && (isWord(next, 'as') || (next.kind === 'word' && !isWord(next, ...CLAUSES)));

/** The token at `i` as PostgreSQL spells it (most are the same). */
function word(tokens: Token[], i: number, previous: Token | undefined, next: Token | undefined): string {
  const token = tokens[i]!;
  if (isWord(token, 'like')) return 'ILIKE';
  if (isWord(token, 'is') && !isWord(next, 'null', 'not', 'true', 'false', 'distinct')) return 'IS NOT DISTINCT FROM';
  if (isWord(token, 'not') && isWord(previous, 'is') && !isWord(next, 'null', 'true', 'false', 'distinct')) return 'DISTINCT FROM';
  if (isWord(token, 'sqlite_schema', 'sqlite_master')) return `${INFORMATION_SCHEMA_TABLES}${aliased(next) ? '' : ` AS ${token.text}`}`;
  if (isWord(token, 'rowid')) {
    // A search table's rowid is its record's id; elsewhere, the row's place in its table, which is
    // the order rows were added in for a table that is only ever added to (oauth_clients).
    const table = isSymbol(previous, '.') ? tokens[i - 2]?.text ?? '' : '';
    return table === '' || table.endsWith('_fts') ? 'id' : 'ctid';
  }
  return token.text;
}

/** `x AS INTEGER` with PostgreSQL's type names. */
function castOf(arg: Token[]): string {
  const as = arg.findLastIndex((t) => isWord(t, 'as'));
  const type = arg.slice(as + 1).filter((t) => !isBlank(t)).map((t) => t.text).join(' ');
  return `${expressions(arg.slice(0, as))} AS ${TYPES[type.toLowerCase()] ?? type}`;
}

/** The statement's INSERT conflict rule and returned key, added at its end (before an existing RETURNING). */
function insertClauses(tokens: Token[], schema: Schema): { tokens: Token[]; suffix: string; returning: string } {
  const words = tokens.filter((t) => !isBlank(t));
  // UPDATE OR IGNORE: the statement runs as a plain UPDATE that is undone if it breaks a uniqueness rule (ignoresConflicts).
  if (isWord(words[0], 'update') && isWord(words[1], 'or') && isWord(words[2], 'ignore')) {
    return { tokens: [...tokens.slice(0, tokens.indexOf(words[1]!)), ...tokens.slice(tokens.indexOf(words[2]!) + 1)], suffix: '', returning: '' };
  }
  if (!isWord(words[0], 'insert')) return { tokens, suffix: '', returning: '' };
  let conflict: 'ignore' | 'replace' | null = null;
  if (isWord(words[1], 'or') && isWord(words[2], 'ignore', 'replace')) {
    conflict = words[2]!.text.toLowerCase() as 'ignore' | 'replace';
    const from = tokens.indexOf(words[1]!);
    tokens = [...tokens.slice(0, from), ...tokens.slice(tokens.indexOf(words[2]!) + 1)];
  }
  const table = (isWord(words[1], 'or') ? words[4] : words[2])?.text.toLowerCase() ?? '';
  const keys = schema.get(table);
  let suffix = '';
  if (conflict === 'ignore') suffix = ' ON CONFLICT DO NOTHING';
  if (conflict === 'replace') suffix = replaceClause(tokens, table, keys);
  const returns = words.some((t) => isWord(t, 'returning'));
  const returning = !returns && keys?.returning ? ` RETURNING ${keys.returning}` : '';
  return { tokens, suffix, returning };
}

/** INSERT OR REPLACE as an upsert on the table's primary key, setting every other column named. */
function replaceClause(tokens: Token[], table: string, keys: TableKeys | undefined): string {
  if (!keys) throw new Error(`INSERT OR REPLACE into ${table}: its primary key is not known.`);
  const open = tokens.findIndex((t) => isSymbol(t, '('));
  const columns = argumentsOf(tokens, open, closing(tokens, open)).map((arg) => arg.filter((t) => !isBlank(t)).map((t) => t.text).join(''));
  const updated = columns.filter((c) => !keys.primaryKey.includes(c.toLowerCase()));
  const target = `(${keys.primaryKey.join(', ')})`;
  return updated.length === 0
    ? ` ON CONFLICT ${target} DO NOTHING`
    : ` ON CONFLICT ${target} DO UPDATE SET ${updated.map((c) => `${c} = excluded.${c}`).join(', ')}`;
}

/**
 * UPDATE OR IGNORE skips the rows whose change would break a uniqueness
 * rule; PostgreSQL has no such clause. The engine uses it on one row at a
 * time, so the statement's run is undone as a whole when it does
 * (PostgresDatabase runs it in a savepoint).
 */
export const ignoresConflicts = (sql: string) => /^\s*UPDATE\s+OR\s+IGNORE\b/i.test(sql);

/** One SQLite statement (with `?` / `@name` placeholders, kept as they are) as PostgreSQL's. */
export function toPostgres(sql: string, schema: Schema): string {
  let tokens = tokenize(sql);
  // A trailing semicolon (and the spaces around it) would end the statement before the clauses added to it.
  while (tokens.length > 0 && (isBlank(tokens[tokens.length - 1]!) || isSymbol(tokens[tokens.length - 1], ';'))) tokens = tokens.slice(0, -1);
  const insert = insertClauses(tokens, schema);
  tokens = insert.tokens;
  const returningAt = insert.suffix ? topLevelIndex(tokens, 'returning') : -1;
  if (returningAt < 0) return `${expressions(tokens)}${insert.suffix}${insert.returning}`;
  return `${expressions(tokens.slice(0, returningAt))}${insert.suffix} ${expressions(tokens.slice(returningAt))}`;
}

/** Where `word` appears outside any parentheses, or -1. */
function topLevelIndex(tokens: Token[], word: string): number {
  let depth = 0;
  for (let i = 0; i < tokens.length; i++) {
    if (isSymbol(tokens[i], '(')) depth++;
    else if (isSymbol(tokens[i], ')')) depth--;
    else if (depth === 0 && isWord(tokens[i], word)) return i;
  }
  return -1;
}
