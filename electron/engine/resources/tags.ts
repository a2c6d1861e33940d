import { newRecordId, type EngineContext } from '../context.js';
import { isoSeconds } from '../clock.js';
import { jsonObject } from './sqlJson.js';
import type { SyncSource } from '../sync/sources.js';

export type TaggableType = 'contact' | 'lead' | 'deal';

const TAG_JSON = jsonObject({
  id: 'tg.id', creator_id: 'tg.creator_id', name: 'tg.name', resource_type: 'tg.resource_type', created_at: 'tg.created_at', updated_at: 'tg.updated_at',
});

/** Tags as devices receive them (sync/). */
export const TAG_SYNC: SyncSource = { type: 'tag', from: 'tags tg', idColumn: 'tg.id', json: TAG_JSON };

/**
 * Tags as carried by taggable records: a record's tags are replaced as a
 * whole set, and tags that do not exist yet are created on the way.
 * (The /v2/tags resource itself arrives with the pipeline issue.)
 */
export class Tagging {
  private readonly statements;

  constructor(private readonly ctx: EngineContext) {
    const { db } = ctx;
    this.statements = {
      clear: db.prepare('DELETE FROM taggings WHERE resource_type = ? AND resource_id = ?'),
      exists: db.prepare('SELECT 1 FROM tags WHERE resource_type = ? AND name = ?'),
      create: db.prepare(
        'INSERT INTO tags (id, name, resource_type, creator_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (resource_type, name) DO NOTHING',
      ),
      link: db.prepare(
        'INSERT OR IGNORE INTO taggings (tag_id, resource_type, resource_id) SELECT id, ?, ? FROM tags WHERE resource_type = ? AND name = ?',
      ),
    };
  }

  /** Replaces the record's tag set. Call inside the record's transaction. */
  replace(type: TaggableType, resourceId: number, names: string[], actorId: number): void {
    const now = isoSeconds(this.ctx.clock.now());
    const { clear, create, link, exists } = this.statements;
    clear.run(type, resourceId);
    for (const name of new Set(names.map((n) => n.trim()))) {
      // A new id only for a new tag (on a replica, each temporary id is used up when given).
      if (exists.get(type, name) === undefined) {
        const created = create.run(newRecordId(this.ctx, 'tags', 'tag'), name, type, actorId, now, now);
        if (created.changes > 0) this.ctx.changes.record('tag', Number(created.lastInsertRowid), 'created', actorId);
      }
      link.run(type, resourceId, type, name);
    }
  }

  removeAll(type: TaggableType, resourceId: number): void {
    this.statements.clear.run(type, resourceId);
  }

  /** SQL for the JSON array of a record's tag names, sorted. */
  static jsonArray(type: TaggableType, idColumn: string): string {
    return `(SELECT json_group_array(t.name ORDER BY t.name) FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = '${type}' AND g.resource_id = ${idColumn})`;
  }

  /** SQL condition: the record carries a tag of this name (bound parameter). */
  static hasTag(type: TaggableType, idColumn: string): string {
    return `EXISTS (SELECT 1 FROM taggings g JOIN tags t ON t.id = g.tag_id WHERE g.resource_type = '${type}' AND g.resource_id = ${idColumn} AND t.name = ?)`;
  }
}
