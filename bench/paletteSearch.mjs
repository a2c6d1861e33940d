// The command palette's record search (GET /v2/search) for bench/run.mjs:
// latency of single requests, one at a time as a person types, beside the
// bare server's one-query FTS5 search of the same tables (bench/bareServer.mjs).
//
// `outpost seed --contacts N` makes at most 500 leads and 500 deals, so the line first adds leads and deals
// (BENCH_SEARCH_LEADS, BENCH_SEARCH_DEALS; default 20000 each) straight into
// the database, made from the seeded contacts' names, and removes them again
// afterwards. They are never in the change log, so the sync lines that follow
// see the database exactly as seeded.
import Database from 'better-sqlite3';

const LEADS = Number(process.env.BENCH_SEARCH_LEADS ?? 20_000);
const DEALS = Number(process.env.BENCH_SEARCH_DEALS ?? 20_000);
// Marks the rows this module adds, so a run that died half-way is cleaned up by the next.
const MARK = 'outpost-bench-search';
const TARGET_MS = 50;
const SAMPLES = 40;
// Requests per server and kind of query: alternating rounds (ABBA), so drift falls on both alike.
const ROUNDS = 4;
const PER_ROUND = 100;
const DEAL_WORDS = ['renewal', 'expansion', 'fleet upgrade', 'pilot', 'support plan'];

/**
 * The engine's SQL functions behind the search terms (electron/engine/db/sqlFunctions.ts, copied: the
 * bench runs plain JavaScript); the lead and deal triggers call them.
 */
export function registerSearchFunctions(db) {
  const mark = '\u01c2';
  db.function('phone_terms', { deterministic: true, varargs: true }, (...phones) =>
    phones.filter((p) => typeof p === 'string' && p.length > 0).map((p) => {
      const digits = p.replace(/\D/g, '');
      const runs = [];
      for (let start = 0; digits.length - start >= 7; start++) runs.push(mark + digits.slice(start));
      return [p, digits, ...runs].join(' ');
    }).join(' '));
  db.function('name_parts', { deterministic: true, varargs: true }, (...names) =>
    names.filter((n) => typeof n === 'string' && n.length > 0)
      .flatMap((n) => n.normalize('NFC').match(/[\p{L}\p{N}\p{M}]+/gu) ?? [])
      .flatMap((word) => {
        const letters = [...word];
        return letters.slice(1, Math.max(1, letters.length - 2)).map((_, i) => mark + letters.slice(i + 1).join(''));
      }).join(' '));
}

/** Adds the leads and deals (in one transaction, through the tables' own search triggers); returns their counts. */
export function addSearchRecords(file) {
  const db = new Database(file);
  registerSearchFunctions(db);
  try {
    removeRows(db);
    db.transaction(() => {
      // A lead: a person's first name with another person's last name, at a third person's organization.
      db.prepare(`INSERT INTO leads (creator_id, owner_id, first_name, last_name, organization_name, email, phone, description, created_at, updated_at)
        SELECT p.creator_id, p.owner_id, p.first_name, other.last_name, o.name,
          lower(p.first_name || '.' || other.last_name || (p.id % 97) || '@leads.example'), p.phone, '${MARK}', p.created_at, p.updated_at
        FROM contacts p JOIN contacts other ON other.id = p.id + 1001 LEFT JOIN contacts o ON o.id = p.contact_id
        WHERE p.is_organization = 0 ORDER BY p.id LIMIT ?`).run(LEADS);
      db.prepare(`INSERT INTO deals (creator_id, owner_id, name, value, currency, stage_id, contact_id, organization_id, dropbox_email, added_on, created_at, updated_at)
        SELECT o.creator_id, o.owner_id, o.name || ' ' || json_extract(?, '$[' || ((o.id + w.k) % ${DEAL_WORDS.length}) || ']'), CAST((o.id % 500) * 100 AS TEXT), 'USD',
          (SELECT id FROM stages ORDER BY pipeline_id, position LIMIT 1), o.id, o.id, '${MARK}@deals.invalid', substr(o.created_at, 1, 10), o.created_at, o.updated_at
        FROM contacts o, (SELECT 0 AS k UNION ALL SELECT 1 UNION ALL SELECT 2) w
        WHERE o.is_organization = 1 ORDER BY w.k, o.id LIMIT ?`).run(JSON.stringify(DEAL_WORDS), DEALS);
    })();
    const count = (table) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get();
    return { leads: count('leads'), deals: count('deals') };
  } finally {
    db.close();
  }
}

export function removeSearchRecords(file) {
  const db = new Database(file);
  try {
    removeRows(db);
  } finally {
    db.close();
  }
}

function removeRows(db) {
  db.transaction(() => {
    db.prepare('DELETE FROM leads WHERE description = ?').run(MARK);
    db.prepare('DELETE FROM deals WHERE dropbox_email = ?').run(`${MARK}@deals.invalid`);
  })();
}

/**
 * What people type into the palette, from random seeded people: a name as it
 * is typed (every prefix of "first last", 1 to 8 characters), the start of an
 * email address, a phone's area code with the next digits ("488 50"), a
 * phone's last seven digits ("8472066") and four letters from inside a last
 * name ("mith" of "Smithers", the name parts' queries).
 */
export function paletteQueries(file) {
  const db = new Database(file, { readonly: true });
  try {
    const people = db.prepare('SELECT first_name, last_name, email, phone FROM contacts WHERE is_organization = 0 AND phone IS NOT NULL ORDER BY random() LIMIT ?').all(SAMPLES);
    return {
      'a name as typed, 1–8 characters': people.flatMap((p) => [...`${p.first_name} ${p.last_name}`.slice(0, 8)].map((_, i, all) => all.slice(0, i + 1).join('')).filter((q) => q.trim() !== '')),
      'an email fragment': people.map((p) => p.email.slice(0, 7)),
      'phone digits ("488 50")': people.map((p) => p.phone.replace(/\D/g, '').replace(/^(\d{3})(\d{2}).*/, '$1 $2')),
      'the last 7 digits of a phone': people.map((p) => p.phone.replace(/\D/g, '').slice(-7)),
      'a part inside a last name ("mith")': people.map((p) => (p.last_name.length >= 5 ? p.last_name.slice(1, 5) : p.first_name.slice(1, 4))),
    };
  } finally {
    db.close();
  }
}

async function timeOne(url, headers) {
  const started = performance.now();
  const response = await fetch(url, { headers });
  const body = await response.json();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`GET ${url}: ${response.status} ${JSON.stringify(body)}`);
  return ms;
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

/**
 * Times each kind of query on the hub and on the bare server, one request at
 * a time (a palette sends one per pause in typing), and prints median and p95.
 * The target is on outpost's p95: under 50 ms.
 */
export async function paletteSearchLines({ hub, bare, auth, counts, file, indent }) {
  const queries = paletteQueries(file);
  console.log(`palette search GET /v2/search?q=…&per_page=10 (${counts.contacts} contacts, ${counts.leads} leads, ${counts.deals} deals), one request at a time, ${ROUNDS * PER_ROUND} per server and kind, beside the bare server's single FTS5 query per table`);
  for (const [kind, texts] of Object.entries(queries)) {
    const pick = (i) => encodeURIComponent(texts[i % texts.length]);
    const sides = [
      { name: 'outpost', url: (i) => `${hub}/v2/search?q=${pick(i)}&per_page=10`, headers: auth, times: [] },
      { name: 'bare', url: (i) => `${bare}/search?q=${pick(i)}&per_page=10`, headers: {}, times: [] },
    ];
    for (const side of sides) for (let i = 0; i < 20; i++) await timeOne(side.url(i), side.headers);
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of round % 2 === 0 ? sides : [...sides].reverse()) {
        for (let i = 0; i < PER_ROUND; i++) side.times.push(await timeOne(side.url(round * PER_ROUND + i), side.headers));
      }
    }
    const [ours, theirs] = sides.map((side) => {
      const sorted = [...side.times].sort((a, b) => a - b);
      return { median: percentile(sorted, 0.5), p95: percentile(sorted, 0.95) };
    });
    const ms = (n) => `${n.toFixed(1)} ms`;
    console.log(`${indent}${kind}: outpost median ${ms(ours.median)}, p95 ${ms(ours.p95)}   bare median ${ms(theirs.median)}, p95 ${ms(theirs.p95)}   ratio ${(ours.median / theirs.median).toFixed(2)} (median)   target p95 < ${TARGET_MS} ms ${ours.p95 < TARGET_MS ? 'PASS' : 'MISS'}`);
  }
}
