import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openEngine, type Engine } from '../../electron/engine/engine.js';
import { LocalRecords } from '../../electron/engine/replica/localRecords.js';

/**
 * LocalRecords on a real replica engine and its SQLite file. The tags of a
 * page of pulled records: each tag is looked up once per page, and a tag
 * record in the same page (renamed, removed) is not shadowed by what was
 * looked up before it. A record's move to its hub id takes its search entry.
 * A record's fields land in the columns of their names, read by a function
 * compiled per JSON shape.
 */
const engines: Engine[] = [];
const dirs: string[] = [];

function replica(): { engine: Engine; local: LocalRecords } {
  const dataDir = mkdtempSync(join(tmpdir(), 'outpost-page-tags-'));
  dirs.push(dataDir);
  const engine = openEngine({ dataDir, replica: true });
  engines.push(engine);
  return { engine, local: new LocalRecords(engine.ctx) };
}

afterEach(() => {
  engines.splice(0).forEach((e) => e.close());
  dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true }));
});

const AT = '2026-01-01T00:00:00Z';
const contact = (id: number, tags: string[]) => ({
  id, creator_id: 1, owner_id: 1, is_organization: false, name: `Person ${id}`, last_name: `Person ${id}`, tags, created_at: AT, updated_at: AT,
});
const tag = (id: number, name: string) => ({ id, creator_id: 1, name, resource_type: 'contact', created_at: AT, updated_at: AT });

function page(engine: Engine, local: LocalRecords, write: () => void): void {
  engine.db.transaction(() => local.writePage(write))();
}

function tagsOf(engine: Engine, id: number): string[] {
  return engine.db.prepare(`SELECT t.name FROM taggings g JOIN tags t ON t.id = g.tag_id
    WHERE g.resource_type = 'contact' AND g.resource_id = ? ORDER BY t.name`).pluck().all(id) as string[];
}

describe("a page's tags", () => {
  it('links records to the tags of their names, one tag per name, and replaces a record set again', () => {
    const { engine, local } = replica();
    page(engine, local, () => {
      local.apply('tag', tag(500, 'vip'));
      for (let id = 1; id <= 20; id++) local.apply('contact', contact(id, id % 2 === 0 ? ['vip', ' new lead '] : ['vip']));
    });
    expect(tagsOf(engine, 2)).toEqual(['new lead', 'vip']);
    expect(tagsOf(engine, 3)).toEqual(['vip']);
    expect(engine.db.prepare("SELECT count(*) FROM tags WHERE resource_type = 'contact'").pluck().get()).toBe(2);
    expect(engine.db.prepare("SELECT tag_id FROM taggings WHERE resource_id = 3").pluck().get()).toBe(500);

    // A later page with a record's new set: the old taggings go.
    page(engine, local, () => local.apply('contact', contact(2, ['new lead'])));
    expect(tagsOf(engine, 2)).toEqual(['new lead']);
  });

  it('does not link a name to a tag renamed earlier in the same page', () => {
    const { engine, local } = replica();
    page(engine, local, () => {
      local.apply('tag', tag(500, 'vip'));
      local.apply('contact', contact(1, ['vip']));
      // The hub renamed the tag; a record after it in the page carries the old name, now a tag of its own.
      local.apply('tag', tag(500, 'gold'));
      local.apply('contact', contact(2, ['vip']));
    });
    expect(tagsOf(engine, 1)).toEqual(['gold']);
    expect(tagsOf(engine, 2)).toEqual(['vip']);
    expect(engine.db.prepare("SELECT tag_id FROM taggings WHERE resource_id = 2").pluck().get()).not.toBe(500);
  });

  it('does not link a name to a tag removed earlier in the same page', () => {
    const { engine, local } = replica();
    page(engine, local, () => {
      local.apply('tag', tag(500, 'vip'));
      local.apply('contact', contact(1, ['vip']));
      local.remove('tag', 500);
      local.apply('contact', contact(2, ['vip']));
    });
    expect(tagsOf(engine, 1)).toEqual([]);
    expect(tagsOf(engine, 2)).toEqual(['vip']);
  });
});

describe('a record given its hub id', () => {
  it('is found by search under the new id only (the index keeps no text: the entry is made again from the row)', () => {
    const { engine, local } = replica();
    const match = (query: string) => engine.db.prepare("SELECT rowid FROM contacts_fts WHERE contacts_fts MATCH ?").pluck().all(query);
    page(engine, local, () => local.apply('contact', { ...contact(900_001, []), name: 'Zebedee Quill', email: 'zq@example.com', phone: '+44 20 7946 0000' }));
    expect(match('zebedee')).toEqual([900_001]);
    engine.db.transaction(() => local.remap('contact', 900_001, 77))();
    expect(match('zebedee')).toEqual([77]);
    expect(match('zq*')).toEqual([77]);
    expect(match('442079460000')).toEqual([77]);
    engine.db.exec("INSERT INTO contacts_fts (contacts_fts, rank) VALUES ('integrity-check', 1)");
  });
});

describe("a record's row", () => {
  const rowOf = (engine: Engine, id: number) => engine.db.prepare('SELECT * FROM contacts WHERE id = ?').get(id) as Record<string, unknown>;

  it('takes each field in the column of its name: nested objects in prefixed columns, booleans as 0/1, objects as JSON', () => {
    const { engine, local } = replica();
    page(engine, local, () => local.apply('contact', {
      ...contact(1, []), is_organization: true, name: 'Acme', custom_fields: { tier: 'gold', seats: 12 },
      address: { line1: '1 Main St', city: 'Springfield', postal_code: null, state: 'IL', country: 'US' }, billing_address: null,
      // Computed by the hub, no column of its own here.
      overdue_tasks: 3,
    }));
    expect(rowOf(engine, 1)).toMatchObject({
      is_organization: 1, name: 'Acme', custom_fields: '{"tier":"gold","seats":12}',
      address_line1: '1 Main St', address_city: 'Springfield', address_postal_code: null, address_state: 'IL', address_country: 'US',
      billing_address_city: null,
    });
  });

  it('keeps the columns a record of another shape does not give, and each shape reads its own fields', () => {
    const { engine, local } = replica();
    page(engine, local, () => local.apply('contact', { ...contact(1, []), email: 'first@example.com', address: { city: 'Paris' } }));
    // Fewer fields, in another order: its own reader; the fields it lacks keep their values.
    page(engine, local, () => local.apply('contact', { updated_at: '2026-02-01T00:00:00Z', name: 'Renamed', id: 1, owner_id: 2, creator_id: 1, created_at: AT }));
    expect(rowOf(engine, 1)).toMatchObject({ name: 'Renamed', owner_id: 2, email: 'first@example.com', address_city: 'Paris', updated_at: '2026-02-01T00:00:00Z' });
    page(engine, local, () => local.apply('contact', { ...contact(2, []), is_organization: false, email: 'second@example.com' }));
    expect(rowOf(engine, 2)).toMatchObject({ is_organization: 0, email: 'second@example.com', name: 'Person 2' });
  });

  it('reads fields only by the names of its columns: a field named as code is not a column and runs nothing', () => {
    const { engine, local } = replica();
    const field = "x'] + process.exit(3) + r['";
    page(engine, local, () => local.apply('contact', { ...contact(1, []), [field]: 1, ['name"]; throw 1; //']: 2 }));
    expect(rowOf(engine, 1)).toMatchObject({ id: 1, name: 'Person 1' });
  });
});

/**
 * A page writes the rows of plain records several to a statement and their
 * tag sets together (writePage). What it holds back is written before
 * anything else reads or writes: the page's end, a record of another kind,
 * a removal, a look-up.
 */
describe('a page written several rows at a time', () => {
  const rowOf = (engine: Engine, id: number) => engine.db.prepare('SELECT name, email, address_city FROM contacts WHERE id = ?').get(id);

  it('writes every row with its own values across statements, shapes and records of other kinds in between', () => {
    const { engine, local } = replica();
    page(engine, local, () => {
      for (let id = 1; id <= 45; id++) {
        // Two shapes in runs (one with an email and address, one without), and a custom field (a unique key: written at once) in the middle.
        const shaped = id <= 20 || id > 37 ? { ...contact(id, [`t${id % 3}`]), email: `p${id}@example.com`, address: { city: `City ${id}` } } : contact(id, []);
        local.apply('contact', shaped);
        if (id === 30) local.apply('custom_field', { id: 7, name: 'Tier', type: 'string', resource_type: 'contact', created_at: AT, updated_at: AT });
      }
    });
    expect(engine.db.prepare('SELECT count(*) FROM contacts').pluck().get()).toBe(45);
    for (const id of [1, 16, 17, 20, 38, 45]) expect(rowOf(engine, id)).toEqual({ name: `Person ${id}`, email: `p${id}@example.com`, address_city: `City ${id}` });
    for (const id of [21, 30, 31, 37]) expect(rowOf(engine, id)).toEqual({ name: `Person ${id}`, email: null, address_city: null });
    expect(engine.db.prepare('SELECT name FROM custom_field_definitions WHERE id = 7').pluck().get()).toBe('Tier');
    expect(tagsOf(engine, 17)).toEqual(['t2']);
    expect(tagsOf(engine, 45)).toEqual(['t0']);
    expect(tagsOf(engine, 25)).toEqual([]);
    expect(engine.db.prepare("SELECT count(*) FROM taggings WHERE resource_type = 'contact'").pluck().get()).toBe(28);
  });

  it("keeps a record's last state and last tag set when it comes twice in one page, and replaces the sets of records from earlier pages", () => {
    const { engine, local } = replica();
    page(engine, local, () => {
      for (let id = 1; id <= 5; id++) local.apply('contact', contact(id, ['old', 'kept']));
    });
    page(engine, local, () => {
      local.apply('contact', contact(2, ['first']));
      local.apply('contact', { ...contact(2, ['second', 'kept']), name: 'Person 2, later' });
      local.apply('contact', contact(4, []));
    });
    expect(rowOf(engine, 2)).toMatchObject({ name: 'Person 2, later' });
    expect(tagsOf(engine, 2)).toEqual(['kept', 'second']);
    expect(tagsOf(engine, 4)).toEqual([]);
    expect(tagsOf(engine, 5)).toEqual(['kept', 'old']);
  });

  it('writes what it holds back before a removal or a look-up in the same page', () => {
    const { engine, local } = replica();
    const seen: boolean[] = [];
    page(engine, local, () => {
      local.apply('contact', contact(1, ['vip']));
      seen.push(local.exists('contact', 1));
      local.apply('contact', contact(2, ['vip']));
      local.remove('contact', 2);
      local.apply('contact', contact(3, ['vip']));
    });
    expect(seen).toEqual([true]);
    expect(rowOf(engine, 2)).toBeUndefined();
    expect(tagsOf(engine, 2)).toEqual([]);
    expect(tagsOf(engine, 1)).toEqual(['vip']);
    expect(tagsOf(engine, 3)).toEqual(['vip']);
  });

  it('a tag the hub sends after records that named it first takes their links (the tag made here gives way)', () => {
    const { engine, local } = replica();
    page(engine, local, () => {
      local.apply('contact', contact(1, ['vip']));
      local.apply('contact', contact(2, ['vip']));
      local.apply('tag', tag(500, 'vip'));
      local.apply('contact', contact(3, ['vip']));
    });
    expect(engine.db.prepare("SELECT resource_id FROM taggings WHERE tag_id = 500 ORDER BY resource_id").pluck().all()).toEqual([1, 2, 3]);
    expect(engine.db.prepare("SELECT count(*) FROM tags WHERE resource_type = 'contact'").pluck().get()).toBe(1);
  });
});

describe('a page that fails', () => {
  it('leaves none of the rows it held back for the next page to write', () => {
    const { engine, local } = replica();
    expect(() => page(engine, local, () => {
      for (let id = 1; id <= 3; id++) local.apply('contact', contact(id, ['vip']));
      throw new Error('the page could not be applied');
    })).toThrow('the page could not be applied');
    page(engine, local, () => local.apply('contact', contact(4, ['vip'])));
    expect(engine.db.prepare('SELECT id FROM contacts ORDER BY id').pluck().all()).toEqual([4]);
    expect(engine.db.prepare("SELECT resource_id FROM taggings WHERE resource_type = 'contact'").pluck().all()).toEqual([4]);
  });
});
