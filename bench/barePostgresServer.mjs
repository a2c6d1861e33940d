// The PostgreSQL baseline the hub node is measured against: a plain Fastify + node-postgres server over a PostgreSQL hub's own
// database, written as a hand-written API would be. Every request authenticates its bearer token by one
// lookup (the sha256 hex of the token, as electron/engine/auth/tokens.ts stores it), then:
//   GET /v2/contacts/:id   the row and its tags, shaped in JavaScript as the API's contact JSON (as bareServer.mjs)
//   GET /v2/contacts?is_organization=…&customer_status=…&per_page=…&page=…
//                          the bench's list: the engine's filter, sort (last_name, NULLs first, then id), limit, offset
//   GET /v2/tasks?q=…, GET /v2/notes?q=…
//                          PostgreSQL full text over the hub's search tables (`<table>_fts`: id, terms tsvector),
//                          every word a prefix, newest first, 25 rows, as plain rows (notes: the ones the caller may see)
//   PUT /v2/contacts/:id   {"data": {"title": …}}: one UPDATE … RETURNING, the row answered as a contact
// No rate limiter, no idempotency keys, no change log: what the hub does beyond this is what the bench measures.
// Started by bench/postgresHub.mjs as a child process: argv[2] = the database URL; it sends {port} to the parent
// once it listens on 127.0.0.1.
import { createHash } from 'node:crypto';
import Fastify from 'fastify';
import pg from 'pg';
import { contact, pageLinks } from './plainContactJson.mjs';

const POOL_SIZE = 10;
const SEARCH_LIMIT = 25;

// bigint columns (ids, the 0/1 booleans) as numbers, as a hand-written API would configure node-postgres.
pg.types.setTypeParser(pg.types.builtins.INT8, Number);
const pool = new pg.Pool({ connectionString: process.argv[2], max: POOL_SIZE });

const TAGS = "(SELECT string_agg(t.name, chr(31)) FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = 'contact' AND g.resource_id = c.id) AS tag_names";

const SQL = {
  token: `SELECT t.user_id, u.role, t.scope, t.expires_at FROM access_tokens t JOIN users u ON u.id = t.user_id
          WHERE t.token_hash = $1 AND t.revoked_at IS NULL AND u.status = 'active' AND u.deleted_at IS NULL`,
  byId: `SELECT c.*, ${TAGS} FROM contacts c WHERE c.id = $1`,
  list: `SELECT c.*, ${TAGS} FROM contacts c WHERE c.is_organization = $1 AND c.customer_status = $2
         ORDER BY c.last_name ASC NULLS FIRST, c.id ASC LIMIT $3 OFFSET $4`,
  tasks: `SELECT t.* FROM tasks_fts f JOIN tasks t ON t.id = f.id WHERE f.terms @@ to_tsquery('simple', $1) ORDER BY f.id DESC LIMIT ${SEARCH_LIMIT}`,
  notes: `SELECT n.* FROM notes_fts f JOIN notes n ON n.id = f.id WHERE f.terms @@ to_tsquery('simple', $1) AND (n.type = 'regular' OR n.creator_id = $2)
          ORDER BY f.id DESC LIMIT ${SEARCH_LIMIT}`,
  update: `UPDATE contacts c SET title = $1, updated_at = $2 WHERE c.id = $3 RETURNING c.*, ${TAGS}`,
};

/** The words of `q`, each a prefix, all required: a tsquery a user's text cannot break. */
function prefixQuery(text) {
  const words = (String(text ?? '').normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  return words.length === 0 ? null : words.map((w) => `${w}:*`).join(' & ');
}

const isoSeconds = (date) => date.toISOString().replace(/\.\d{3}Z$/, 'Z');
const positiveInt = (value, fallback) => (/^[1-9]\d{0,8}$/.test(String(value ?? '')) ? Number(value) : fallback);

const app = Fastify({ logger: false });
const fail = (reply, status, message) => reply.code(status).send({ errors: [{ error: { message } }] });

// Authentication: one lookup per request, the caller kept on the request.
app.decorateRequest('user', null);
app.addHook('onRequest', async (request, reply) => {
  const token = /^Bearer ([0-9a-f]{64})$/.exec(request.headers.authorization ?? '')?.[1];
  const row = token ? (await pool.query(SQL.token, [createHash('sha256').update(token).digest('hex')])).rows[0] : undefined;
  if (!row || (row.expires_at !== null && row.expires_at <= isoSeconds(new Date()))) return fail(reply, 401, 'invalid token');
  request.user = { id: row.user_id, role: row.role, scopes: new Set(row.scope.split(' ')) };
});

const idParam = { params: { type: 'object', properties: { id: { type: 'integer', minimum: 1 } }, required: ['id'] } };

app.get('/v2/contacts/:id', { schema: idParam }, async (request, reply) => {
  const row = (await pool.query(SQL.byId, [request.params.id])).rows[0];
  return row ? { data: contact(row), meta: { type: 'contact' } } : fail(reply, 404, 'not found');
});

app.get('/v2/contacts', async (request) => {
  const q = request.query;
  const page = positiveInt(q.page, 1);
  const perPage = Math.min(100, positiveInt(q.per_page, 25));
  const { rows } = await pool.query(SQL.list, [q.is_organization === 'true' ? 1 : 0, q.customer_status ?? 'current', perPage + 1, (page - 1) * perPage]);
  const hasMore = rows.length > perPage;
  if (hasMore) rows.pop();
  const url = `http://${request.headers.host}${request.url}`;
  const items = rows.map((r) => ({ data: contact(r), meta: { type: 'contact' } }));
  return { items, meta: { type: 'collection', count: items.length, links: pageLinks(url, page, perPage, hasMore) } };
});

for (const [resource, type] of [['tasks', 'task'], ['notes', 'note']]) {
  app.get(`/v2/${resource}`, async (request, reply) => {
    const query = prefixQuery(request.query.q);
    if (query === null) return fail(reply, 422, 'q must have a word');
    const { rows } = await pool.query(SQL[resource], resource === 'notes' ? [query, request.user.id] : [query]);
    return { items: rows.map((r) => ({ data: r, meta: { type } })), meta: { type: 'collection', count: rows.length } };
  });
}

app.put('/v2/contacts/:id', { schema: idParam }, async (request, reply) => {
  if (!request.user.scopes.has('write')) return fail(reply, 403, 'write scope needed');
  const title = request.body?.data?.title;
  if (typeof title !== 'string' || title.length > 250) return fail(reply, 422, 'data.title must be a text of at most 250 characters');
  const row = (await pool.query(SQL.update, [title, isoSeconds(new Date()), request.params.id])).rows[0];
  return row ? { data: contact(row), meta: { type: 'contact' } } : fail(reply, 404, 'not found');
});

const listening = await app.listen({ host: '127.0.0.1', port: 0 });
process.send?.({ port: Number(new URL(listening).port) });

// Stop with the parent, even when it dies without killing us.
process.on('disconnect', () => process.exit(0));
