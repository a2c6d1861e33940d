import { newRecordId, type Actor, type EngineContext } from '../context.js';
import { MultiRowInsert, valueTuples } from '../db/multiRowInsert.js';
import { recordJson } from './recordStore.js';
import { isoSeconds } from '../clock.js';
import { notFound } from '../problems.js';
import { checkFields, isBlank, type FieldTable } from './fields.js';
import { runList, type ListDefinition, type ListPage } from './listing.js';
import type { RawQuery } from './params.js';
import { jsonObject, jsonOfSubquery } from '../db/sqlJson.js';
import type { SyncSource } from '../sync/sources.js';

export const TAGGABLE_TYPES = ['contact', 'lead', 'deal'] as const;
export type TaggableType = (typeof TAGGABLE_TYPES)[number];

const TAG_JSON = jsonObject({
  id: 'tg.id', creator_id: 'tg.creator_id', name: 'tg.name', resource_type: 'tg.resource_type', created_at: 'tg.created_at', updated_at: 'tg.updated_at',
});

/** Tags as devices receive them (sync/). */
export const TAG_SYNC: SyncSource = { type: 'tag', from: 'tags tg', idColumn: 'tg.id', json: TAG_JSON };

/**
 * Tags as carried by taggable records: a record's tags are replaced as a
 * whole set, and tags that do not exist yet are created on the way.
 */
export class Tagging {
  private readonly statements;
  /** Tag ids by resource type and name while a batch keeps them (batched); null otherwise. */
  private kept: Map<string, number> | null = null;
  /** A batch's tag sets not written yet (batched); null otherwise. */
  private deferred: DeferredTagSets | null = null;
  /** Links of a record to its tags, one or many at a time. */
  private readonly links: MultiRowInsert;

  constructor(private readonly ctx: EngineContext) {
    const { db } = ctx;
    this.statements = {
      any: db.prepare('SELECT 1 FROM taggings WHERE resource_type = ? AND resource_id = ? LIMIT 1'),
      clear: db.prepare('DELETE FROM taggings WHERE resource_type = ? AND resource_id = ?'),
      idOf: db.prepare('SELECT id FROM tags WHERE resource_type = ? AND name = ?').pluck(),
      create: db.prepare(
        'INSERT INTO tags (id, name, resource_type, creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (resource_type, name) DO NOTHING',
      ),
    };
    this.links = new MultiRowInsert(db, (rows) => `INSERT OR IGNORE INTO taggings (tag_id, resource_type, resource_id) VALUES ${valueTuples(rows, 3)}`, 3, LINKS_PER_STATEMENT);
  }

  /**
   * Replaces the record's tag set. Call inside the record's transaction.
   * A new record has no taggings: looking first costs a third of deleting
   * none. In a batch the set is written with the batch's others (deferred).
   */
  replace(type: TaggableType, resourceId: number, names: string[], actorId: number): void {
    if (this.deferred) {
      this.defer(type, resourceId, names, actorId);
      return;
    }
    if (this.statements.any.get(type, resourceId) !== undefined) this.statements.clear.run(type, resourceId);
    this.links.writeAll([...uniqueNames(names)].flatMap((name) => [this.idOf(type, name, actorId), type, resourceId]));
  }

  /**
   * Creates the tags of these names that do not exist yet (notes carry tag
   * names of the record they are about). Returns the names, trimmed and unique.
   */
  ensure(type: TaggableType, names: string[], actorId: number): Set<string> {
    const unique = uniqueNames(names);
    for (const name of unique) this.idOf(type, name, actorId);
    return unique;
  }

  removeAll(type: TaggableType, resourceId: number): void {
    this.writeDeferred();
    this.statements.clear.run(type, resourceId);
  }

  /**
   * Runs `write` (synchronous, inside one transaction) as a batch: each tag
   * looked up once (a replica's page of pulled records names the same few
   * tags a thousand times), and the records' tag sets written together, a
   * statement for many records instead of two for each (a first sync of a
   * million contacts replaces a million tag sets: 2.6 s of its main thread
   * one by one). Only for writes that change tags through this object
   * alone; `forgetKeptTagIds` when one renames, merges or removes a tag, and
   * `writeDeferred` before anything reads or writes taggings by other means.
   * SQLite's only (json_each): the replica's pull is its one caller.
   */
  batched<T>(write: () => T): T {
    this.kept = new Map();
    this.deferred = { cleared: new Map(), links: [] };
    try {
      const result = write();
      this.writeDeferred();
      return result;
    } finally {
      this.kept = null;
      this.deferred = null;
    }
  }

  forgetKeptTagIds(): void {
    this.writeDeferred();
    this.kept?.clear();
  }

  /** Writes the batch's tag sets so far: each record's old links removed, then its new ones. */
  writeDeferred(): void {
    const deferred = this.deferred;
    if (deferred === null) return;
    for (const [type, ids] of deferred.cleared) this.ctx.statements.get(CLEAR_MANY_SQL).run(type, JSON.stringify([...ids]));
    // After the removals: a record's new links must not go before its old ones are gone.
    this.links.writeAll(deferred.links);
    this.deferred = { cleared: new Map(), links: [] };
  }

  private defer(type: TaggableType, resourceId: number, names: string[], actorId: number): void {
    // A record's second set in one batch replaces its first: the first is written before.
    if (this.deferred!.cleared.get(type)?.has(resourceId)) this.writeDeferred();
    const deferred = this.deferred!;
    const cleared = deferred.cleared.get(type);
    if (cleared) cleared.add(resourceId);
    else deferred.cleared.set(type, new Set([resourceId]));
    for (const name of uniqueNames(names)) deferred.links.push(this.idOf(type, name, actorId), type, resourceId);
  }

  /** The id of the tag of this name, created if there is none. */
  private idOf(type: TaggableType, name: string, actorId: number): number {
    const key = `${type}:${name}`;
    let id = this.kept?.get(key) ?? (this.statements.idOf.get(type, name) as number | undefined);
    if (id === undefined) {
      // A new id only for a new tag (on a replica, each temporary id is used up when given).
      const now = isoSeconds(this.ctx.clock.now());
      const created = this.statements.create.run(newRecordId(this.ctx, 'tags', 'tag'), name, type, actorId, now, now);
      if (created.changes > 0) {
        id = Number(created.lastInsertRowid);
        this.ctx.changes.record('tag', id, 'created', actorId);
      } else id = this.statements.idOf.get(type, name) as number;
    }
    this.kept?.set(key, id);
    return id;
  }

  /** SQL for the JSON array of a record's tag names, sorted. */
  static jsonArray(type: TaggableType, idColumn: string): string {
    return jsonOfSubquery(`SELECT json_group_array(t.name ORDER BY t.name) FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = '${type}' AND g.resource_id = ${idColumn}`);
  }

  /** SQL condition: the record carries a tag of this name (bound parameter). */
  static hasTag(type: TaggableType, idColumn: string): string {
    return `EXISTS (SELECT 1 FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = '${type}' AND g.resource_id = ${idColumn} AND t.name = ?)`;
  }
}

interface DeferredTagSets {
  /** Per type, the records whose old links go. */
  cleared: Map<TaggableType, Set<number>>;
  /** Their new links, as (tag_id, resource_type, resource_id) one after another. */
  links: unknown[];
}

/** Links written by one statement (three values each): the statement's run saved for each of the others. */
const LINKS_PER_STATEMENT = 32;
/** A batch's records of one type losing their links: one statement, the ids as a JSON array. */
const CLEAR_MANY_SQL = 'DELETE FROM taggings WHERE resource_type = ? AND resource_id IN (SELECT value FROM json_each(?))';

/** Tag names as a record's set: trimmed, each once. */
const uniqueNames = (names: string[]) => new Set(names.map((n) => n.trim()));

/** The spec's Tag field table. */
export const FIELDS: FieldTable = {
  id: { kind: 'readOnly' },
  creator_id: { kind: 'readOnly' },
  created_at: { kind: 'readOnly' },
  updated_at: { kind: 'readOnly' },
  name: { kind: 'string' },
  resource_type: { kind: 'enum', values: TAGGABLE_TYPES },
};

interface TagRow {
  id: number;
  name: string;
  resource_type: TaggableType;
}

/**
 * `/v2/tags`: list, create, retrieve, update, delete. A tag's name is unique
 * within its resource_type. Renaming or deleting a tag changes every record
 * that carries it (each logged as updated, so devices receive the new tags);
 * notes carry tag names as text and are rewritten too.
 */
export class Tags {
  private readonly list: ListDefinition;

  constructor(private readonly ctx: EngineContext) {
    this.list = {
      resource: 'tag',
      from: 'tags tg',
      json: TAG_JSON,
      idColumn: 'tg.id',
      filters: {
        creator_id: { kind: 'id', column: 'tg.creator_id' },
        name: { kind: 'string', column: 'tg.name' },
        resource_type: { kind: 'enum', column: 'tg.resource_type', values: TAGGABLE_TYPES },
      },
      sorts: { name: 'tg.name', updated_at: 'tg.updated_at', created_at: 'tg.created_at' },
      defaultOrder: 'tg.updated_at ASC',
    };
  }

  json(id: number): string {
    return recordJson(this.ctx, 'tag', `SELECT ${TAG_JSON} FROM tags tg WHERE tg.id = ?`, id);
  }

  listPage(query: RawQuery): ListPage {
    return runList(this.list, query, this.ctx.statements);
  }

  create(data: Record<string, unknown>, actor: Actor): number {
    const tag = this.check(data, {}, 0);
    const now = isoSeconds(this.ctx.clock.now());
    return this.ctx.db.transaction(() => {
      const id = newRecordId(this.ctx, 'tags', 'tag');
      this.ctx.statements.get('INSERT INTO tags (id, name, resource_type, creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)')
        .run(id, tag.name, tag.resource_type, actor.userId, now, now);
      this.ctx.changes.record('tag', id, 'created', actor.userId);
      return id;
    })();
  }

  update(id: number, data: Record<string, unknown>, actor: Actor): void {
    const current = this.find(id);
    const tag = this.check(data, current, id);
    this.ctx.db.transaction(() => {
      const carriers = tag.name === current.name ? [] : this.carriers(current);
      this.ctx.statements.get('UPDATE tags SET name = ?, resource_type = ?, updated_at = ? WHERE id = ?')
        .run(tag.name, tag.resource_type, isoSeconds(this.ctx.clock.now()), id);
      this.renameInNotes(current, tag.name);
      for (const carrier of carriers) this.ctx.changes.record(carrier.type, carrier.id, 'updated', actor.userId);
      this.ctx.changes.record('tag', id, 'updated', actor.userId);
    })();
  }

  delete(id: number, actor: Actor): void {
    const current = this.find(id);
    this.ctx.db.transaction(() => {
      // The carriers are read before the taggings go (a replica has no ON DELETE CASCADE).
      const carriers = this.carriers(current);
      this.ctx.statements.get('DELETE FROM taggings WHERE tag_id = ?').run(id);
      this.renameInNotes(current, null);
      this.ctx.statements.get('DELETE FROM tags WHERE id = ?').run(id);
      for (const carrier of carriers) this.ctx.changes.record(carrier.type, carrier.id, 'updated', actor.userId);
      this.ctx.changes.record('tag', id, 'deleted', actor.userId);
    })();
  }

  private find(id: number): TagRow {
    const row = this.ctx.statements.get('SELECT id, name, resource_type FROM tags WHERE id = ?').get(id) as TagRow | undefined;
    if (!row) throw notFound('tag', id);
    return row;
  }

  /** A non-blank name and a resource_type, the name free within the type; a tag in use keeps its type. */
  private check(data: Record<string, unknown>, current: Partial<TagRow>, id: number): TagRow {
    const { values, errors } = checkFields('tag', FIELDS, data);
    const tag = { ...current, ...values } as TagRow;
    for (const field of ['name', 'resource_type'] as const) {
      if (errors.has(`/${field}`)) continue;
      if (tag[field] === undefined) errors.add(`/${field}`, 'missing', `${field} is required.`);
      else if (isBlank(tag[field])) errors.add(`/${field}`, 'blank', `${field} can't be blank.`);
    }
    if (errors.empty) {
      tag.name = tag.name.trim();
      if (this.ctx.statements.get('SELECT 1 FROM tags WHERE resource_type = ? AND name = ? AND id != ?').get(tag.resource_type, tag.name, id) !== undefined) {
        errors.add('/name', 'already_exists', `A ${tag.resource_type} tag named ${tag.name} already exists.`);
      }
      if (id !== 0 && tag.resource_type !== current.resource_type && this.carriers(current as TagRow).length > 0) {
        errors.add('/resource_type', 'incorrect_value', `The tag is on ${current.resource_type}s; its resource_type cannot change.`);
      }
    }
    errors.throwIfAny();
    return tag;
  }

  /** The records carrying a tag: taggable records through taggings, notes about records of the tag's type by name. */
  private carriers(tag: TagRow): { type: string; id: number }[] {
    const tagged = this.ctx.statements.get('SELECT resource_type AS type, resource_id AS id FROM taggings WHERE tag_id = ?').all(tag.id) as { type: string; id: number }[];
    const notes = this.ctx.statements.get(`SELECT 'note' AS type, n.id FROM notes n, json_each(n.tags) t WHERE n.resource_type = ? AND t.value = ?`)
      .all(tag.resource_type, tag.name) as { type: string; id: number }[];
    return [...tagged, ...notes];
  }

  /** Renames (or, with null, removes) the tag in the notes that carry it; their tags stay sorted and unique. */
  private renameInNotes(tag: TagRow, to: string | null): void {
    this.ctx.statements.get(`UPDATE notes SET tags = (
        SELECT json_group_array(name) FROM (SELECT DISTINCT CASE WHEN t.value = @from THEN @to ELSE t.value END AS name
          FROM json_each(notes.tags) t WHERE @to IS NOT NULL OR t.value != @from ORDER BY name))
      WHERE resource_type = @type AND EXISTS (SELECT 1 FROM json_each(notes.tags) t WHERE t.value = @from)`)
      .run({ from: tag.name, to, type: tag.resource_type });
  }
}
