// What the contacts' search index costs, built three ways from a seeded database (docs/benchmarks.md,
// "Search by a part"): as before migration 35 (a phone as written and its bare digits), as now (plus
// each name word's endings and each phone's runs of last digits, db/sqlFunctions.ts), and with FTS5's
// trigram tokenizer (the alternative not taken, a table beside the word index). For each: the build time of the whole table into a
// file of its own (as a replica's first sync builds aside; CPU time), that file's size, and the median and p95
// of a query for a part of a name and for a phone's last seven digits (newest 100 matches, as the palette asks).
//
//   node --import tsx bench/searchIndexCost.ts <outpost.sqlite> [rounds]
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerSearchFunctions } from '../electron/engine/db/sqlFunctions.js';
import { PART_MARK } from '../electron/engine/db/searchIndexSql.js';

const file = process.argv[2];
if (!file) throw new Error('usage: node --import tsx bench/searchIndexCost.ts <outpost.sqlite> [rounds]');
const ROUNDS = Number(process.argv[3] ?? 3);
const QUERIES = 200;

interface Variant {
  name: string;
  table: string;
  fill: string;
  /** The FTS5 expression for a part of a name, and for a phone's last seven digits. */
  part: (text: string) => string;
  digits: (text: string) => string;
  /** Not built at a million contacts (BENCH_ALL_VARIANTS=1 builds it). */
  small?: boolean;
}

const WORD_INDEX = `tokenize="unicode61 remove_diacritics 2", prefix='2 3', content='', contentless_delete=1`;
const VARIANTS: Variant[] = [
  {
    name: 'before (as written + bare digits)',
    table: `fts5(name, email, phones, ${WORD_INDEX})`,
    fill: 'SELECT id, name, email, old_phone_terms(phone, mobile) FROM main.contacts',
    part: (t) => `"${t}"*`, digits: (t) => `"${t}"*`,
  },
  {
    name: 'now (marked name parts + digit runs)',
    table: `fts5(name, email, phones, name_parts, ${WORD_INDEX})`,
    fill: 'SELECT id, name, email, phone_terms(phone, mobile), name_parts(name) FROM main.contacts',
    part: (t) => `("${t}"* OR "${PART_MARK}${t}"*)`, digits: (t) => `"${PART_MARK}${t}"*`,
  },
  {
    name: 'the marked digit runs alone', small: true,
    table: `fts5(name, email, phones, ${WORD_INDEX})`,
    fill: 'SELECT id, name, email, phone_terms(phone, mobile) FROM main.contacts',
    part: (t) => `"${t}"*`, digits: (t) => `"${PART_MARK}${t}"*`,
  },
  {
    name: 'the marked name parts alone', small: true,
    table: `fts5(name, email, phones, name_parts, ${WORD_INDEX})`,
    fill: 'SELECT id, name, email, old_phone_terms(phone, mobile), name_parts(name) FROM main.contacts',
    part: (t) => `("${t}"* OR "${PART_MARK}${t}"*)`, digits: (t) => `"${t}"*`,
  },
  {
    name: 'trigram (name, email, bare digits)',
    table: `fts5(name, email, phones, tokenize="trigram remove_diacritics 1", content='', contentless_delete=1)`,
    fill: "SELECT id, name, email, concat_ws(' ', replace(replace(replace(replace(replace(phone, ' ', ''), '-', ''), '(', ''), ')', ''), '+', ''), replace(replace(replace(replace(replace(mobile, ' ', ''), '-', ''), '(', ''), ')', ''), '+', '')) FROM main.contacts",
    part: (t) => `"${t}"`, digits: (t) => `"${t}"`,
  },
];

const db = new Database(file, { readonly: false });
registerSearchFunctions(db);
db.function('old_phone_terms', { deterministic: true, varargs: true }, (...phones: unknown[]) =>
  phones.filter((p): p is string => typeof p === 'string' && p.length > 0).map((p) => `${p} ${p.replace(/\D/g, '')}`).join(' '));
db.pragma('cache_size = -65536');
const contacts = db.prepare('SELECT count(*) FROM contacts').pluck().get() as number;
const people = db.prepare(`SELECT first_name, last_name, email, phone FROM contacts
  WHERE is_organization = 0 AND phone IS NOT NULL AND length(last_name) >= 5 ORDER BY random() LIMIT ?`).all(QUERIES) as Record<string, string>[];
const parts = people.map((p) => p.last_name!.slice(1, 5).toLowerCase());
const lastDigits = people.map((p) => p.phone!.replace(/\D/g, '').slice(-7));
// As the palette bench types them (bench/paletteSearch.mjs): every prefix of "first last" up to 8 characters, an email's first 7.
const typedNames = people.slice(0, 40).flatMap((p) => [...`${p.first_name} ${p.last_name}`.slice(0, 8)].map((_, i, all) => all.slice(0, i + 1).join('')))
  .map((t) => (t.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => `"${w}"*`).join(' ')).filter((q) => q !== '');
const emails = people.map((p) => (p.email!.slice(0, 7).match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => `"${w}"*`).join(' ')).filter((q) => q !== '');
const dir = mkdtempSync(join(tmpdir(), 'outpost-search-cost-'));

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
function timed(texts: string[], query: Database.Statement, expression: (t: string) => string) {
  const times = texts.map((t) => {
    const started = performance.now();
    query.all(expression(t));
    return performance.now() - started;
  }).sort((a, b) => a - b);
  return `${percentile(times, 0.5).toFixed(2)} / ${percentile(times, 0.95).toFixed(2)} ms`;
}

const variants = contacts > 300_000 && !process.env.BENCH_ALL_VARIANTS ? VARIANTS.filter((v) => !v.small) : VARIANTS;
console.log(`contacts' search index, ${contacts} contacts, ${ROUNDS} builds each (median), queries p50 / p95 over ${QUERIES}`);
for (const variant of variants) {
  const builds: number[] = [];
  let bytes = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const aside = join(dir, `aside-${round}.sqlite`);
    db.prepare('ATTACH ? AS aside').run(aside);
    db.pragma('aside.journal_mode = OFF');
    db.exec(`CREATE VIRTUAL TABLE aside.idx USING ${variant.table}`);
    const columns = variant.table.slice(5).split(',').map((c) => c.trim()).filter((c) => /^\w+$/.test(c)).join(', ');
    // CPU time, not the clock's: the build is one thread's work, and the shared machine's load moves the clock's figure.
    const started = process.cpuUsage();
    db.exec('BEGIN');
    db.exec("INSERT INTO aside.idx (idx, rank) VALUES ('hashsize', 8388608); INSERT INTO aside.idx (idx, rank) VALUES ('automerge', 0);");
    db.exec(`INSERT INTO aside.idx (rowid, ${columns}) ${variant.fill}`);
    db.exec('COMMIT');
    const used = process.cpuUsage(started);
    builds.push((used.user + used.system) / 1000);
    if (round === ROUNDS - 1) {
      db.exec('DETACH aside');
      bytes = statSync(aside).size;
      db.prepare('ATTACH ? AS aside').run(aside);
      const q = db.prepare('SELECT rowid FROM aside.idx WHERE idx MATCH ? ORDER BY rowid DESC LIMIT 100');
      console.log(`  ${variant.name}: build ${(builds.sort((a, b) => a - b)[Math.floor(ROUNDS / 2)]! / 1000).toFixed(2)} s CPU, ${(bytes / 1e6).toFixed(1)} MB`);
      console.log(`    queries: a part of a name ${timed(parts, q, variant.part)}; the last 7 digits ${timed(lastDigits, q, variant.digits)}; `
        + `a name as typed ${timed(typedNames, q, (t) => t)}; an email fragment ${timed(emails, q, (t) => t)}; one digit ${timed(['"5"*', '"7"*'], q, (t) => t)}`);
    }
    db.exec('DETACH aside');
    rmSync(aside, { force: true });
  }
}
rmSync(dir, { recursive: true, force: true });
db.close();
