/**
 * A query string as Fastify parses it (find-my-way's fast-querystring): `+` is a space, a key given
 * more than once holds an array of its values in order, a key without `=` holds '', and a value that
 * is not valid percent-encoding is kept as written. The object has no prototype, as Fastify's.
 */
export function parseQuery(query: string): Record<string, string | string[]> {
  const result: Record<string, string | string[]> = Object.create(null);
  if (query === '') return result;
  for (const pair of query.split('&')) {
    if (pair === '') continue;
    const at = pair.indexOf('=');
    const key = decodePart(at === -1 ? pair : pair.slice(0, at));
    const value = at === -1 ? '' : decodePart(pair.slice(at + 1));
    const held = result[key];
    if (held === undefined) result[key] = value;
    else if (Array.isArray(held)) held.push(value);
    else result[key] = [held, value];
  }
  return result;
}

function decodePart(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}
