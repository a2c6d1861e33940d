// The baseline: a bare node:http server doing the same SQLite queries as the
// engine, with no framework, no authentication, no validation. It answers
//   GET /contacts/:id — one contact: SELECT * (+ its tags) as an object, built
//                       into the API shape in JavaScript and JSON.stringify'd
//   GET /contacts?is_organization=…&customer_status=…&per_page=…&page=… — the
//                       benchmark's list (same filter, sort by last_name, limit
//                       and offset as the engine), rows as objects: the naive way
//   GET /tasks?q=…, GET /notes?q=… — the same FTS5 query the engine runs for q
//   GET /search?q=…&per_page=… — the palette search done the plain way: one FTS5
//                       query per table (contacts, leads, deals; every word a
//                       prefix), newest first, rows as objects, no ranking
//   GET /dump/contact|task|note?after=ID&limit=N — a plain paged download (the sync baseline)
// Started by bench/run.mjs as a child process: argv[2] = database file; it
// sends {port} to the parent once it listens on 127.0.0.1.
import http from 'node:http';
import Database from 'better-sqlite3';
import { contact, pageLinks } from './plainContactJson.mjs';

const db = new Database(process.argv[2], { readonly: true });
// The engine's page cache size, so neither side reads from a smaller cache.
db.pragma('cache_size = -65536');

const TAGS = "(SELECT group_concat(t.name, char(31)) FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = 'contact' AND g.resource_id = c.id) AS tag_names";
const byId = db.prepare(`SELECT c.*, ${TAGS} FROM contacts c WHERE c.id = ?`);
const list = db.prepare(`SELECT c.*, ${TAGS} FROM contacts c WHERE c.is_organization = ? AND c.customer_status = ? ORDER BY c.last_name ASC, c.id ASC LIMIT ? OFFSET ?`);

// The same full-text search the engine runs for `q`, rows as objects.
const tasksByText = db.prepare('SELECT t.* FROM tasks_fts JOIN tasks t ON t.id = tasks_fts.rowid WHERE tasks_fts MATCH ? ORDER BY tasks_fts.rowid DESC LIMIT 25');
const notesByText = db.prepare("SELECT n.* FROM notes_fts JOIN notes n ON n.id = notes_fts.rowid WHERE notes_fts MATCH ? AND n.type = 'regular' ORDER BY notes_fts.rowid DESC LIMIT 25");

// The palette search's baseline: each table's index asked once, with the page size as its limit.
const byName = [
  ['contact', db.prepare('SELECT c.id, c.name, c.email, c.phone FROM contacts_fts JOIN contacts c ON c.id = contacts_fts.rowid WHERE contacts_fts MATCH ? ORDER BY contacts_fts.rowid DESC LIMIT ?')],
  ['lead', db.prepare("SELECT l.id, concat_ws(' ', l.first_name, l.last_name) AS name, l.email, l.phone FROM leads_fts JOIN leads l ON l.id = leads_fts.rowid WHERE leads_fts MATCH ? ORDER BY leads_fts.rowid DESC LIMIT ?")],
  ['deal', db.prepare('SELECT d.id, d.name, d.value, d.currency FROM deals_fts JOIN deals d ON d.id = deals_fts.rowid WHERE deals_fts MATCH ? ORDER BY deals_fts.rowid DESC LIMIT ?')],
];

function searchAll(text, perPage) {
  const words = (text.normalize('NFKC').match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, 8);
  if (words.length === 0) return [];
  const match = words.map((w) => `"${w}"*`).join(' ');
  return byName.flatMap(([type, query]) => query.all(match, perPage).map((row) => ({ data: { type, ...row }, meta: { type: 'search_result' } }))).slice(0, perPage);
}

// Contacts as their stored documents (what the engine serves); tasks and notes as plain rows.
const dumps = {
  contact: db.prepare('SELECT id, doc FROM contact_docs WHERE id > ? ORDER BY id LIMIT ?'),
  task: db.prepare('SELECT * FROM tasks WHERE id > ? ORDER BY id LIMIT ?'),
  note: db.prepare('SELECT * FROM notes WHERE id > ? ORDER BY id LIMIT ?'),
};


function send(res, status, body) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' });
  res.end(JSON.stringify(body));
}

http.createServer((req, res) => {
  const url = new URL(req.url, `http://${req.headers.host ?? 'localhost'}`);
  const one = /^\/contacts\/(\d+)$/.exec(url.pathname);
  if (one) {
    const row = byId.get(Number(one[1]));
    return row ? send(res, 200, { data: contact(row), meta: { type: 'contact' } }) : send(res, 404, { error: 'not found' });
  }
  if (url.pathname === '/contacts') {
    const q = url.searchParams;
    const page = Number(q.get('page') ?? 1);
    const perPage = Number(q.get('per_page') ?? 25);
    const rows = list.all(q.get('is_organization') === 'true' ? 1 : 0, q.get('customer_status') ?? 'current', perPage + 1, (page - 1) * perPage);
    const hasMore = rows.length > perPage;
    if (hasMore) rows.pop();
    const items = rows.map((r) => ({ data: contact(r), meta: { type: 'contact' } }));
    return send(res, 200, { items, meta: { type: 'collection', count: items.length, links: pageLinks(url, page, perPage, hasMore) } });
  }
  const search = /^\/(tasks|notes)$/.exec(url.pathname);
  if (search) {
    const rows = (search[1] === 'tasks' ? tasksByText : notesByText).all(`"${url.searchParams.get('q')}"*`);
    return send(res, 200, { items: rows.map((r) => ({ data: r, meta: { type: search[1].slice(0, -1) } })), meta: { type: 'collection', count: rows.length, links: { self: url.href } } });
  }
  if (url.pathname === '/search') {
    const items = searchAll(url.searchParams.get('q') ?? '', Number(url.searchParams.get('per_page') ?? 10));
    return send(res, 200, { items, meta: { type: 'collection', count: items.length, links: { self: url.href } } });
  }
  // The sync benchmark's baseline: a plain paged download of one table, keyset on id, rows as JSON.
  const dump = /^\/dump\/(contact|task|note)$/.exec(url.pathname);
  if (dump) {
    const rows = dumps[dump[1]].all(Number(url.searchParams.get('after') ?? 0), Number(url.searchParams.get('limit') ?? 1000));
    const items = dump[1] === 'contact' ? rows.map((r) => `{"data":${r.doc},"meta":{"type":"contact"}}`) : rows.map((r) => JSON.stringify({ data: r, meta: { type: dump[1] } }));
    res.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8' });
    return res.end(`{"items":[${items.join(',')}],"meta":{"type":"collection","count":${items.length}}}`);
  }
  send(res, 404, { error: 'no route' });
}).listen(0, '127.0.0.1', function () {
  process.send?.({ port: this.address().port });
});

// Stop with the parent, even when it dies without killing us.
process.on('disconnect', () => process.exit(0));
