// The baseline: a bare node:http server doing the same SQLite queries as the
// engine, with no framework, no authentication, no validation. It answers
//   GET /contacts/:id  — one contact, selected as an object and JSON.stringify'd
//   GET /contacts?page=N — the benchmark's list query, rows as objects (the naive way)
// Started by bench/run.mjs as a child process: argv[2] = database file.
import http from 'node:http';
import Database from 'better-sqlite3';

const db = new Database(process.argv[2], { readonly: true });
db.pragma('cache_size = -65536');
const ADDRESS_KEYS = ['line1', 'city', 'postal_code', 'state', 'country'];
const TAGS = "(SELECT group_concat(t.name, char(31)) FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = 'contact' AND g.resource_id = c.id) AS tag_names";
const byId = db.prepare(`SELECT c.*, ${TAGS} FROM contacts c WHERE c.id = ?`);
const list = db.prepare(`SELECT c.*, ${TAGS} FROM contacts c WHERE c.is_organization = ? AND c.customer_status = ? ORDER BY c.last_name ASC, c.id ASC LIMIT ? OFFSET ?`);

// The same full-text search the engine runs for `q`, rows as objects.
const tasksByText = db.prepare('SELECT t.* FROM tasks_fts JOIN tasks t ON t.id = tasks_fts.rowid WHERE tasks_fts MATCH ? ORDER BY tasks_fts.rowid DESC LIMIT 25');
const notesByText = db.prepare("SELECT n.* FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid WHERE notes_fts MATCH ? AND n.type = 'regular' ORDER BY notes_fts.rowid DESC LIMIT 25");

function address(row, prefix, nullable) {
  const value = Object.fromEntries(ADDRESS_KEYS.map((k) => [k, row[`${prefix}_${k}`]]));
  return nullable && ADDRESS_KEYS.every((k) => value[k] === null) ? null : value;
}

/** The same output fields as the engine's contact JSON, built in JavaScript. */
function contact(row) {
  return {
    id: row.id, creator_id: row.creator_id, owner_id: row.owner_id, is_organization: row.is_organization === 1,
    contact_id: row.contact_id, parent_organization_id: row.parent_organization_id, name: row.name,
    first_name: row.first_name, last_name: row.last_name, customer_status: row.customer_status, prospect_status: row.prospect_status,
    title: row.title, description: row.description, industry: row.industry, website: row.website, email: row.email,
    phone: row.phone, mobile: row.mobile, fax: row.fax, twitter: row.twitter, facebook: row.facebook, linkedin: row.linkedin,
    skype: row.skype, address: address(row, 'address', false), billing_address: address(row, 'billing_address', true),
    shipping_address: address(row, 'shipping_address', true), tags: row.tag_names ? row.tag_names.split('\u001f').sort() : [],
    custom_fields: JSON.parse(row.custom_fields), created_at: row.created_at, updated_at: row.updated_at,
  };
}

function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

http.createServer((req, res) => {
  const url = new URL(req.url, 'http://bare');
  const one = /^\/contacts\/(\d+)$/.exec(url.pathname);
  if (one) {
    const row = byId.get(Number(one[1]));
    return row ? send(res, 200, { data: contact(row), meta: { type: 'contact' } }) : send(res, 404, { error: 'not found' });
  }
  const search = /^\/(tasks|notes)$/.exec(url.pathname);
  if (search) {
    const rows = (search[1] === 'tasks' ? tasksByText : notesByText).all(`"${url.searchParams.get('q')}"*`);
    return send(res, 200, { items: rows.map((r) => ({ data: r, meta: { type: search[1].slice(0, -1) } })), meta: { type: 'collection', count: rows.length, links: { self: url.href } } });
  }
  if (url.pathname === '/contacts') {
    const page = Number(url.searchParams.get('page') ?? 1);
    const rows = list.all(0, 'current', 26, (page - 1) * 25);
    const items = rows.slice(0, 25).map((r) => ({ data: contact(r), meta: { type: 'contact' } }));
    const links = { self: url.href };
    if (rows.length > 25) links.next_page = `${url.origin}/contacts?page=${page + 1}`;
    return send(res, 200, { items, meta: { type: 'collection', count: items.length, links } });
  }
  send(res, 404, { error: 'no route' });
}).listen(0, '127.0.0.1', function () {
  process.send?.({ port: this.address().port });
});
